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


class HiddenFieldsAdmin:
    """Fields that hold what nobody may learn while a game runs (a match's seed rebuilds
    every hidden hand; its state holds them): for everyone but superusers the list offers
    no filter, search or ordering on them, and a lookup on them in the query string
    (``?seed__lte=5``, ``?state__has_key=stacks``) is refused with a 400, whatever the
    match's status: one lookup over many matches cannot be told apart per row, and a
    finished match shows its seed on its own page anyway."""

    hidden_fields: tuple[str, ...] = ()

    def _hides(self, request) -> bool:
        return not (request is not None and request.user.is_superuser)

    def _is_hidden(self, name) -> bool:
        if not isinstance(name, str):  # a (field, ListFilter) pair or a filter class
            name = (
                name[0] if isinstance(name, tuple | list) else getattr(name, "parameter_name", "")
            )
        return name.lstrip("^=@").split("__")[0] in self.hidden_fields

    def lookup_allowed(self, lookup, value, request=None):
        if self._hides(request) and self._is_hidden(lookup):
            return False  # the changelist answers DisallowedModelAdminLookup: a 400
        return super().lookup_allowed(lookup, value, request)

    def get_list_filter(self, request):
        filters = super().get_list_filter(request)
        return [f for f in filters if not self._is_hidden(f)] if self._hides(request) else filters

    def get_search_fields(self, request):
        fields = super().get_search_fields(request)
        return [f for f in fields if not self._is_hidden(f)] if self._hides(request) else fields

    def get_sortable_by(self, request):
        sortable = super().get_sortable_by(request)
        return [f for f in sortable if not self._is_hidden(f)] if self._hides(request) else sortable
