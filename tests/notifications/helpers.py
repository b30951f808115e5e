from django.utils import timezone

from tests.games.factories import HumanPlayerFactory


def member(name: str, *, language: str = "", verified: bool = True):
    """An account with a player; its e-mail verified unless told otherwise."""
    player = HumanPlayerFactory(
        user__username=name, language=language,
        email_verified_at=timezone.now() if verified else None,
    )  # fmt: skip
    return player.user


def unsubscribe_path(message) -> str:
    """The path of a mail's List-Unsubscribe URL (<https://host/path>)."""
    from urllib.parse import urlsplit

    header = str(message["List-Unsubscribe"]).strip()
    assert header.startswith("<") and header.endswith(">"), header
    return urlsplit(header[1:-1]).path


def body_text(message) -> str:
    return message.get_body(preferencelist=("plain",)).get_content()
