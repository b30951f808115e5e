"""Read-only lists of what the workers record; staff may delete a record (a failure dealt
with, a worker gone for good). The workers write these rows, never the admin."""

from django.contrib import admin

from operations.models import TaskFailure, WorkerHeartbeat


class RecordAdmin(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(WorkerHeartbeat)
class WorkerHeartbeatAdmin(RecordAdmin):
    list_display = ["hostname", "pid", "started_at", "last_seen", "stopped_at", "tasks"]
    search_fields = ["hostname"]


@admin.register(TaskFailure)
class TaskFailureAdmin(RecordAdmin):
    list_display = ["task", "key", "count", "last_at", "first_at", "last_error"]
    list_filter = ["task"]
    search_fields = ["task", "key", "last_error"]
