from django.urls import path

from tournaments.views import entrants as entrant_views
from tournaments.views import exports as export_views
from tournaments.views import results as result_views
from tournaments.views import rounds as round_views
from tournaments.views import screen as screen_views
from tournaments.views import tournaments as views

urlpatterns = [
    path("", views.tournament_list, name="tournament-list"),
    path("new/", views.tournament_create, name="tournament-create"),
    path("<int:pk>/", views.tournament_detail, name="tournament-detail"),
    path("<int:pk>/live/", views.tournament_live, name="tournament-live"),
    path("<int:pk>/entries/", views.tournament_add_entry, name="tournament-add-entry"),
    path(
        "<int:pk>/entries/<int:entry_id>/withdraw/",
        views.tournament_withdraw,
        name="tournament-withdraw",
    ),
    path("<int:pk>/start/", views.tournament_start, name="tournament-start"),
    path("<int:pk>/pair/", views.tournament_pair, name="tournament-pair"),
    # A paired round's controls (tournaments.views.rounds).
    path("<int:pk>/rounds/<int:number>/start/", round_views.round_start, name="round-start"),
    path("<int:pk>/rounds/<int:number>/repair/", round_views.round_repair, name="round-repair"),
    path("<int:pk>/rounds/<int:number>/unpair/", round_views.round_unpair, name="round-unpair"),
    path("<int:pk>/rounds/<int:number>/swap/", round_views.round_swap, name="round-swap"),
    path("<int:pk>/rounds/<int:number>/move/", round_views.round_move, name="round-move"),
    path("<int:pk>/forbidden/", round_views.forbidden_add, name="tournament-forbidden-add"),
    path(
        "<int:pk>/forbidden/<int:pairing_id>/delete/",
        round_views.forbidden_remove,
        name="tournament-forbidden-remove",
    ),
    path("<int:pk>/tables/<int:table_id>/", result_views.table_detail, name="table-detail"),
    path("<int:pk>/tables/<int:table_id>/result/", result_views.table_result, name="table-result"),
    path("<int:pk>/tables/<int:table_id>/report/", result_views.table_report, name="table-report"),
    path(
        "<int:pk>/tables/<int:table_id>/reports/<int:report_id>/confirm/",
        result_views.report_confirm,
        name="report-confirm",
    ),
    path(
        "<int:pk>/tables/<int:table_id>/reports/<int:report_id>/reject/",
        result_views.report_reject,
        name="report-reject",
    ),
    # exports and print views
    path("<int:pk>/export/trf", export_views.export_trf, name="tournament-export-trf"),
    path("<int:pk>/export/<str:kind>.csv", export_views.export_csv, name="tournament-export"),
    path("<int:pk>/print/pairings/", export_views.print_pairings, name="tournament-print-pairings"),
    path(
        "<int:pk>/print/standings/", export_views.print_standings, name="tournament-print-standings"
    ),
    path(
        "<int:pk>/export/<str:kind>.xlsx", export_views.export_xlsx, name="tournament-export-xlsx"
    ),
    path("<int:pk>/calendar.ics", export_views.calendar, name="tournament-calendar"),
    # The room: projector view, round timer, named tables (tournaments.views.screen).
    path("<int:pk>/screen/", screen_views.screen, name="tournament-screen"),
    path("<int:pk>/screen/live/", screen_views.screen_live, name="tournament-screen-live"),
    path(
        "<int:pk>/rounds/<int:number>/timer/start/",
        screen_views.timer_start,
        name="round-timer-start",
    ),  # fmt: skip
    path(
        "<int:pk>/rounds/<int:number>/timer/pause/",
        screen_views.timer_pause,
        name="round-timer-pause",
    ),  # fmt: skip
    path(
        "<int:pk>/rounds/<int:number>/timer/reset/",
        screen_views.timer_reset,
        name="round-timer-reset",
    ),  # fmt: skip
    path("<int:pk>/table-names/", screen_views.set_table_names, name="tournament-table-names"),
    # Entrants and life cycle (tournaments.views.entrants).
    path("mine/", entrant_views.my_tournaments, name="my-tournaments"),
    path("<int:pk>/join/", entrant_views.join, name="tournament-join"),
    path("<int:pk>/leave/", entrant_views.leave, name="tournament-leave"),
    path("<int:pk>/guests/", entrant_views.add_guest, name="tournament-add-guest"),
    path(
        "<int:pk>/entries/<int:entry_id>/check-in/",
        entrant_views.check_in,
        name="tournament-check-in",
    ),  # fmt: skip
    path(
        "<int:pk>/entries/<int:entry_id>/link/",
        entrant_views.link_guest,
        name="tournament-link-guest",
    ),  # fmt: skip
    path("<int:pk>/planned-start/", entrant_views.planned_start, name="tournament-planned-start"),
    path("<int:pk>/check-in/", entrant_views.check_in_many, name="tournament-check-in-many"),
    path(
        "<int:pk>/members/", entrant_views.member_suggestions, name="tournament-member-suggestions"
    ),
    path(
        "<int:pk>/entries/<int:entry_id>/link/suggestions/",
        entrant_views.link_suggestions,
        name="tournament-link-suggestions",
    ),  # fmt: skip
    path("<int:pk>/pause/", entrant_views.pause, name="tournament-pause"),
    path("<int:pk>/resume/", entrant_views.resume, name="tournament-resume"),
    path("<int:pk>/cancel/", entrant_views.cancel, name="tournament-cancel"),
    # Editing, undo cancel, a table's forfeit (asked first).
    path("<int:pk>/edit/", views.tournament_edit, name="tournament-edit"),
    path("<int:pk>/undo-cancel/", entrant_views.undo_cancel, name="tournament-undo-cancel"),
    path(
        "<int:pk>/tables/<int:table_id>/forfeit/<int:entry_id>/",
        views.table_forfeit,
        name="table-forfeit",
    ),
]
