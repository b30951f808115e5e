"""EMAIL_URL becomes Django's EMAIL_* settings; production refuses to start without SMTP."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from config.settings.components import email_config

ROOT = Path(__file__).resolve().parents[2]
SMTP = "django.core.mail.backends.smtp.EmailBackend"


@pytest.mark.parametrize("url", ["smtp://bob:s%40cret@mail.example.org:587?tls=True",
                                 "smtp+tls://bob:s%40cret@mail.example.org:587"])  # fmt: skip
def test_smtp_with_starttls(url):
    config = email_config(url, Path("/v"))
    assert config["EMAIL_BACKEND"] == SMTP
    assert (config["EMAIL_HOST"], config["EMAIL_PORT"]) == ("mail.example.org", 587)
    assert (config["EMAIL_HOST_USER"], config["EMAIL_HOST_PASSWORD"]) == ("bob", "s@cret")
    assert (config["EMAIL_USE_TLS"], config["EMAIL_USE_SSL"]) == (True, False)


def test_smtps_is_tls_from_the_first_byte_not_starttls():
    config = email_config("smtps://bob:pw@mail.example.org:465", Path("/v"))
    assert config["EMAIL_BACKEND"] == SMTP and config["EMAIL_PORT"] == 465
    assert (config["EMAIL_USE_TLS"], config["EMAIL_USE_SSL"]) == (False, True)


def test_plain_smtp_relay():
    config = email_config("smtp://localhost:25", Path("/v"))
    assert (config["EMAIL_USE_TLS"], config["EMAIL_USE_SSL"]) == (False, False)
    assert config["EMAIL_HOST_USER"] == ""


def test_console_and_file_urls():
    assert email_config("consolemail://", Path("/v"))["EMAIL_BACKEND"] == (
        "django.core.mail.backends.console.EmailBackend"
    )
    files = email_config("filemail:///srv/mail/out", Path("/v"))
    assert files["EMAIL_BACKEND"] == "mail.backends.EmlFileBackend"
    assert files["EMAIL_FILE_PATH"] == "/srv/mail/out"  # absolute, as written


def test_unset_means_files_under_var_mail(tmp_path):
    config = email_config("", tmp_path)
    assert config["EMAIL_BACKEND"] == "mail.backends.EmlFileBackend"
    assert config["EMAIL_FILE_PATH"] == str(tmp_path / "mail")


def _settings(module: str, **env_overrides: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items()
           if k not in ("EMAIL_URL", "DEBUG", "DEFAULT_FROM_EMAIL", "SITE_URL")}  # fmt: skip
    env.update(SECRET_KEY="k" * 50, DJANGO_SETTINGS_MODULE=module, **env_overrides)
    code = ("import django; django.setup(); from django.conf import settings as s; "
            "print(s.EMAIL_BACKEND, s.EMAIL_HOST, s.EMAIL_USE_TLS, s.DEFAULT_FROM_EMAIL == s.SERVER_EMAIL,"
            " s.SITE_URL, s.EMAIL_FILE_PATH)")  # fmt: skip
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60)  # fmt: skip


@pytest.mark.parametrize("url", [None, "consolemail://", "filemail:///tmp/mail"])
def test_production_refuses_to_start_without_smtp(url):
    result = _settings("config.settings.production", **({"EMAIL_URL": url} if url else {}))
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "production settings need EMAIL_URL set to an SMTP server" in result.stderr


def test_production_starts_with_smtp_and_reads_the_sender_and_site(tmp_path):
    result = _settings("config.settings.production",
                       EMAIL_URL="smtps://u:p@mail.example.org:465",
                       SITE_URL="https://club.example.org")  # fmt: skip
    assert result.returncode == 0, result.stderr
    backend, host, tls, same_sender, site, _ = result.stdout.split()
    assert (backend, host, tls, same_sender, site) == (
        SMTP,
        "mail.example.org",
        "False",
        "True",
        "https://club.example.org",
    )


def test_development_without_email_url_writes_files_into_var_mail(tmp_path):
    result = _settings("config.settings.dev", VAR_DIR=str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[0] == "mail.backends.EmlFileBackend"
    assert result.stdout.split()[-1] == str(tmp_path / "mail")
