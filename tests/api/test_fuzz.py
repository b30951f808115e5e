"""Schemathesis over the OpenAPI schema, in-process through the WSGI app: no 5xx anywhere.

Every operation gets up to `FUZZ_EXAMPLES` generated requests (schema-conforming and
deliberately malformed ones, half of them with ids of real rows), sent with a user's
token; 2xx bodies are checked against the schema. The figures (requests per operation,
statuses, 5xx) are printed for the record. The default keeps the suite within minutes
on two cores; `FUZZ_EXAMPLES=2000` is the long run.
"""

import collections
import logging
import os
import time

import pytest
import schemathesis
from django.core.cache import cache
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, transaction
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import content_type_conformance, response_schema_conformance

from core import tokens
from core.models import ApiToken
from games import services
from games.api.match_views import MyTurnsStreamView
from tests.core.factories import api_key
from tests.games.factories import EngineBotFactory, HumanPlayerFactory
from tests.tournaments.factories import tournament_with_bots
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db

FUZZ_EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "100"))


def _world():
    """A user with a token, and matches, tournaments and players the ids can hit."""
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    bots = [EngineBotFactory() for _ in range(3)]
    running = services.create_match(game="silkroad", players=[alice, bob], seed=3,
                                    time_control={"per_move_s": 60}, created_by=alice.user)  # fmt: skip
    with_bot = services.create_match(game="yspahan", players=[alice, bots[0]], seed=4,
                                     created_by=alice.user)  # fmt: skip
    finished = services.record_offline_match(game="greatwall", players=[alice, bob, bots[1]],
                                             ranks=[1, 2, 3], scores=[10, 8, 3])  # fmt: skip
    registering = tournament_with_bots(n=3, organiser=alice.user, config={"table_size": 2})
    otb = tournament_with_bots(n=4, format="league", organiser=alice.user, over_the_board=True,
                               config={"table_size": 2})  # fmt: skip
    tournament_services.start_tournament(tournament=otb)
    tables = [t.pk for r in otb.rounds.all() for t in r.tables.all()]
    return {
        "token": api_key(alice.user),
        "ids": {
            "/api/matches/": [running.pk, with_bot.pk, finished.pk],
            "/api/tournaments/": [registering.pk, otb.pk],
            "/api/players/": [alice.pk, bob.pk, bots[0].pk],
        },
        "table_id": tables,
    }


def _path_strategies(operation, world):
    """Generated path parameters, and the same with ids of real rows."""
    modes = [GenerationMode.POSITIVE, GenerationMode.NEGATIVE]
    strategies = [operation.as_strategy(generation_mode=m) for m in modes]
    names = {p.name for p in operation.path_parameters}
    if not names:
        return strategies
    prefix = next((k for k in world["ids"] if operation.path.startswith(k)), None)
    real = {}
    if "id" in names and prefix:
        real["id"] = st.sampled_from(world["ids"][prefix])
    if "table_id" in names:
        real["table_id"] = st.sampled_from(world["table_id"])
    if "game" in names:
        real["game"] = st.sampled_from(["silkroad", "yspahan", "greatwall"])
    if real:
        fixed = st.fixed_dictionaries(real)
        strategies += [
            fixed.flatmap(
                lambda p, m=m: operation.as_strategy(generation_mode=m, path_parameters=p)
            )
            for m in modes
        ]
    return strategies


@pytest.fixture
def wsgi_app():
    """The real WSGI handler, minus closing the connection after each request (as Django's
    test client does): the test's transaction holds the rows the requests read."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield WSGIHandler()
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def test_no_server_errors_anywhere(wsgi_app, monkeypatch, capsys, caplog):
    caplog.set_level(logging.CRITICAL, logger="django.request")
    # The stream would otherwise hold every request for its full minute.
    monkeypatch.setattr(MyTurnsStreamView, "STREAM_SECONDS", 0)
    world = _world()
    schema = schemathesis.openapi.from_wsgi("/api/schema/", wsgi_app)
    auth = {"Authorization": f"Token {world['token']}"}
    token_row = ApiToken.objects.values().get(digest=tokens.digest(world["token"]))

    def keep_token():
        # DELETE /api/me/tokens/{id}/ may hit the fuzzer's own token: put it back.
        if not ApiToken.objects.filter(digest=token_row["digest"]).exists():
            ApiToken.objects.create(**token_row)

    sent = collections.Counter()
    statuses = collections.defaultdict(collections.Counter)
    errors = []
    mismatches = []
    spent = collections.Counter()
    total = collections.Counter()
    started = time.monotonic()

    def run(operation):
        label = f"{operation.method.upper()} {operation.path}"

        @given(case=st.one_of(_path_strategies(operation, world)))
        @settings(max_examples=FUZZ_EXAMPLES, deadline=None, database=None,
                  phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))  # fmt: skip
        def fuzz(case):
            # A savepoint per request: a failed one must not poison the test's transaction.
            t0 = time.monotonic()
            if case.method.upper() != "GET":
                cache.clear()  # rate limits would soon answer every write with a 429
            savepoint = transaction.savepoint()
            # The WSGI transport hands the body over as sent: ask for it uncompressed
            # (tests/config/test_compression.py checks the compression itself).
            response = case.call(headers={**auth, "Accept-Encoding": "identity"})
            sent[label] += 1
            spent[label] += time.monotonic() - t0
            statuses[label][response.status_code] += 1
            if response.status_code >= 500:
                transaction.savepoint_rollback(savepoint)
                errors.append((label, case.as_curl_command(), response.status_code))
                return
            transaction.savepoint_commit(savepoint)
            keep_token()
            if 200 <= response.status_code < 300:
                try:
                    case.validate_response(response, checks=[response_schema_conformance,
                                                             content_type_conformance])  # fmt: skip
                except Exception as exc:  # schemathesis' FailureGroup
                    mismatches.append((label, str(exc)[:600]))

        t1 = time.monotonic()
        fuzz()
        total[label] = time.monotonic() - t1

    operations = [result.ok() for result in schema.get_all_operations()]
    for operation in operations:
        run(operation)

    elapsed = time.monotonic() - started
    with capsys.disabled():
        print(f"\nfuzz: {sum(sent.values())} requests to {len(sent)} operations in {elapsed:.0f} s "
              f"({FUZZ_EXAMPLES} examples each at most), {len(errors)} answered 5xx")  # fmt: skip
        print("  requests  in-app s  total s  operation  statuses")
        for label in sorted(sent):
            print(f"  {sent[label]:8d}  {spent[label]:8.1f}  {total[label]:7.1f}  {label}  "
                  f"{dict(sorted(statuses[label].items()))}")  # fmt: skip
        for e in errors[:40]:
            print("  5xx:", e)
        for m in mismatches[:20]:
            print("  schema:", m)
    assert len(sent) == len(operations) >= 24
    assert not errors
    assert not mismatches
