"""The notices page, the preferences page and the mails' unsubscribe link."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from notifications import selectors, services
from notifications.forms import PreferencesForm
from notifications.models import NoticeKind
from notifications.texts import text


@login_required
def notification_list(request):
    page = Paginator(selectors.notices_for(request.user), 50).get_page(request.GET.get("page"))
    for notice in page:
        notice.text = text(notice.kind, notice.data)
    return render(request, "notifications/list.html", {"page": page})


@login_required
@require_POST
def mark_all_read(request):
    services.mark_read(user=request.user, everything=True)
    return redirect("notifications")


@login_required
@require_POST
def open_notice(request, pk: int):
    """Marks one notice read and follows its link."""
    notice = selectors.notices_for(request.user).filter(pk=pk).first()
    if notice is None:
        return redirect("notifications")
    services.mark_read(user=request.user, ids=[notice.pk])
    return redirect(notice.url or "notifications")


@login_required
def preferences(request):
    current = services.preferences_of(request.user)
    form = PreferencesForm(request.POST or None, current=current)
    if request.method == "POST" and form.is_valid():
        for kind, delivery in form.cleaned_data.items():
            if current.get(kind) != delivery:
                services.set_preference(user=request.user, kind=kind, delivery=delivery)
        messages.success(request, gettext("Notification settings saved."))
        return redirect("notification-preferences")
    return render(request, "notifications/preferences.html", {"form": form})


# The mail's List-Unsubscribe link (RFC 8058): a mail program POSTs to it with no session
# and no CSRF token, hence exempt; the signed token is what authorises.
@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request, token: str):
    found = services.read_token(token)
    if found is None:
        return render(request, "notifications/unsubscribe.html", {"invalid": True}, status=400)
    user_id, kind = found
    label = str(NoticeKind(kind).label) if kind in NoticeKind.values else gettext("Daily e-mail")
    if request.method == "POST":
        services.unsubscribe(user_id=user_id, kind=kind)
        if request.POST.get("List-Unsubscribe") == "One-Click":
            return HttpResponse(gettext("Unsubscribed."), content_type="text/plain; charset=utf-8")
        return render(request, "notifications/unsubscribe.html", {"done": True, "label": label})
    return render(request, "notifications/unsubscribe.html", {"label": label})
