"""Notices to people: the on-site list and bell, e-mail now or in a daily digest, per-kind
preferences and one-click unsubscribe (issue #30). Sits above games and tournaments:
games reaches it only through its signals (notifications/receivers.py); tournaments calls
notifications.services lazily (tournaments/services/notices.py)."""
