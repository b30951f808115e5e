"""Tournament services on the database; match ends are fed in by the test."""

import pytest
from django.core.exceptions import ValidationError

from games.models import MatchStatus
from tests.games.factories import EngineBotFactory, HumanPlayerFactory, UserFactory, play_out
from tests.tournaments.factories import tournament_with_bots
from tournaments import format_rows, formats, selectors, services
from tournaments.models import Round, RoundStatus, Table, TableStatus, TournamentStatus

pytestmark = pytest.mark.django_db


def _finish_all_matches(t):
    """Play the current round's matches to the end in-process and deliver their results."""
    for table in Table.objects.filter(round__tournament=t, status=TableStatus.PLAYING):
        match = play_out(table.match)
        assert match.status == MatchStatus.FINISHED
        services.on_match_finished(match_id=match.pk)


def _run_to_end(t, max_rounds=20):
    services.start_tournament(tournament=t)
    for _ in range(max_rounds):
        t.refresh_from_db()
        if t.status == TournamentStatus.FINISHED:
            return
        _finish_all_matches(t)
        services.advance_tournament(tournament_id=t.pk)
    raise AssertionError("tournament did not finish")


def test_swiss_of_eight_on_four_player_tables_runs_to_the_end():
    t = tournament_with_bots(n=8, config={"table_size": 4, "rounds": 3})
    _run_to_end(t)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED and t.rounds.count() == 3
    rows = selectors.standings(t)
    assert sorted(r["entry"] for r in rows) == sorted(t.entries.values_list("pk", flat=True))
    # Standings equal a from-scratch recomputation of the recorded results.
    fresh = formats.compute_standings(
        format_rows.entrants(t), format_rows.played_rounds(t), format_rows.format_config(t)
    )
    assert [(r.entrant, r.points) for r in fresh] == [(r["entry"], r["points"]) for r in rows]
    # 3 rounds x 4-player tables: points per round 3+2+1+0 per table.
    assert sum(r["points"] for r in rows) == pytest.approx(3 * 2 * 6)


def test_single_elimination_of_five_gives_byes_and_a_champion():
    t = tournament_with_bots(n=5, format="single_elimination", config={"table_size": 2})
    _run_to_end(t)
    rows = selectors.standings(t)
    assert rows[0]["rank"] == 1 and len(rows) == 5
    first = Round.objects.get(tournament=t, number=1)
    assert first.byes.count() == 3  # 5 entrants -> bracket of 8


def test_entries_withdrawals_and_validation():
    t = tournament_with_bots(n=3, config={"table_size": 2})
    human = HumanPlayerFactory()
    entry = services.add_entry(tournament=t, player=human)
    with pytest.raises(ValidationError):
        services.add_entry(tournament=t, player=human)
    services.withdraw_entry(entry=entry)  # before the start: the entry goes away
    assert not t.entries.filter(player=human).exists()
    with pytest.raises(ValidationError, match="config"):
        services.create_tournament(
            name="x", game="silkroad", format="swiss", config={"table_size": 6}
        )
    with pytest.raises(ValidationError, match="format"):
        services.create_tournament(name="x", game="silkroad", format="ladder")
    with pytest.raises(ValidationError):
        services.create_tournament(
            name="x", game="silkroad", format="swiss", config={"colour": "red"}
        )


def test_late_entry_and_withdrawal_during_the_tournament():
    t = tournament_with_bots(n=4, config={"table_size": 2, "rounds": 3})
    services.start_tournament(tournament=t)
    late = services.add_entry(tournament=t, player=EngineBotFactory())
    assert late.joined_round == 2
    gone = t.entries.exclude(pk=late.pk).first()
    services.withdraw_entry(entry=gone)
    _finish_all_matches(t)
    rnd = services.advance_tournament(tournament_id=t.pk)
    seated = {s.entry_id for table in rnd.tables.all() for s in table.seats.all()} | {
        b.entry_id for b in rnd.byes.all()
    }
    assert late.pk in seated and gone.pk not in seated


def test_manual_pairing_repair_and_forfeit():
    organiser = UserFactory(is_staff=True)
    t = tournament_with_bots(
        n=4, config={"table_size": 2, "rounds": 2}, auto_advance=False, organiser=organiser
    )
    rnd = services.start_tournament(tournament=t)
    assert rnd.status == RoundStatus.PAIRED and not rnd.tables.filter(match__isnull=False).exists()
    services.repair_round(round_=rnd)
    assert rnd.tables.count() == 2
    services.start_round(round_=rnd)
    with pytest.raises(ValidationError):
        services.repair_round(round_=rnd)
    table = rnd.tables.first()
    loser = table.seats.get(index=0).entry
    assert services.record_forfeit(table=table, entry=loser, by=organiser)
    table.refresh_from_db()
    assert table.result["ranks"] == [2, 1] and table.match.status == MatchStatus.ABORTED
    assert services.record_forfeit(table=table, entry=loser, by=organiser) is False  # once only


def test_league_with_over_the_board_results_gives_hand_checked_standings():
    t = tournament_with_bots(
        n=3, format="league", config={"table_size": 3, "tiebreaks": ["average_place"]},
        over_the_board=True, round_days=7,
    )  # fmt: skip
    services.start_tournament(tournament=t)
    rnd = t.rounds.get()
    assert rnd.deadline is not None
    table = rnd.tables.get()
    seats = [s.entry for s in table.seats.order_by("index")]
    # Silk Road over the board: points, then the camel driver's value breaks the tie.
    services.record_over_the_board_result(table=table, scores=[20, 20, 11], tiebreak=[2, 5, 1])
    table.refresh_from_db()
    assert table.result["ranks"] == [2, 1, 3]
    rows = {r["entry"]: r for r in selectors.standings(t)}
    assert (
        rows[seats[1].pk]["points"] == 2
        and rows[seats[0].pk]["points"] == 1
        and rows[seats[2].pk]["points"] == 0
    )
    with pytest.raises(ValidationError):
        services.record_over_the_board_result(table=table, scores=[1, 2], tiebreak=[1, 2])


def test_seed_demo_is_idempotent_and_starts_a_live_tournament():
    from django.core.management import call_command

    from games.models import Player, PlayerKind
    from tournaments.models import Tournament

    call_command("seed_demo")
    call_command("seed_demo")
    assert Player.objects.filter(kind=PlayerKind.ENGINE_BOT).count() == 4 + 8
    t = Tournament.objects.get()
    assert t.status == TournamentStatus.RUNNING and t.rounds.get().tables.count() == 2
    # and a rated match of every game not already played in the (Silk Road) tournament
    from games.engines.registry import ENGINES
    from games.models import Match

    demo = Match.objects.filter(table__isnull=True).exclude(seats__player__name="lena")
    assert sorted(demo.values_list("game", flat=True)) == sorted(set(ENGINES) - {"silkroad"})
    assert all(demo.values_list("rated", flat=True))
    for match in demo:  # four different bots, so the ratings mean something
        assert len(set(match.seats.values_list("player", flat=True))) == 4


def test_seed_demo_leaves_its_mails_in_files_the_outbox_lists(
    settings, tmp_path, admin_client, django_capture_on_commit_callbacks
):
    """`make run`'s mail: files in var/mail/ (here a temporary folder), in the outbox."""
    from django.core.management import call_command

    from mail.models import OutgoingMail

    settings.EMAIL_BACKEND = "mail.backends.EmlFileBackend"
    settings.EMAIL_FILE_PATH = str(tmp_path)
    settings.MAIL_SEND_EAGER = True
    with django_capture_on_commit_callbacks(execute=True):
        call_command("seed_demo")
    files = sorted(tmp_path.glob("*.eml"))
    assert len(files) == 2
    texts = [f.read_text(encoding="utf-8") for f in files]
    assert any("lena@example.com" in t for t in texts)  # her verification link (Czech)
    assert any("admin@example.com" in t and "List-Unsubscribe" in t for t in texts)
    assert set(OutgoingMail.objects.values_list("status", flat=True)) == {"sent"}
    page = admin_client.get("/admin/mail/outgoingmail/").content.decode()
    assert "lena@example.com" in page and "admin@example.com" in page
