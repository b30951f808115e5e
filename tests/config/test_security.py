"""Production headers: `check --deploy` is clean, and every page sends a strict CSP."""

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

from games import services
from games.engines.registry import ENGINES
from tests.games.factories import EngineBotFactory, HumanPlayerFactory, UserFactory, play_out
from tests.tournaments.factories import tournament_with_bots

ROOT = Path(__file__).resolve().parents[2]


def _production(code: str, **env_overrides: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SECURE_", "DEBUG"))}
    env.update(
        SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_SETTINGS_MODULE="config.settings.production",
        EMAIL_URL="smtp://mail.example.org:587?tls=True",
    )
    env.update(env_overrides)
    return subprocess.run([sys.executable, "-c", f"import django; django.setup()\n{code}"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)  # fmt: skip


def test_check_deploy_reports_nothing_under_production_settings():
    result = _production(
        "from django.core.management import call_command\n"
        "call_command('check', deploy=True, fail_level='WARNING')"
    )
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout, result.stdout + result.stderr
    assert "WARNING" not in result.stderr and "W0" not in result.stderr


def test_https_settings_are_configurable_for_a_tls_proxy():
    show = (
        "from django.conf import settings as s\n"
        "print(s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS, s.SECURE_HSTS_INCLUDE_SUBDOMAINS,"
        " s.SECURE_HSTS_PRELOAD, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE,"
        " s.SECURE_PROXY_SSL_HEADER)"
    )
    default = _production(show)
    assert default.returncode == 0, default.stderr
    assert default.stdout.split()[:6] == ["True", "31536000", "True", "True", "True", "True"]
    assert "HTTP_X_FORWARDED_PROTO" in default.stdout
    plain = _production(show, SECURE_SSL_REDIRECT="false", SECURE_HSTS_SECONDS="3600",
                        SECURE_HSTS_PRELOAD="false")  # fmt: skip
    assert plain.stdout.split()[:4] == ["False", "3600", "True", "False"]


# ---- Content-Security-Policy ------------------------------------------------------------------
def _directives(header: str) -> dict[str, list[str]]:
    parts = (d.strip().split() for d in header.split(";") if d.strip())
    return {p[0]: p[1:] for p in parts}


@pytest.fixture
def main_pages(db):
    """The site's main pages, with a live match of every game (their boards included)."""
    pat = HumanPlayerFactory(user__username="pat")
    urls = ["/", "/matches/", "/tournaments/", "/tournaments/new/", "/ratings/silkroad/",
            f"/players/{pat.name}/", "/signup/", "/accounts/login/"]  # fmt: skip
    for slug, engine in sorted(ENGINES.items()):
        bots = [EngineBotFactory(bot_name="random") for _ in range(engine.min_players)]
        match = services.create_match(game=slug, players=bots, seed=5, rated=False)
        urls += [f"/matches/{match.pk}/", f"/matches/{match.pk}/live/"]
    # A replay needs a match played to its end (over-the-board results have none).
    play_out(match)
    urls.append(f"/matches/{match.pk}/replay/")
    t = tournament_with_bots(n=4, format="single_elimination", config={"table_size": 2})
    urls += [f"/tournaments/{t.pk}/", f"/tournaments/{t.pk}/live/"]
    return pat, urls


def test_every_main_page_sends_a_strict_policy_and_has_nothing_inline(client, main_pages):
    pat, urls = main_pages
    client.force_login(pat.user)
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        policy = _directives(response["Content-Security-Policy"])
        assert policy["default-src"] == ["'self'"], url
        assert policy["script-src"] == ["'self'"] and policy["style-src"] == ["'self'"], url
        assert policy["frame-ancestors"] == ["'none'"] and policy["object-src"] == ["'none'"]
        html = response.content.decode()
        # What the policy would refuse: inline scripts, style elements and style attributes
        # (the engines' SVG boards use presentation attributes instead).
        # (JSON data blocks are not run, so the policy allows them.)
        inline = r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>"
        assert not re.search(inline, html), url
        assert not re.search(r"<style[\s>]", html), url
        assert not re.search(r"\sstyle\s*=", html), url
        assert not re.search(r"\son[a-z]+\s*=\s*[\"']", html), url  # no inline handlers


def test_admin_health_and_api_docs_carry_a_policy_too(client, db):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    for url in ["/admin/", "/admin/tournaments/tournament/", "/health/", "/api/matches/"]:
        response = client.get(url)
        assert _directives(response["Content-Security-Policy"])["script-src"] == ["'self'"], url
    for url in ["/api/docs/", "/api/redoc/"]:
        policy = _directives(client.get(url)["Content-Security-Policy"])
        # Swagger UI and Redoc write inline styles; scripts stay our own files only.
        assert policy["script-src"] == ["'self'"] and "'unsafe-inline'" in policy["style-src"]
    script = client.get("/api/docs/", {"script": ""})
    assert script.status_code == 200 and "SwaggerUIBundle" in script.content.decode()


def test_debug_error_pages_are_left_readable(client, db, settings):
    settings.DEBUG = True
    assert "Content-Security-Policy" not in client.get("/matches/999999/")
    assert "Content-Security-Policy" in client.get("/")
    settings.DEBUG = False
    assert "Content-Security-Policy" in client.get("/matches/999999/")
