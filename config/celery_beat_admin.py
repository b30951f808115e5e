"""django-celery-beat's admin in the reader's language.

The package has no Czech catalog, but it marks its words with gettext: its field labels,
help texts, choices, fieldset titles and actions are translated through the project's
catalog (LOCALE_PATHS come first for every app). They are listed below so that
makemessages keeps them. The few words it leaves unmarked (the task name's label, the
crontab's read-only summary) get labels of ours: its admins are registered again with
them (CeleryBeatConfig.ready).
"""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop, ngettext_lazy
from django_celery_beat import admin as beat_admin
from django_celery_beat.models import (
    ClockedSchedule,
    CrontabSchedule,
    IntervalSchedule,
    PeriodicTask,
    SolarSchedule,
)

# The package's own words, verbatim (a changed text in a new release falls back to English).
# Left out: "{0} task{1} {2} successfully run", glued from English plural endings.
CELERY_BEAT_WORDS = (
    # schedules: periods, solar events
    gettext_noop("Days"), gettext_noop("Hours"), gettext_noop("Minutes"),
    gettext_noop("Seconds"), gettext_noop("Microseconds"),
    gettext_noop("Day"), gettext_noop("Hour"), gettext_noop("Minute"),
    gettext_noop("Second"), gettext_noop("Microsecond"),
    gettext_noop("every {}"), gettext_noop("every {} {}"),
    gettext_noop("Astronomical dawn"), gettext_noop("Civil dawn"), gettext_noop("Nautical dawn"),
    gettext_noop("Astronomical dusk"), gettext_noop("Civil dusk"), gettext_noop("Nautical dusk"),
    gettext_noop("Solar noon"), gettext_noop("Sunrise"), gettext_noop("Sunset"),
    gettext_noop("Solar Event"),
    gettext_noop("The type of solar event when the job should run"),
    gettext_noop("Latitude"),
    gettext_noop("Run the task when the event happens at this latitude"),
    gettext_noop("Longitude"),
    gettext_noop("Run the task when the event happens at this longitude"),
    gettext_noop("Number of Periods"),
    gettext_noop("Number of interval periods to wait before running the task again"),
    gettext_noop("Interval Period"),
    gettext_noop("The type of period between task runs (Example: days)"),
    gettext_noop("Clock Time"), gettext_noop("Run the task at clocked time"),
    gettext_noop("Minute(s)"),
    gettext_noop('Cron Minutes to Run. Use "*" for "all". (Example: "0,30")'),
    gettext_noop("Hour(s)"),
    gettext_noop('Cron Hours to Run. Use "*" for "all". (Example: "8,20")'),
    gettext_noop("Day(s) Of The Month"),
    gettext_noop('Cron Days Of The Month to Run. Use "*" for "all". (Example: "1,15")'),
    gettext_noop("Month(s) Of The Year"),
    gettext_noop('Cron Months (1-12) Of The Year to Run. Use "*" for "all". (Example: "1,12")'),
    gettext_noop("Day(s) Of The Week"),
    gettext_noop('Cron Days Of The Week to Run. Use "*" for "all", Sunday is 0 or 7, Monday is 1. '
                 '(Example: "0,5")'),
    gettext_noop("Cron Timezone"),
    gettext_noop("Timezone to Run the Cron Schedule on. Default is UTC."),
    # the periodic task
    gettext_noop("Short Description For This Task"),
    gettext_noop("Interval Schedule"),
    gettext_noop("Interval Schedule to run the task on.  Set only one schedule type, leave the "
                 "others null."),
    gettext_noop("Crontab Schedule"),
    gettext_noop("Crontab Schedule to run the task on.  Set only one schedule type, leave the "
                 "others null."),
    gettext_noop("Solar Schedule"),
    gettext_noop("Solar Schedule to run the task on.  Set only one schedule type, leave the "
                 "others null."),
    gettext_noop("Clocked Schedule"),
    gettext_noop("Clocked Schedule to run the task on.  Set only one schedule type, leave the "
                 "others null."),
    gettext_noop("Positional Arguments"),
    gettext_noop('JSON encoded positional arguments (Example: ["arg1", "arg2"])'),
    gettext_noop("Keyword Arguments"),
    gettext_noop('JSON encoded keyword arguments (Example: {"argument": "value"})'),
    gettext_noop("Queue Override"),
    gettext_noop("Queue defined in CELERY_TASK_QUEUES. Leave None for default queuing."),
    gettext_noop("Exchange"), gettext_noop("Override Exchange for low-level AMQP routing"),
    gettext_noop("Routing Key"), gettext_noop("Override Routing Key for low-level AMQP routing"),
    gettext_noop("AMQP Message Headers"),
    gettext_noop("JSON encoded message headers for the AMQP message."),
    gettext_noop("Priority"),
    gettext_noop("Priority Number between 0 and 255. Supported by: RabbitMQ, Redis (priority "
                 "reversed, 0 is highest)."),
    gettext_noop("Expires Datetime"),
    gettext_noop("Datetime after which the schedule will no longer trigger the task to run"),
    gettext_noop("Expires timedelta with seconds"),
    gettext_noop("Timedelta with seconds which the schedule will no longer trigger the task to "
                 "run"),
    gettext_noop("One-off Task"),
    gettext_noop("If True, the schedule will only run the task a single time"),
    gettext_noop("Start Datetime"),
    gettext_noop("Datetime when the schedule should begin triggering the task to run"),
    gettext_noop("Enabled"), gettext_noop("Set to False to disable the schedule"),
    gettext_noop("Last Run Datetime"),
    gettext_noop("Datetime that the schedule last triggered the task to run. Reset to None if "
                 "enabled is set to False."),
    gettext_noop("Total Run Count"),
    gettext_noop("Running count of how many times the schedule has triggered the task"),
    gettext_noop("Last Modified"),
    gettext_noop("Datetime that this PeriodicTask was last modified"),
    gettext_noop("Detailed description about the details of this Periodic Task"),
    # its form and admin
    gettext_noop("Task (registered)"), gettext_noop("Task (custom)"),
    gettext_noop("Need name of task"),
    gettext_noop("Only one can be set, in expires and expire_seconds"),
    gettext_noop("Unable to parse JSON: %s"),
    gettext_noop("Schedule"), gettext_noop("Arguments"), gettext_noop("Execution Options"),
    gettext_noop("Enable selected tasks"), gettext_noop("Disable selected tasks"),
    gettext_noop("Toggle activity of selected tasks"), gettext_noop("Run selected tasks"),
    gettext_noop("Periodic Tasks Using This Schedule"),
    ngettext_lazy("{0} task was successfully enabled", "{0} tasks were successfully enabled", 1),
    ngettext_lazy("{0} task was successfully disabled", "{0} tasks were successfully disabled", 1),
    ngettext_lazy("{0} task was successfully toggled", "{0} tasks were successfully toggled", 1),
)  # fmt: skip


class TaskFilter(admin.AllValuesFieldListFilter):
    """The task filter, titled in the reader's words (the model's label is unmarked)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.title = _("task name")


class PeriodicTaskAdmin(beat_admin.PeriodicTaskAdmin):
    list_display = ("name", "enabled", "runs_on", "interval", "start_time", "last_run_at",
                    "one_off")  # fmt: skip
    list_filter = ["enabled", "one_off", ("task", TaskFilter), "start_time", "last_run_at"]

    @admin.display(description=_("Schedule"))
    def runs_on(self, obj) -> str:
        return obj.scheduler

    @admin.display(description=_("Crontab in words"))
    def crontab_translation(self, obj):
        return super().crontab_translation(obj)


class PeriodicTaskInline(beat_admin.PeriodicTaskInline):
    fields = ("name", "task_name", "args", "kwargs")
    readonly_fields = fields

    @admin.display(description=_("Task name"))
    def task_name(self, obj) -> str:
        return obj.task


class CrontabScheduleAdmin(beat_admin.CrontabScheduleAdmin):
    inlines = [PeriodicTaskInline]
    list_display = ("__str__", "in_words")
    fields = ("in_words", "minute", "hour", "day_of_month", "month_of_year", "day_of_week",
              "timezone")  # fmt: skip
    readonly_fields = ("in_words",)

    @admin.display(description=_("Crontab in words"))
    def in_words(self, obj) -> str:
        return obj.human_readable


def register() -> None:
    """Put the package's admins back with the labels above (after the admin's autodiscover,
    which has registered the package's own)."""
    admins = {
        PeriodicTask: PeriodicTaskAdmin,
        CrontabSchedule: CrontabScheduleAdmin,
        # The other schedules: the package's admin with our list of the tasks using them.
        **{model: type(model_admin.__name__, (model_admin,), {"inlines": [PeriodicTaskInline]})
           for model, model_admin in ((ClockedSchedule, beat_admin.ClockedScheduleAdmin),
                                      (SolarSchedule, beat_admin.SolarScheduleAdmin),
                                      (IntervalSchedule, beat_admin.IntervalScheduleAdmin))},
    }  # fmt: skip
    for model, model_admin in admins.items():
        if admin.site.is_registered(model):
            admin.site.unregister(model)
        admin.site.register(model, model_admin)
