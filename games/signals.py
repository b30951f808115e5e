"""How games announces a finished match. tournaments and ratings connect
receivers here (games never imports them). Sent once, after the commit that
finished the match; receivers must be idempotent (a re-sent id is possible
after a crash between commit and send)."""

from django.dispatch import Signal

# Sent with match_id=<int> and rated=<bool> (so receivers can skip cheaply).
match_finished = Signal()
