"""The admin's view of open seats (a module of its own beside games/admin.py, loaded
from GamesConfig.ready): staff see which waiting matches still have a seat for anyone."""

from django.contrib import admin

from games.models import OpenSeat


@admin.register(OpenSeat)
class OpenSeatAdmin(admin.ModelAdmin):
    list_display = ("match", "index")
    list_select_related = ("match",)
    raw_id_fields = ("match",)
    search_fields = ("match__id",)
