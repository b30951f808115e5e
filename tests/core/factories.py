"""API tokens for tests, made as the site makes them (core.tokens.issue)."""

import factory

from core import tokens
from core.models import ApiToken
from tests.games.factories import UserFactory


class ApiTokenFactory(factory.django.DjangoModelFactory):
    """``ApiTokenFactory(user=u)``: a token row; its key (stored nowhere) is ``token.key``.
    Other fields given (``expires_at``, ``name``) are written over the issued row."""

    class Meta:
        model = ApiToken

    user = factory.SubFactory(UserFactory)

    @classmethod
    def _create(cls, model_class, *args, user, name="", **fields):
        token, key = tokens.issue(user, name=name)
        if fields:
            ApiToken.objects.filter(pk=token.pk).update(**fields)
            token.refresh_from_db()
        token.key = key
        return token


def api_key(user, **fields) -> str:
    """A new token's key for ``user``."""
    return ApiTokenFactory(user=user, **fields).key
