"""Admin building blocks every app's admin uses."""


class ReadOnlyAdmin:
    """A record nobody adds, edits or deletes in the admin: the services write it (logs of
    decisions and result changes), the admin only shows it."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
