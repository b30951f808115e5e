"""Outgoing e-mail: every mail is an `OutgoingMail` row, sent by a Celery task after
the transaction that queued it commits (mail/services.py)."""
