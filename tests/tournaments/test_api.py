import pytest

from tests.games.factories import EngineBotFactory, HumanPlayerFactory, UserFactory
from tests.tournaments.factories import tournament_with_bots
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_create_join_withdraw_start_and_read(api_client):
    organiser = UserFactory()
    api_client.force_authenticate(organiser)
    created = api_client.post("/api/tournaments/", {
        "name": "Club night", "game": "silkroad", "format": "round_robin",
        "config": {"table_size": 2}, "over_the_board": True, "seed": 3,
    }, format="json")  # fmt: skip
    assert created.status_code == 201, created.content
    tid = created.json()["id"]
    bots = [EngineBotFactory() for _ in range(3)]
    for b in bots:
        assert (
            api_client.post(
                f"/api/tournaments/{tid}/entries/", {"player": b.name}, format="json"
            ).status_code
            == 201
        )
    someone = HumanPlayerFactory()
    api_client.force_authenticate(someone.user)
    assert api_client.post(f"/api/tournaments/{tid}/entries/", {}, format="json").status_code == 201
    assert (
        api_client.delete(f"/api/tournaments/{tid}/entries/", {}, format="json").status_code == 204
    )
    assert (
        api_client.post(
            f"/api/tournaments/{tid}/entries/", {"player": bots[0].name}, format="json"
        ).status_code
        == 403
    )
    assert api_client.post(f"/api/tournaments/{tid}/start/").status_code == 403
    api_client.force_authenticate(organiser)
    started = api_client.post(f"/api/tournaments/{tid}/start/")
    assert started.status_code == 200 and started.json()["status"] == "running"
    rounds = api_client.get(f"/api/tournaments/{tid}/rounds/").json()
    assert rounds[0]["number"] == 1
    seated = [s["player"] for table in rounds[0]["tables"] for s in table["seats"]] + rounds[0][
        "byes"
    ]
    assert sorted(seated) == sorted(b.name for b in bots)
    standings = api_client.get(f"/api/tournaments/{tid}/standings/").json()
    assert {row["player"] for row in standings} == {b.name for b in bots}


def _league_table_result_url(api_client):
    """An over-the-board league of two bots started by its organiser (signed in on
    ``api_client``): the tournament and its one table's result URL."""
    organiser = UserFactory()
    t = tournament_with_bots(
        n=2, format="league", config={"table_size": 2}, over_the_board=True, organiser=organiser
    )
    api_client.force_authenticate(organiser)
    api_client.post(f"/api/tournaments/{t.pk}/start/")
    table = t.rounds.first().tables.first()
    return table, f"/api/tournaments/{t.pk}/tables/{table.pk}/result/"


def test_over_the_board_result_through_the_api(api_client):
    table, url = _league_table_result_url(api_client)
    assert (
        api_client.post(url, {"scores": [10, 12]}, format="json").status_code == 400
    )  # driver values missing
    ok = api_client.post(url, {"scores": [10, 12], "tiebreak": [3, 1]}, format="json")
    assert ok.status_code == 201 and ok.json()["result"]["ranks"] == [2, 1]
    assert (
        api_client.post(url, {"scores": [10, 12], "tiebreak": [3, 1]}, format="json").status_code
        == 409
    )
    api_client.force_authenticate(UserFactory())
    assert (
        api_client.post(url, {"scores": [1, 2], "tiebreak": [1, 2]}, format="json").status_code
        == 403
    )


def test_no_rank_before_any_game_is_played(api_client, client):
    organiser = UserFactory()
    t = tournament_with_bots(
        n=4, format="league", config={"table_size": 2}, over_the_board=True, organiser=organiser
    )
    api_client.force_authenticate(organiser)
    api_client.post(f"/api/tournaments/{t.pk}/start/")
    rows = api_client.get(f"/api/tournaments/{t.pk}/standings/").json()
    assert len(rows) == 4 and {row["rank"] for row in rows} == {None}
    csv_rows = client.get(f"/tournaments/{t.pk}/export/standings.csv").content.decode().splitlines()
    assert all(line.startswith(",") for line in csv_rows[1:])  # the rank column is empty
    table = t.rounds.first().tables.first()
    url = f"/api/tournaments/{t.pk}/tables/{table.pk}/result/"
    posted = api_client.post(url, {"scores": [10, 12], "tiebreak": [3, 1]}, format="json")
    assert posted.status_code == 201
    rows = api_client.get(f"/api/tournaments/{t.pk}/standings/").json()
    assert rows[0]["rank"] == 1 and None not in {row["rank"] for row in rows}
    schema = api_client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    rank = schema["components"]["schemas"]["StandingOut"]["properties"]["rank"]
    assert rank.get("nullable") is True or "null" in str(rank.get("type"))


def test_tournament_pages_and_conditional_standings(client):
    organiser = UserFactory()
    t = tournament_with_bots(n=4, config={"table_size": 2, "rounds": 2}, organiser=organiser)
    assert client.get("/tournaments/").status_code == 200
    page = client.get(f"/tournaments/{t.pk}/")
    assert page.status_code == 200 and b"Standings" in page.content
    live = client.get(f"/tournaments/{t.pk}/live/")
    assert live.status_code == 200
    etag = live["ETag"]
    assert client.get(f"/tournaments/{t.pk}/live/", HTTP_IF_NONE_MATCH=etag).status_code == 304
    client.force_login(organiser)
    assert client.post(f"/tournaments/{t.pk}/start/").status_code == 302
    t.refresh_from_db()
    assert t.status == "running"
    assert client.get(f"/tournaments/{t.pk}/live/", HTTP_IF_NONE_MATCH=etag).status_code == 200
    assert Tournament.objects.get(pk=t.pk).rounds.count() == 1


def test_organiser_entering_another_person_sends_an_invitation(
    api_client, django_capture_on_commit_callbacks
):
    from games.models import Invitation

    organiser, bob = HumanPlayerFactory(), HumanPlayerFactory()
    t = tournament_with_bots(n=2, organiser=organiser.user)
    url = f"/api/tournaments/{t.pk}/entries/"
    api_client.force_authenticate(organiser.user)
    response = api_client.post(url, {"player": bob.name}, format="json")
    assert response.status_code == 202
    invitation = response.json()["invitation"]
    assert invitation["kind"] == "entry" and invitation["tournament"] == t.pk
    assert invitation["invited_by"] == organiser.name
    assert not t.entries.filter(player=bob).exists()
    again = api_client.post(url, {"player": bob.name}, format="json")
    assert again.json()["invitation"]["id"] == invitation["id"]  # one open invitation
    api_client.force_authenticate(bob.user)
    [row] = api_client.get("/api/me/invitations/").json()
    assert row["tournament"] == t.pk and row["status"] == "pending"
    with django_capture_on_commit_callbacks(execute=True):  # the signal goes after the commit
        assert api_client.post(f"/api/invitations/{row['id']}/accept/").status_code == 200
    assert t.entries.filter(player=bob).count() == 1
    assert Invitation.objects.get().status == "accepted"


def test_declined_entry_invitation_makes_no_entry(api_client):
    organiser, bob = HumanPlayerFactory(), HumanPlayerFactory()
    t = tournament_with_bots(n=2, organiser=organiser.user)
    api_client.force_authenticate(organiser.user)
    api_client.post(f"/api/tournaments/{t.pk}/entries/", {"player": bob.name}, format="json")
    api_client.force_authenticate(bob.user)
    [row] = api_client.get("/api/me/invitations/").json()
    assert api_client.post(f"/api/invitations/{row['id']}/decline/").status_code == 200
    assert not t.entries.filter(player=bob).exists()


def test_self_entry_and_organisers_own_bots_need_no_invitation(api_client):
    from games import services as game_services

    organiser = HumanPlayerFactory()
    t = tournament_with_bots(n=2, organiser=organiser.user)
    url = f"/api/tournaments/{t.pk}/entries/"
    api_client.force_authenticate(organiser.user)
    own, _ = game_services.create_external_bot(name="org-bot", owner=organiser.user)
    assert api_client.post(url, {"player": own.name}, format="json").status_code == 201
    assert (
        api_client.post(url, {"player": EngineBotFactory().name}, format="json").status_code == 201
    )
    assert api_client.post(url, {}, format="json").status_code == 201
    theirs, _ = game_services.create_external_bot(name="their-bot", owner=UserFactory())
    assert api_client.post(url, {"player": theirs.name}, format="json").status_code == 202
    assert set(t.entries.values_list("player__name", flat=True)) >= {own.name, organiser.name}


def test_organiser_entering_another_person_on_the_page_sends_an_invitation(
    client, django_capture_on_commit_callbacks
):
    """The page enters through the same service as the API: no entry without consent."""
    from games.models import Invitation

    organiser, bob = HumanPlayerFactory(), HumanPlayerFactory()
    bot = EngineBotFactory(bot_name="random")
    t = tournament_with_bots(n=2, organiser=organiser.user)
    client.force_login(organiser.user)
    url = f"/tournaments/{t.pk}/entries/"
    page = client.post(url, {"player": bob.name}, follow=True)
    assert f"{bob.name} invited" in page.content.decode()
    assert not t.entries.filter(player=bob).exists()
    client.post(url, {"player": bot.name})  # built-in bots are entered at once
    assert t.entries.filter(player=bot).exists()
    invitation = Invitation.objects.get(player=bob)
    client.force_login(bob.user)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/invitations/{invitation.pk}/accept/")
    assert t.entries.filter(player=bob).count() == 1


CREATE = {"name": "Club night", "game": "silkroad", "format": "swiss", "config": {"table_size": 2}}


@pytest.mark.parametrize(
    ("extra", "path"),
    [
        ({"rounds": 3}, "rounds"),  # belongs in config: refused, not dropped
        ({"time_control": {"per_move_s": 60, "per_mvoe_s": 30}}, "time_control.per_mvoe_s"),
    ],
)
def test_unknown_fields_of_a_tournament_request_are_refused_by_name(api_client, extra, path):
    api_client.force_authenticate(UserFactory())
    response = api_client.post("/api/tournaments/", {**CREATE, **extra}, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "unknown_field"
    assert response.json()["fields"] == {path: ["Unknown field."]}
    assert not Tournament.objects.exists()


def test_an_unknown_config_key_is_refused_by_the_service(api_client):
    api_client.force_authenticate(UserFactory())
    body = {**CREATE, "config": {"table_size": 2, "round": 3}}
    response = api_client.post("/api/tournaments/", body, format="json")
    assert response.status_code == 400 and "round" in response.json()["fields"]["config"][0]
    assert not Tournament.objects.exists()


def test_a_tournament_request_with_only_known_fields_still_works(api_client):
    api_client.force_authenticate(UserFactory())
    body = {**CREATE, "time_control": {"per_move_s": 60}, "config": {"table_size": 2, "rounds": 3}}
    response = api_client.post("/api/tournaments/", body, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["config"]["rounds"] == 3


def test_an_unknown_field_of_a_typed_in_result_is_refused(api_client):
    table, url = _league_table_result_url(api_client)
    body = {"scores": [10, 12], "tiebreak": [3, 1], "rank": [2, 1]}  # "ranks" misspelt
    response = api_client.post(url, body, format="json")
    assert response.status_code == 400 and response.json()["fields"] == {"rank": ["Unknown field."]}
    table.refresh_from_db()
    assert table.result is None
