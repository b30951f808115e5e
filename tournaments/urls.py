"""The tournament pages. A tournament's routes under "<id>/", grouped by what they act on:
an entry, a round, a table (each group a list, included under its prefix)."""

from django.urls import include, path

from tournaments.views import entrants as entrant_views
from tournaments.views import exports as export_views
from tournaments.views import results as result_views
from tournaments.views import rounds as round_views
from tournaments.views import screen as screen_views
from tournaments.views import tournaments as views

# "<id>/entries/<entry>/..."
entry_urls = [
    path("withdraw/", views.tournament_withdraw, name="tournament-withdraw"),
    path("check-in/", entrant_views.check_in, name="tournament-check-in"),
    path("link/", entrant_views.link_guest, name="tournament-link-guest"),
    path("link/suggestions/", entrant_views.link_suggestions, name="tournament-link-suggestions"),
]

# "<id>/rounds/<n>/...": a paired round's controls (views.rounds) and its timer (views.screen).
round_urls = [
    path("start/", round_views.round_start, name="round-start"),
    path("repair/", round_views.round_repair, name="round-repair"),
    path("unpair/", round_views.round_unpair, name="round-unpair"),
    path("swap/", round_views.round_swap, name="round-swap"),
    path("move/", round_views.round_move, name="round-move"),
    path("timer/start/", screen_views.timer_start, name="round-timer-start"),
    path("timer/pause/", screen_views.timer_pause, name="round-timer-pause"),
    path("timer/reset/", screen_views.timer_reset, name="round-timer-reset"),
]

# "<id>/tables/<table>/...": its page, result (entered, corrected, deleted), reports, forfeit.
table_urls = [
    path("", result_views.table_detail, name="table-detail"),
    path("result/", result_views.table_result, name="table-result"),
    path("result/delete/", result_views.table_result_delete, name="table-result-delete"),
    path("report/", result_views.table_report, name="table-report"),
    path("reports/<int:report_id>/confirm/", result_views.report_confirm, name="report-confirm"),
    path("reports/<int:report_id>/reject/", result_views.report_reject, name="report-reject"),
    path("forfeit/<int:entry_id>/", views.table_forfeit, name="table-forfeit"),
]

# "<id>/...": the tournament itself.
tournament_urls = [
    path("", views.tournament_detail, name="tournament-detail"),
    # In the event's zone too, set by the view itself: its 204 answer needs no zone lookup.
    path("live/", views.tournament_live, name="tournament-live"),
    path("edit/", views.tournament_edit, name="tournament-edit"),
    path("start/", views.tournament_start, name="tournament-start"),
    path("pair/", views.tournament_pair, name="tournament-pair"),
    # Entrants and life cycle (views.entrants).
    path("entries/", views.tournament_add_entry, name="tournament-add-entry"),
    path("join/", entrant_views.join, name="tournament-join"),
    path("leave/", entrant_views.leave, name="tournament-leave"),
    path("guests/", entrant_views.add_guest, name="tournament-add-guest"),
    path("members/", entrant_views.member_suggestions, name="tournament-member-suggestions"),
    path("check-in/", entrant_views.check_in_many, name="tournament-check-in-many"),
    path("planned-start/", entrant_views.planned_start, name="tournament-planned-start"),
    path("pause/", entrant_views.pause, name="tournament-pause"),
    path("resume/", entrant_views.resume, name="tournament-resume"),
    path("cancel/", entrant_views.cancel, name="tournament-cancel"),
    path("undo-cancel/", entrant_views.undo_cancel, name="tournament-undo-cancel"),
    path("forbidden/", round_views.forbidden_add, name="tournament-forbidden-add"),
    path(
        "forbidden/<int:pairing_id>/delete/",
        round_views.forbidden_remove,
        name="tournament-forbidden-remove",
    ),
    # Exports and print views.
    path("export/trf", export_views.export_trf, name="tournament-export-trf"),
    path("export/<str:kind>.csv", export_views.export_csv, name="tournament-export"),
    path("export/<str:kind>.xlsx", export_views.export_xlsx, name="tournament-export-xlsx"),
    path("print/pairings/", export_views.print_pairings, name="tournament-print-pairings"),
    path("print/standings/", export_views.print_standings, name="tournament-print-standings"),
    path("calendar.ics", export_views.calendar, name="tournament-calendar"),
    # The room: projector view and named tables (views.screen).
    path("screen/", screen_views.screen, name="tournament-screen"),
    path("screen/live/", screen_views.screen_live, name="tournament-screen-live"),
    path("table-names/", screen_views.set_table_names, name="tournament-table-names"),
    path("entries/<int:entry_id>/", include(entry_urls)),
    path("rounds/<int:number>/", include(round_urls)),
    path("tables/<int:table_id>/", include(table_urls)),
]

urlpatterns = [
    path("", views.tournament_list, name="tournament-list"),
    path("new/", views.tournament_create, name="tournament-create"),
    path("mine/", entrant_views.my_tournaments, name="my-tournaments"),
    path("<int:pk>/", include(tournament_urls)),
]
