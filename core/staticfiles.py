"""The static-file storage `make run` uses: production's, with hashed names under DEBUG too."""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class HashedStaticFilesStorage(CompressedManifestStaticFilesStorage):
    """Content-hashed names (css/site.3f2a….css) and .gz copies, as in production.

    Django's manifest storage links plain names while DEBUG is on; `make run` runs with
    DEBUG and collects the files first, so it links the hashed ones, which WhiteNoise
    serves with a long-lived immutable cache header. Needs collectstatic's manifest: a
    name missing from it is an error, as in production."""

    def url(self, name, force=False):
        return super().url(name, force=True)
