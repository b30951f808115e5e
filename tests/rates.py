"""Rate limits set for one test (pytest-django's ``settings`` fixture restores them)."""


def set_rates(settings, **rates) -> None:
    """``set_rates(settings, tournament_results=None)``: that scope unlimited, ``"2/min"``: tight."""
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], **rates},
    }
