from django.urls import path

from tournaments import result_views, views

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
    path("<int:pk>/rounds/<int:number>/start/", views.round_start, name="round-start"),
    path("<int:pk>/rounds/<int:number>/repair/", views.round_repair, name="round-repair"),
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
]
