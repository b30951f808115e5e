"""The file backend (one .eml a mail, var/mail/ by default) and the admin's outbox."""

import email
from email import policy

import pytest
from django.urls import reverse

from mail import services
from mail.models import MailStatus, OutgoingMail
from tests.games.factories import UserFactory

pytestmark = pytest.mark.django_db

OUTBOX = "/admin/mail/outgoingmail/"


@pytest.fixture
def file_backend(settings, tmp_path):
    settings.EMAIL_BACKEND = "mail.backends.EmlFileBackend"
    settings.EMAIL_FILE_PATH = str(tmp_path / "mail")
    settings.MAIL_SEND_EAGER = True
    return tmp_path / "mail"


@pytest.fixture
def staff_client(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True, email="staff@example.org"))
    return client


def _send(n: int, django_capture_on_commit_callbacks) -> list[OutgoingMail]:
    with django_capture_on_commit_callbacks(execute=True):
        return [
            services.queue_mail(
                to=f"p{i}@example.org",
                subject=f"Mail {i}",
                text=f"Body {i}",
                html=f"<p>Body {i}</p>",
                headers={"X-Club-Kind": "t"},
            )  # fmt: skip
            for i in range(n)
        ]


def test_the_file_backend_writes_one_eml_file_a_mail(file_backend,
                                                     django_capture_on_commit_callbacks):  # fmt: skip
    mails = _send(3, django_capture_on_commit_callbacks)
    files = sorted(file_backend.glob("*.eml"))
    assert len(files) == 3
    parsed = [email.message_from_bytes(f.read_bytes(), policy=policy.default) for f in files]
    assert sorted(m["Subject"] for m in parsed) == ["Mail 0", "Mail 1", "Mail 2"]
    assert all(m["X-Club-Kind"] == "t" for m in parsed)
    assert parsed[0].get_body(("html",)) is not None
    assert not list(file_backend.glob(".*"))  # no partial files left
    assert {OutgoingMail.objects.get(pk=m.pk).status for m in mails} == {MailStatus.SENT}


def test_the_outbox_lists_mails_and_the_files_newest_first(file_backend, staff_client,
                                                          django_capture_on_commit_callbacks):  # fmt: skip
    _send(2, django_capture_on_commit_callbacks)
    OutgoingMail.objects.create(to="x@example.org", subject="Broken", text="t",
                                status=MailStatus.FAILED, attempts=6,
                                last_error="SMTPDataError: (451, b'busy')")  # fmt: skip
    response = staff_client.get(OUTBOX)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Outbox" in html
    assert "p0@example.org" in html and "Mail 1" in html
    assert "Broken" in html and "SMTPDataError" in html
    names = sorted((p.name for p in file_backend.glob("*.eml")), reverse=True)
    positions = [html.index(name) for name in names]
    assert positions == sorted(positions)  # newest first
    # One file, as text; a name that is not one of the files is a 404.
    text = staff_client.get(reverse("admin:mail_outgoingmail_file", args=[names[0]]))
    assert text.status_code == 200 and "Subject: Mail" in text.content.decode()
    for bad in ["..", "test-db.sqlite3", "nope.eml", "x.txt", f".{names[0]}.part"]:
        assert staff_client.get(f"{OUTBOX}file/{bad}/").status_code == 404
    # A slash never reaches the view (the admin's own URLs take it).
    assert staff_client.get(f"{OUTBOX}file/../test-db.sqlite3/").status_code != 200


def test_the_detail_shows_text_and_html(staff_client):
    mail = OutgoingMail.objects.create(to="x@example.org", subject="S", text="Plain body",
                                       html="<p>Rich <b>body</b></p>")  # fmt: skip
    html = staff_client.get(f"{OUTBOX}{mail.pk}/change/").content.decode()
    assert "Plain body" in html
    assert "&lt;p&gt;Rich &lt;b&gt;body&lt;/b&gt;&lt;/p&gt;" in html  # the source, escaped


def test_the_outbox_names_no_files_with_the_smtp_backend(settings, staff_client):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    html = staff_client.get(OUTBOX).content.decode()
    assert 'id="mail-files"' not in html
    assert staff_client.get(f"{OUTBOX}file/x.eml/").status_code == 404


def test_members_do_not_see_the_outbox(client):
    OutgoingMail.objects.create(to="secret@example.org", subject="S", text="t")
    client.force_login(UserFactory(is_staff=False))
    response = client.get(OUTBOX)
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    assert client.post(f"{OUTBOX}send-test/").status_code == 302
    assert OutgoingMail.objects.count() == 1


def test_the_admin_index_links_to_the_outbox(staff_client):
    assert OUTBOX in staff_client.get("/admin/").content.decode()


def test_a_staff_member_sends_a_test_mail_to_themselves(staff_client, smtp_server):
    assert staff_client.get(f"{OUTBOX}send-test/").status_code == 405
    response = staff_client.post(f"{OUTBOX}send-test/")
    assert response.status_code == 302 and response["Location"] == OUTBOX
    [message] = smtp_server.wait_for(1)
    assert message["To"] == "staff@example.org" and message["Subject"].startswith("Test mail")
    assert OutgoingMail.objects.get().kind == "test"
