"""Local development: `make run`. DEBUG on unless the environment says otherwise."""

from config.settings.base import *  # noqa: F403
from config.settings.base import env

DEBUG = env.bool("DEBUG", default=True)

# `make run` collects the static files first and sets STATIC_MANIFEST: pages then link
# content-hashed names, served by WhiteNoise with a long-lived cache, as in production.
# Without it (a bare runserver, no collectstatic) the plain names are served fresh from
# static/ on every request. After editing static/ under `make run`, run it again.
if env.bool("STATIC_MANIFEST", default=False):
    STORAGES = {
        **STORAGES,  # noqa: F405
        "staticfiles": {"BACKEND": "core.staticfiles.HashedStaticFilesStorage"},
    }
