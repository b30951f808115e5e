"""The settings page's list of API tokens (registration/_api_tokens.html)."""

from django import template

from core import tokens

register = template.Library()


@register.simple_tag(takes_context=True)
def my_api_tokens(context):
    """Her tokens, newest first; none for a visitor."""
    user = getattr(context.get("request"), "user", None)
    if user is None or not user.is_authenticated:
        return []
    return list(tokens.tokens_of(user))
