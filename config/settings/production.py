"""Production: refuses to start with DEBUG on or the default secret key."""

from django.core.exceptions import ImproperlyConfigured

from config.settings.base import *  # noqa: F403
from config.settings.base import DEFAULT_SECRET_KEY, SECRET_KEY, env

DEBUG = env.bool("DEBUG", default=False)
if DEBUG:
    raise ImproperlyConfigured("production settings refuse to run with DEBUG on")
if not SECRET_KEY or SECRET_KEY == DEFAULT_SECRET_KEY or len(SECRET_KEY) < 32:
    raise ImproperlyConfigured("production settings need SECRET_KEY set to a long random value")

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_SECURE = env.bool("SECURE_COOKIES", default=True)
CSRF_COOKIE_SECURE = env.bool("SECURE_COOKIES", default=True)
SECURE_CONTENT_TYPE_NOSNIFF = True
