from django.urls import path

from games import match_pages, play_pages, rules_pages, views

urlpatterns = [
    path("", views.home, name="home"),
    path("play/", play_pages.play, name="play"),
    path("play/mine/", play_pages.my_games, name="my-games"),
    path("play/<int:pk>/join/", play_pages.play_join, name="play-join"),
    path("play/<int:pk>/cancel/", play_pages.play_cancel, name="play-cancel"),
    path("games/<str:game>/rules/", rules_pages.game_rules, name="game-rules"),
    path("matches/", match_pages.match_list, name="match-list"),
    path("matches/<int:pk>/", match_pages.match_detail, name="match-detail"),
    path("matches/<int:pk>/live/", match_pages.match_live, name="match-live"),
    path("matches/<int:pk>/act/", match_pages.match_act, name="match-act"),
    path("matches/<int:pk>/replay/", match_pages.match_replay, name="match-replay"),
    path("matches/<int:pk>/resign/", match_pages.match_resign, name="match-resign"),
    path("invitations/", match_pages.invitation_list, name="invitations"),
    path(
        "invitations/<int:pk>/accept/",
        match_pages.invitation_answer,
        {"answer": "accept"},
        name="invitation-accept",
    ),
    path(
        "invitations/<int:pk>/decline/",
        match_pages.invitation_answer,
        {"answer": "decline"},
        name="invitation-decline",
    ),
]
