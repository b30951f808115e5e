"""The outbox: every mail queued, its state and errors; and, with the file backend, the
.eml files it wrote (var/mail/ under `make run`)."""

from django.contrib import admin, messages
from django.http import Http404, HttpResponse, HttpResponseNotAllowed, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.text import Truncator
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from core.admin_mixins import ReadOnlyAdmin
from mail import selectors, services
from mail.models import OutgoingMail


@admin.register(OutgoingMail)
class OutgoingMailAdmin(ReadOnlyAdmin, admin.ModelAdmin):
    list_display = ("created_at", "to", "subject", "kind", "status", "attempts", "short_error")
    list_filter = ("status", "kind")
    search_fields = ("to", "subject")
    date_hierarchy = "created_at"
    list_select_related = ("user",)
    fields = ("to", "subject", "kind", "user", "status", "attempts", "last_error",
              "created_at", "sent_at", "headers", "text", "html")  # fmt: skip
    readonly_fields = fields
    change_list_template = "admin/mail/outbox_change_list.html"
    actions = ["send_again"]

    @admin.action(description=gettext_lazy("Send the failed mails again"), permissions=["view"])
    def send_again(self, request, queryset):
        count = services.send_again(queryset.values_list("pk", flat=True))
        text = ngettext("%(count)d failed mail queued again.", "%(count)d failed mails queued again.",
                        count)  # fmt: skip
        messages.success(request, text % {"count": count})

    @admin.display(description=gettext_lazy("last error"))
    def short_error(self, obj):
        return Truncator(obj.last_error).chars(80)

    def changelist_view(self, request, extra_context=None):
        extra = {"title": _("Outbox"), "mail_files": None}
        if selectors.uses_file_backend():
            extra["mail_files"] = selectors.mail_files()
            extra["mail_folder"] = str(selectors.mail_folder())
        return super().changelist_view(request, {**extra, **(extra_context or {})})

    def get_urls(self):
        file_view = self.admin_site.admin_view(self.mail_file_view)
        send_test = self.admin_site.admin_view(self.send_test_view)
        return [
            path("file/<str:name>/", file_view, name="mail_outgoingmail_file"),
            path("send-test/", send_test, name="mail_outgoingmail_send_test"),
            *super().get_urls(),
        ]

    def send_test_view(self, request):
        """A test mail to the staff member's own address: does the configured server take it?"""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        if not self.has_view_permission(request):
            raise Http404
        mail = services.mail_user(user=request.user, template="test_mail", context={}, kind="test")
        if mail is None:
            messages.error(request, _("Your account has no e-mail address to send to."))
        else:
            messages.success(
                request, _("A test mail to %(address)s is queued.") % {"address": mail.to}
            )
        return HttpResponseRedirect(reverse("admin:mail_outgoingmail_changelist"))

    def mail_file_view(self, request, name: str):
        """One .eml file of the file backend, as text (download with ?download=1)."""
        if not self.has_view_permission(request):
            raise Http404
        text = selectors.mail_file_text(name) if selectors.uses_file_backend() else None
        if text is None:
            raise Http404
        if request.GET.get("download"):
            response = HttpResponse(text, content_type="message/rfc822")
            response["Content-Disposition"] = f'attachment; filename="{name}"'
            return response
        context = {
            **self.admin_site.each_context(request),
            "title": name,
            "opts": self.model._meta,
            "name": name,
            "text": text,
        }
        return TemplateResponse(request, "admin/mail/mail_file.html", context)
