from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CoreConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "core"
    verbose_name = _("Accounts and site")

    def ready(self):
        from django.conf import settings
        from django.contrib.auth.signals import user_logged_in
        from django.db.models.signals import pre_save

        from core import live_header  # noqa: F401  (registers the header's feed "user")
        from core.accounts import forget_verification_on_change, on_logged_in

        user_logged_in.connect(on_logged_in, dispatch_uid="core_remember_language")
        # However the address changes (the admin, a script), it is unverified again.
        pre_save.connect(forget_verification_on_change, sender=settings.AUTH_USER_MODEL,
                         dispatch_uid="core_forget_verification_on_change")  # fmt: skip
