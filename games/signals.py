"""How games announces a finished match. tournaments and ratings connect
receivers here (games never imports them). Sent once, after the commit that
finished the match; receivers must be idempotent (a re-sent id is possible
after a crash between commit and send)."""

from django.dispatch import Signal

# Sent with match_ids=<list[int]> (the matches one commit finished: a round of bot
# tables ends together) and rated_ids=<list[int]> (those of them that are rated, so
# receivers can skip the rest cheaply).
match_finished = Signal()

# Sent after the commit that accepted an entry invitation, with invitation_id=<int>,
# target_kind=<str> (e.g. "tournament"), target_id=<int>, player_id=<int> and
# invited_by_id=<int|None>. The app owning the target makes the entry; receivers
# must be idempotent (the same id may come again after a crash).
invitation_accepted = Signal()

# Sent after the commit that made invitations (to match seats or entries), with
# invitation_ids=<list[int]>; and after the commit that answered one, with
# invitation_id=<int> and accepted=<bool>. notifications/receivers.py tells the people.
invitation_sent = Signal()
invitation_answered = Signal()

# Sent after the commit that handed the decision to a seat held by a human account, with
# turns=<list[tuple[int, int, int]]>: (match id, ply, user id) for each such match of the
# commit. notifications/receivers.py reminds her of a slow match she does not come back to.
turn_passed = Signal()
