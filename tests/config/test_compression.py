"""Compressed pages (core/compression.py), static files under hashed names with a
long-lived cache (WhiteNoise with CompressedManifestStaticFilesStorage, as `make run` and
production serve them), and the favicon."""

import gzip
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.templatetags.static import static
from django.test import Client, override_settings

from config.worker_process import ROOT
from tests.games.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_a_page_comes_back_gzipped_when_the_browser_takes_it(client):
    plain = client.get("/", headers={"accept-language": "en"})
    assert not plain.has_header("Content-Encoding")
    packed = client.get("/", headers={"accept-language": "en", "accept-encoding": "gzip, br"})
    assert packed["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed["Vary"]
    html = gzip.decompress(packed.content)
    assert b"<h1>Play, rank and run tournaments</h1>" in html and len(html) == len(plain.content)
    assert len(packed.content) < len(plain.content) / 2


def test_a_signed_in_page_is_compressed_too(client):
    client.force_login(UserFactory())
    packed = client.get("/matches/", headers={"accept-encoding": "gzip"})
    assert packed.status_code == 200 and packed["Content-Encoding"] == "gzip"
    assert b'id="turn-count"' in gzip.decompress(packed.content)


def test_the_turn_stream_is_not_compressed(client):
    """gzip would hold the server-sent events back until its buffer fills."""
    client.force_login(UserFactory())
    response = client.get(
        "/api/me/turns/stream/?seconds=0",
        headers={"accept": "text/event-stream", "accept-encoding": "gzip"},
    )
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/event-stream")
    assert not response.has_header("Content-Encoding")
    assert b"retry: 1000" in b"".join(response.streaming_content)


def test_the_favicon_is_linked_and_favicon_ico_answers(client):
    page = client.get("/").content.decode()
    assert f'<link rel="icon" href="{static("img/favicon.svg")}" type="image/svg+xml">' in page
    svg = finders.find("img/favicon.svg")
    assert svg and Path(svg).read_text().startswith("<svg")
    response = client.get("/favicon.ico")
    assert response.status_code == 302 and response["Location"] == static("img/favicon.svg")
    assert "max-age=86400" in response["Cache-Control"]


MANIFEST = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "core.staticfiles.HashedStaticFilesStorage"},
}


@pytest.fixture
def collected(tmp_path):
    """collectstatic as `make run` runs it, into a folder of the test's own; without the
    admin's and the API docs' files, which the pages here do not link (~5 s of the time)."""
    with override_settings(STATIC_ROOT=tmp_path, STORAGES=MANIFEST):
        call_command("collectstatic", "--noinput", verbosity=0,
                     ignore_patterns=["admin", "drf_spectacular_sidecar"])  # fmt: skip
        yield tmp_path


def test_static_files_get_hashed_names_and_a_long_lived_cache(collected):
    client = Client()  # a new handler: WhiteNoise reads the collected folder when it starts
    page = client.get("/", headers={"accept-language": "en"}).content.decode()
    css = re.search(r'href="(/static/css/site\.[0-9a-f]{12}\.css)"', page)
    icon = re.search(r'href="(/static/img/favicon\.[0-9a-f]{12}\.svg)"', page)
    assert css and icon, "the page links content-hashed names"

    response = client.get(css[1])
    assert response.status_code == 200
    assert response["Cache-Control"] == "max-age=315360000, public, immutable"
    packed = client.get(css[1], headers={"accept-encoding": "gzip"})
    assert packed["Content-Encoding"] == "gzip"  # collectstatic's .gz copy
    assert (
        gzip.decompress(b"".join(packed.streaming_content))
        == (ROOT / "static" / "css" / "site.css").read_bytes()
    )

    favicon = client.get("/favicon.ico", follow=True)
    assert favicon.status_code == 200 and favicon["Content-Type"] == "image/svg+xml"
    assert favicon.redirect_chain == [(icon[1], 302)]
    assert "immutable" in favicon["Cache-Control"]


def test_make_run_links_hashed_names_with_debug_on(collected):
    with override_settings(DEBUG=True):
        # Django's own manifest storage would give the plain name under DEBUG.
        assert re.fullmatch(
            r"/static/js/live-header\.[0-9a-f]{12}\.js", static("js/live-header.js")
        )


def test_the_dev_settings_take_the_hashed_storage_only_for_make_run(tmp_path):
    code = "from django.conf import settings; print(settings.STORAGES['staticfiles']['BACKEND'])"

    def backend(**env):
        out = subprocess.run(
            [sys.executable, "-c", f"import django; django.setup(); {code}"],
            cwd=ROOT, capture_output=True, text=True, check=True, timeout=60,
            env={"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "config.settings.dev",
                 "VAR_DIR": str(tmp_path), **env},
        )  # fmt: skip
        return out.stdout.strip()

    assert backend(STATIC_MANIFEST="1") == "core.staticfiles.HashedStaticFilesStorage"
    assert backend() == "django.contrib.staticfiles.storage.StaticFilesStorage"


def test_make_run_collects_the_static_files_before_it_serves():
    dry = subprocess.run(["make", "-n", "run"], cwd=ROOT, capture_output=True, text=True,
                         check=True, timeout=60).stdout  # fmt: skip
    assert dry.index("collectstatic --noinput") < dry.index("config.worker_process run")
