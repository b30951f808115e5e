"""games' invitation signals reach notifications: the invited person is told, and the
inviter when she answers (games imports nothing of notifications)."""

import pytest

from games import services as game_services
from games.models import Invitation
from notifications.models import Notification
from tests.notifications.helpers import body_text, member

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_invitation_and_its_answer(smtp_server):
    ann, ben = member("ann"), member("ben")
    game_services.create_match(game="silkroad", players=[ben.player, ann.player], created_by=ben)
    [notice] = Notification.objects.filter(recipient=ann)
    assert notice.kind == "invitation" and notice.data["by"] == "ben"
    [mail] = smtp_server.wait_for(1)
    assert mail["To"] == "ann@example.com" and "ben invites you to" in body_text(mail)
    assert not Notification.objects.filter(recipient=ben).exists()

    invitation = Invitation.objects.get(player=ann.player)
    game_services.decline_invitation(invitation_id=invitation.pk, user=ann)
    [answer] = Notification.objects.filter(recipient=ben)
    assert answer.kind == "invitation_answered" and answer.data["accepted"] is False
    messages = smtp_server.wait_for(2)
    assert messages[1]["To"] == "ben@example.com"
    assert "ann declined your invitation" in body_text(messages[1])
