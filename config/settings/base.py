"""Settings shared by every environment; values come from the environment."""

import os
from pathlib import Path

import environ

from config.settings.components import (
    DEFAULT_SECRET_KEY,
    cache_config,
    celery_config,
    database_config,
    email_config,
    pool_options,
)

BASE_DIR = Path(__file__).resolve().parent.parent.parent
env = environ.Env()

VAR_DIR = Path(env.str("VAR_DIR", default=str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)

SECRET_KEY = env.str("SECRET_KEY", default=DEFAULT_SECRET_KEY)
DEBUG = env.bool("DEBUG", default=False)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "template_partials",
    "config.apps.CeleryBeatConfig",  # django_celery_beat, its name translated
    "core",
    "games",
    "tournaments",
    "ratings",
    "operations",
    "mail",
    "notifications",
    "clubs",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Below WhiteNoise (static files come precompressed) and above every middleware that
    # writes a body, so that what they write is compressed too.
    "core.compression.GZipMiddleware",
    # A database error in a view: the short 503 page (core/unavailable.py; from a
    # middleware: handler500 in config/urls.py).
    "core.unavailable.DatabaseUnavailableMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "games.i18n.EngineLanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "core.timezones.TimeZoneMiddleware",  # reads the user's preference
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "core.context_processors.pending_invitations",
                "core.context_processors.turns_waiting",
                "notifications.context_processors.unread_notifications",
            ],
            "builtins": ["template_partials.templatetags.partials"],
        },
    }
]

# PostgreSQL: a statement running longer is cancelled (0: no limit); the ratings recompute
# allows itself DATABASE_RECOMPUTE_TIMEOUT_S (core/db.py).
DATABASE_STATEMENT_TIMEOUT_S = env.float("DATABASE_STATEMENT_TIMEOUT_S", default=10.0)
DATABASE_RECOMPUTE_TIMEOUT_S = env.float("DATABASE_RECOMPUTE_TIMEOUT_S", default=1800.0)
DATABASES = {
    "default": database_config(
        env.str("DATABASE_URL", default=""),
        VAR_DIR,
        pool=pool_options(os.environ),
        statement_timeout_s=DATABASE_STATEMENT_TIMEOUT_S,
    )
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env.str("REDIS_URL", default="") or None
CACHES = {"default": cache_config(REDIS_URL, VAR_DIR)}

# E-mail from one EMAIL_URL (config/settings/components.py, email_config): smtp://,
# smtps://, consolemail://, filemail:///path; unset, one .eml file a mail in var/mail/.
EMAIL_URL = env.str("EMAIL_URL", default="")
_email = email_config(EMAIL_URL, VAR_DIR)
EMAIL_BACKEND = _email["EMAIL_BACKEND"]
EMAIL_HOST, EMAIL_PORT = _email["EMAIL_HOST"], _email["EMAIL_PORT"]
EMAIL_HOST_USER, EMAIL_HOST_PASSWORD = _email["EMAIL_HOST_USER"], _email["EMAIL_HOST_PASSWORD"]
EMAIL_USE_TLS, EMAIL_USE_SSL = _email["EMAIL_USE_TLS"], _email["EMAIL_USE_SSL"]
EMAIL_FILE_PATH = _email.get("EMAIL_FILE_PATH", str(VAR_DIR / "mail"))
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=30)  # a silent server fails a try, not hangs
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Caravan Club <noreply@localhost>")
SERVER_EMAIL = env.str("SERVER_EMAIL", default=DEFAULT_FROM_EMAIL)
# The site's address for links in mails (mail/links.py), and its name in them.
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000")
SITE_NAME = env.str("SITE_NAME", default="Caravan Club")
# Tests only (tests/mail_server.py): the mail task runs in the queuing process.
MAIL_SEND_EAGER = False
# Web Push of notices (notifications/push.py); no keys, no push. `manage.py vapid_keys`
# prints a pair: the public key as the browser wants it, the private one raw (base64url).
VAPID_PUBLIC_KEY = env.str("VAPID_PUBLIC_KEY", default="")
VAPID_PRIVATE_KEY = env.str("VAPID_PRIVATE_KEY", default="")
VAPID_SUBJECT = env.str("VAPID_SUBJECT", default="mailto:noreply@localhost")
# Tests only: pushes sent in the queuing process, to push endpoints on this machine too.
PUSH_SEND_EAGER = False
PUSH_ALLOW_LOCAL_ENDPOINTS = False
# The push services browsers subscribe with (a host or its subdomains); the server POSTs
# nowhere else, so a made-up "subscription" can't aim it at other machines.
PUSH_SERVICE_HOSTS = env.list(
    "PUSH_SERVICE_HOSTS",
    default=[
        "fcm.googleapis.com",  # Chrome, Edge, Opera, Samsung
        "push.services.mozilla.com",  # Firefox
        "push.apple.com",  # Safari
        "notify.windows.com",  # legacy Edge
    ],
)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
# Each log-in attempt on an account past its "login_account" rate waits this long (at
# most 2 s) before the password is checked, from every address (core/throttling.py).
LOGIN_SLOW_DELAY_S = env.float("LOGIN_SLOW_DELAY_S", default=1.0)
# API tokens (core/tokens.py) expire this many days after they are made.
API_TOKEN_TTL_DAYS = env.int("API_TOKEN_TTL_DAYS", default=365)

LANGUAGE_CODE = "en"
# English and Czech (the clubs are Czech); chosen from Accept-Language or the switcher.
LANGUAGES = [("en", "English"), ("cs", "Czech")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Stored in UTC (USE_TZ); shown and typed in the reader's zone (core/timezones.py):
# their saved preference, else their browser's, else this one. Celery follows it too.
TIME_ZONE = env.str("TIME_ZONE", default="Europe/Prague")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "staticfiles"
STATIC_ROOT.mkdir(exist_ok=True)
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# Content-Security-Policy (config/csp.py): the project's own scripts and styles only.
_CSP_BASE = ("default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'self'; "
             "form-action 'self'; frame-ancestors 'none'")  # fmt: skip
CSP_POLICY = f"{_CSP_BASE}; script-src 'self'; style-src 'self'"
# Swagger UI and Redoc (served from the sidecar's static files) write inline styles and
# Redoc runs a worker from a blob; the admin is Django's own, strict policy.
CSP_PATH_POLICIES = {
    "/api/docs/": f"{_CSP_BASE}; script-src 'self'; style-src 'self' 'unsafe-inline'",
    "/api/redoc/": (
        f"{_CSP_BASE}; script-src 'self'; worker-src 'self' blob:; style-src 'self' 'unsafe-inline'"
    ),  # fmt: skip
}

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "core.tokens.HashedTokenAuthentication",  # "Token <key>", stored hashed
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # Every refusal answers one body: {"code", "detail", "fields"?} (core/api_errors.py).
    "EXCEPTION_HANDLER": "core.api_errors.exception_handler",
    "DEFAULT_PARSER_CLASSES": [
        "games.api.parsers.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_PAGINATION_CLASS": "games.api.pagination.BoundedLimitOffsetPagination",
    "PAGE_SIZE": 50,
    # Scopes of core/throttling.py, per user (anonymous: per address); "" means no limit.
    "DEFAULT_THROTTLE_RATES": {
        "match_create": env.str("THROTTLE_MATCH_CREATE", default="60/min"),
        "match_actions": env.str("THROTTLE_MATCH_ACTIONS", default="1200/min"),
        "bot_register": env.str("THROTTLE_BOT_REGISTER", default="10/hour"),
        "tournament_create": env.str("THROTTLE_TOURNAMENT_CREATE", default="30/hour"),
        "tournament_entries": env.str("THROTTLE_TOURNAMENT_ENTRIES", default="120/min"),
        "tournament_manage": env.str("THROTTLE_TOURNAMENT_MANAGE", default="60/min"),
        "tournament_results": env.str("THROTTLE_TOURNAMENT_RESULTS", default="120/min"),
        "invitations": env.str("THROTTLE_INVITATIONS", default="120/min"),
        # Reads, but one per pause in typing: the account suggestions for linking a guest.
        "player_search": env.str("THROTTLE_PLAYER_SEARCH", default="120/min"),
        "signup": env.str("THROTTLE_SIGNUP", default="10/hour"),
        # Saving one's settings (the time zone), page and API.
        "account_settings": env.str("THROTTLE_ACCOUNT_SETTINGS", default="30/hour"),
        # Failed log-ins (a success is not counted), per account and address pair and per
        # address; an account alone is only slowed past its rate (LOGIN_SLOW_DELAY_S),
        # never blocked: anyone could lock anyone out (core/throttling.py).
        "login": env.str("THROTTLE_LOGIN", default="10/15min"),
        "login_address": env.str("THROTTLE_LOGIN_ADDRESS", default="30/15min"),
        "login_account": env.str("THROTTLE_LOGIN_ACCOUNT", default="10/15min"),
        # Password-reset requests per client and per address; verification links sent
        # ("send again", e-mail changes) per account or client.
        "password_reset": env.str("THROTTLE_PASSWORD_RESET", default="5/hour"),
        "email_verification": env.str("THROTTLE_EMAIL_VERIFICATION", default="10/hour"),
        # Web Push subscriptions stored or removed (/api/me/push/), per account.
        "push_subscriptions": env.str("THROTTLE_PUSH_SUBSCRIPTIONS", default="30/hour"),
    },
    # Proxies in front of the app whose X-Forwarded-For is trusted for the client address
    # (0: the socket's address; 1 behind one reverse proxy).
    "NUM_PROXIES": env.int("NUM_PROXIES", default=0),
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Board-game tournament platform API",
    "DESCRIPTION": "Silk Road, Yspahan and the Great Wall game: players, matches, tournaments, ratings.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Served from our own static files: the machines have no internet.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # The timeout policy appears as the model's labelled choices and as bare values: name
    # both, or `manage.py check` warns about the enum name collision.
    # Request bodies refuse unknown fields (games/api/inputs.py): the schema says so.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "core.api_schema.closed_request_bodies",
    ],
    "ENUM_NAME_OVERRIDES": {
        "TimeoutPolicyEnum": "games.models.TimeoutPolicy",
        "TimeoutPolicyValueEnum": ["auto", "forfeit"],
        "TournamentFormatEnum": "tournaments.models.FORMAT_CHOICES",
    },
}

_celery = celery_config(REDIS_URL, VAR_DIR)
CELERY_BROKER_URL = _celery["broker_url"]
CELERY_RESULT_BACKEND = _celery["result_backend"]
CELERY_BROKER_TRANSPORT_OPTIONS = _celery["broker_transport_options"]
# One queue per deployment; tests running in parallel processes each get their own.
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_QUEUE", default="celery")
# Search-bot turns go to their own queue (games.services.dispatch.send_bot_turns), which
# its own worker consumes (config/worker_process.py, docker/compose.yaml).
BOT_HEAVY_QUEUE = env.str("BOT_HEAVY_QUEUE", default="bots-heavy")
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_RESULT_EXPIRES = 3600
# A worker that dies mid-task leaves the message unacknowledged, so another
# worker runs it again; tasks are written to be idempotent for that reason.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SOFT_TIME_LIMIT = env.int("CELERY_TASK_SOFT_TIME_LIMIT", default=120)
CELERY_TASK_TIME_LIMIT = env.int("CELERY_TASK_TIME_LIMIT", default=180)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = TIME_ZONE
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
CELERY_BEAT_SCHEDULE = {
    "sweep-matches": {"task": "games.tasks.sweep_matches", "schedule": 2.0},
    "sweep-tournaments": {"task": "tournaments.tasks.sweep_tournaments", "schedule": 10.0},
    "sweep-rating-pools": {"task": "ratings.tasks.sweep_pools", "schedule": 30.0},
    "expire-invitations": {"task": "games.tasks.expire_invitations", "schedule": 60.0},
    "notice-digests": {"task": "notifications.tasks.send_digests", "schedule": 86400.0},
    "requeue-lost-mails": {"task": "mail.tasks.requeue_lost_mails", "schedule": 1800.0},
}
# The longest a built-in bot thinks on one decision (seconds; 5 at most), whatever its
# parameters ask; lowered further by the match's clock (games.services.runner.think_cap).
BOT_MAX_THINK_S = env.float("BOT_MAX_THINK_S", default=5.0)
# Matches one person (with her bot programs) may have waiting or running at once, in all
# and with the search bot (games/services/match_limits.py); empty for no limit.
MAX_LIVE_MATCHES = env.int("MAX_LIVE_MATCHES", default=50) or None
MAX_LIVE_SEARCH_BOT_MATCHES = env.int("MAX_LIVE_SEARCH_BOT_MATCHES", default=4) or None
# Bot programs one person may register (games.services.players.create_external_bot).
MAX_BOTS_PER_OWNER = env.int("MAX_BOTS_PER_OWNER", default=20) or None
# The bot that moves for a seat whose time ran out (and for forfeited seats).
MATCH_TIMEOUT_BOT = env.str("MATCH_TIMEOUT_BOT", default="random")
# Cross-app hooks named by configuration, so games never imports ratings.
MATCH_PREDICTIONS = "ratings.selectors.predict_match"
MATCH_RATING_CHANGES = "ratings.selectors.match_rating_changes"
# ... and never tournaments: what an entry invitation points at (name, link), and the
# tournament, round and table a match is played for (games/selectors.py).
INVITATION_TARGETS = [
    "tournaments.selectors.invitation_targets",
    "clubs.selectors.invitation_targets",  # a club's invitation to join
]
MATCH_CONTEXT = "tournaments.selectors.match_contexts"
TOURNAMENT_RATING_LOOKUP = "ratings.selectors.elo_rating_of"
# ... and tournaments never imports clubs: the module answering for a club's events (the
# club picked at creation, members-only entries, club guests, rated clubs).
TOURNAMENT_CLUB_HOOKS = "clubs.hooks"
# The sweep restarts a bot turn nobody has advanced for this long (a lost task).
MATCH_STALLED_S = env.float("MATCH_STALLED_S", default=30.0)
# Celery pool processes a worker runs (`make run`, docker/entrypoint.sh).
WORKER_CONCURRENCY = env.int("WORKER_CONCURRENCY", default=2)
# ... and the heavy worker (BOT_HEAVY_QUEUE): one search at a time by default.
HEAVY_WORKER_CONCURRENCY = env.int("HEAVY_WORKER_CONCURRENCY", default=1)
# Bot turns committed together go out several matches to a task (games.services.dispatch):
# at most BOT_MATCHES_PER_TASK a task, spread over at least BOT_TASK_SPREAD tasks so that
# the pool processes share a burst. By default one task per process of one worker: more
# tasks than processes only add hand-overs (~4 ms of wall time each, two to four
# random-bot matches' worth); with several workers, set it to the processes they run
# together. The cap lets more processes than that share a large burst (a round of 250
# tables: at least four tasks).
BOT_MATCHES_PER_TASK = env.int("BOT_MATCHES_PER_TASK", default=64)
BOT_TASK_SPREAD = env.int("BOT_TASK_SPREAD", default=WORKER_CONCURRENCY)
# How long an invitation to a match or a tournament stays open.
INVITATION_HOURS = env.float("INVITATION_HOURS", default=24.0)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    # The periodic sweeps run every few seconds: their routine lines are DEBUG, not INFO.
    "filters": {
        "routine_beat": {"()": "config.log_filters.RoutineBeatLinesAtDebug"},
        "routine_tasks": {
            "()": "config.log_filters.RoutineTaskLinesAtDebug",
            "tasks": [entry["task"] for entry in CELERY_BEAT_SCHEDULE.values()],
        },
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "loggers": {
        "celery.beat": {"filters": ["routine_beat"]},
        "celery.worker.strategy": {"filters": ["routine_tasks"]},
        "celery.app.trace": {"filters": ["routine_tasks"]},
    },
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
}

# Live pages by push (core/live/, docs/architecture.md "Live pages"). LIVE_BACKEND:
# "redis" (pub/sub; the default with REDIS_URL) or "table" (the embedded default: each web
# process reads core.LiveChange every LIVE_TABLE_POLL_S).
LIVE_BACKEND = env.str("LIVE_BACKEND", default="")
LIVE_TABLE_POLL_S = env.float("LIVE_TABLE_POLL_S", default=0.25)
LIVE_TABLE_KEEP_S = env.int("LIVE_TABLE_KEEP_S", default=600)
# Open streams a web process allows one person and one address (429 past them).
LIVE_MAX_STREAMS_PER_USER = env.int("LIVE_MAX_STREAMS_PER_USER", default=12)
LIVE_MAX_STREAMS_PER_ADDRESS = env.int("LIVE_MAX_STREAMS_PER_ADDRESS", default=60)
LIVE_STREAM_MAX_S = env.float("LIVE_STREAM_MAX_S", default=900)  # then "reconnect"
LIVE_KEEPALIVE_S = env.float("LIVE_KEEPALIVE_S", default=20)
LIVE_READER_QUEUE = env.int("LIVE_READER_QUEUE", default=64)  # messages behind: closed
