"""Compressed responses: Django's GZipMiddleware, except for server-sent events.

Pages shrink to about a fifth (HTML repeats itself). Static files are not its business:
WhiteNoise, above it in MIDDLEWARE, answers them first with the .gz copies that collectstatic
wrote (CompressedManifestStaticFilesStorage). Django's gzip adds random bytes to each body (since 4.2), which
with the per-request masked CSRF token keeps BREACH-style length guessing impractical.
"""

from django.middleware.gzip import GZipMiddleware as DjangoGZipMiddleware


class GZipMiddleware(DjangoGZipMiddleware):
    def process_response(self, request, response):
        # gzip holds a stream's chunks back until its buffer fills: the turn stream's
        # events would reach the client late or only when the stream ends.
        if response.get("Content-Type", "").startswith("text/event-stream"):
            return response
        return super().process_response(request, response)
