"""Account recovery under /accounts/, before django.contrib.auth.urls (config/urls.py):
the reset pages with our form and mail, the e-mail links and the e-mail change. The
other auth pages (password change, reset done and complete) are Django's views with our
templates (templates/registration/)."""

from django.urls import path

from core import account_views

urlpatterns = [
    path("password_reset/", account_views.PasswordResetView.as_view(), name="password_reset"),
    path(
        "reset/<uidb64>/<token>/",
        account_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),  # fmt: skip
    path("email/", account_views.change_email, name="email-change"),
    path("email/verify/", account_views.resend_verification, name="verify-email-send"),
    path("email/verify/<str:token>/", account_views.verify_email, name="verify-email"),
]
