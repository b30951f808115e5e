"""The club page's seasons and ladder partials get their data here, so the page's view
need not know them: ``{% club_seasons club %}`` and ``{% club_ladder club %}`` (the reader
and the ladder's filters come from the request)."""

from django import template

from clubs import season_selectors

register = template.Library()


@register.inclusion_tag("clubs/season_list_block.html", takes_context=True)
def club_seasons(context, club):
    request = context.get("request")
    user = getattr(request, "user", None)
    if not season_selectors.may_see(club, user):
        return {"hidden": True}
    return {**season_selectors.seasons_of_club(club, user), "request": request}


@register.inclusion_tag("clubs/season_ladder_block.html", takes_context=True)
def club_ladder(context, club):
    request = context.get("request")
    user = getattr(request, "user", None)
    if not season_selectors.may_see(club, user):
        return {"hidden": True}
    params = request.GET if request is not None else {}
    return {**season_selectors.ladder_context(club, params), "request": request}


@register.filter
def points(value):
    """A score with at most two decimals and none it doesn't need, in the reader's
    number format: 1.5 (not 1.50), 13.33, 4."""
    from django.utils.formats import number_format

    if value is None:
        return ""
    rounded = round(float(value), 2)
    return number_format(int(rounded) if rounded == int(rounded) else rounded)
