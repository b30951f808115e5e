from django.contrib import admin
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _

from operations.selectors import operations_report


def operations_page(request):
    """Staff only (wrapped in admin_view in config/urls.py): reads, never writes."""
    context = {
        **admin.site.each_context(request),
        "title": _("Operations"),
        **operations_report(),
    }
    return TemplateResponse(request, "admin/operations.html", context)
