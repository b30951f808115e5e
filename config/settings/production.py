"""Production: refuses to start with DEBUG on or the default secret key."""

from django.core.exceptions import ImproperlyConfigured

from config.settings.base import *  # noqa: F403
from config.settings.base import DEFAULT_SECRET_KEY, EMAIL_URL, SECRET_KEY, VAR_DIR, env
from config.settings.components import check_production_email, email_config

DEBUG = env.bool("DEBUG", default=False)
if DEBUG:
    raise ImproperlyConfigured("production settings refuse to run with DEBUG on")
if not SECRET_KEY or SECRET_KEY == DEFAULT_SECRET_KEY or len(SECRET_KEY) < 32:
    raise ImproperlyConfigured("production settings need SECRET_KEY set to a long random value")
check_production_email(email_config(EMAIL_URL, VAR_DIR))  # real mail, not files

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_SECURE = env.bool("SECURE_COOKIES", default=True)
CSRF_COOKIE_SECURE = env.bool("SECURE_COOKIES", default=True)
SECURE_CONTENT_TYPE_NOSNIFF = True

# HTTPS only. Behind a proxy that terminates TLS, the proxy must send X-Forwarded-Proto
# (SECURE_PROXY_SSL_HEADER above), or every request looks like plain HTTP and is
# redirected forever; SECURE_SSL_REDIRECT=false when the proxy redirects by itself or
# the site is served on plain HTTP (the local Docker stack).
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
SECURE_REDIRECT_EXEMPT = [r"^health/$"]  # probes inside the network speak plain HTTP
# Browsers keep to HTTPS for this long once they have seen the site over it (a year);
# start lower (e.g. 3600) on a first deployment, and set the subdomain and preload flags
# false if any subdomain still serves plain HTTP.
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=True)
SESSION_COOKIE_HTTPONLY = True
