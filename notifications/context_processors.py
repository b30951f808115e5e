from notifications.selectors import unread_count


def unread_notifications(request) -> dict:
    """The header bell's count: one indexed COUNT, nothing for anonymous visitors."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"unread_notifications": unread_count(user)}
