"""The one error body (core/api_errors.py) for each kind of refusal, and the pages' helper
that puts a refusal on a form (core/errors.py)."""

import pytest
from django import forms
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from rest_framework import exceptions

from core.api_errors import exception_handler
from core.errors import DomainError, add_to_form, message_of, validation_code
from games import services
from games.services.matches import MatchError, StalePly
from tests.games.factories import HumanPlayerFactory, UserFactory
from tournaments.errors import AlreadyRecorded, InvalidConfig, NoForecast

pytestmark = pytest.mark.django_db


def _answer(exc):
    response = exception_handler(exc, {})
    return response.status_code, response.data


# ---- the handler, one kind of error at a time --------------------------------------------
def test_a_domain_error_answers_its_status_and_code():
    assert _answer(StalePly("the match is at ply 4, not 2")) == (
        409, {"code": "stale_ply", "detail": "the match is at ply 4, not 2"}
    )  # fmt: skip
    assert _answer(MatchError("ply must be a whole number")) == (
        400, {"code": "match_error", "detail": "ply must be a whole number"}
    )  # fmt: skip
    assert _answer(DomainError("odd", code="odd_one")) == (
        400,
        {"code": "odd_one", "detail": "odd"},
    )


def test_match_errors_keep_their_names_and_import_paths():
    assert issubclass(services.MatchError, DomainError) and services.MatchError is MatchError
    assert (services.NotYourSeat.status_code, services.NotYourSeat.code) == (403, "not_your_seat")
    assert (services.MatchFull.status_code, services.MatchFull.code) == (409, "match_full")


def test_tournament_conflicts_are_409_with_a_default_sentence():
    status, body = _answer(NoForecast())
    assert status == 409 and body["code"] == "no_forecast" and "Forecasts are for" in body["detail"]
    assert _answer(AlreadyRecorded())[1]["code"] == "already_recorded"
    assert _answer(InvalidConfig("Invalid tournament settings: x")) == (
        409, {"code": "invalid_config", "detail": "Invalid tournament settings: x"}
    )  # fmt: skip


def test_a_django_validation_error_is_a_400_with_its_code():
    assert _answer(ValidationError("Too few entrants.", code="too_few")) == (
        400, {"code": "too_few", "detail": "Too few entrants."}
    )  # fmt: skip
    assert _answer(ValidationError(["One.", "Two."])) == (
        400, {"code": "invalid", "detail": "One. Two."}
    )  # fmt: skip


def test_a_django_validation_error_with_fields_names_them():
    exc = ValidationError({"name": ["That name is taken."], "__all__": ["Check the form."]})
    assert _answer(exc) == (400, {
        "code": "invalid",
        "detail": "Check the form. name: That name is taken.",
        "fields": {"name": ["That name is taken."]},
    })  # fmt: skip


def test_permission_denied_and_http404_from_django():
    assert _answer(PermissionDenied("Only the organiser can do that.")) == (
        403, {"code": "permission_denied", "detail": "Only the organiser can do that."}
    )  # fmt: skip
    status, body = _answer(PermissionDenied())
    assert status == 403 and body["code"] == "permission_denied" and body["detail"]
    assert _answer(Http404("unknown game")) == (
        404,
        {"code": "not_found", "detail": "unknown game"},
    )


def test_drf_serializer_errors_are_flattened_to_dotted_paths():
    exc = exceptions.ValidationError({
        "seats": [{}, {"bot": [exceptions.ErrorDetail("Not a bot.", code="invalid_choice")]}],
        "time_control": {"non_field_errors": [exceptions.ErrorDetail("One only.", code="invalid")]},
        "options": {"0": [exceptions.ErrorDetail("Too deep.", code="invalid")]},
    })  # fmt: skip
    status, body = _answer(exc)
    assert status == 400 and body["code"] == "invalid"  # two codes: the generic one
    assert body["fields"] == {
        "seats.1.bot": ["Not a bot."], "time_control": ["One only."], "options.0": ["Too deep."],
    }  # fmt: skip
    assert body["detail"].startswith("seats.1.bot: Not a bot.")


def test_one_drf_error_keeps_its_code_and_a_general_one_has_no_fields():
    exc = exceptions.ValidationError(
        {"seed": [exceptions.ErrorDetail("Too big.", code="max_value")]}
    )
    assert _answer(exc)[1] == {"code": "max_value", "detail": "seed: Too big.",
                               "fields": {"seed": ["Too big."]}}  # fmt: skip
    assert _answer(exceptions.ValidationError("No report waits."))[1] == {
        "code": "invalid", "detail": "No report waits."
    }  # fmt: skip


def test_parse_errors_throttling_and_method_not_allowed():
    assert _answer(exceptions.ParseError("JSON parse error - x")) == (
        400, {"code": "parse_error", "detail": "JSON parse error - x"}
    )  # fmt: skip
    response = exception_handler(exceptions.Throttled(wait=7), {})
    assert response.status_code == 429 and response["Retry-After"] == "7"
    assert response.data["code"] == "throttled"
    assert _answer(exceptions.MethodNotAllowed("PATCH"))[1]["code"] == "method_not_allowed"


def test_anything_else_is_left_to_django():
    assert exception_handler(ValueError("a bug"), {}) is None


# ---- through real requests -------------------------------------------------------------
def test_not_logged_in_is_a_401_with_the_challenge(api_client):
    response = api_client.post("/api/matches/", {}, format="json")
    assert response.status_code == 401 and response["WWW-Authenticate"] == "Token"
    assert response.json()["code"] == "not_authenticated" and set(response.json()) == {
        "code",
        "detail",
    }


def test_throttled_requests_keep_retry_after(api_client, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "bot_register": "1/hour"}}  # fmt: skip
    api_client.force_authenticate(UserFactory())
    assert api_client.post("/api/players/bots/", {"name": "p1"}, format="json").status_code == 201
    over = api_client.post("/api/players/bots/", {"name": "p2"}, format="json")
    assert over.status_code == 429 and int(over["Retry-After"]) > 0
    assert over.json()["code"] == "throttled" and over.json()["detail"]


def test_a_service_validation_error_reaches_the_client_on_its_field(api_client):
    api_client.force_authenticate(HumanPlayerFactory().user)
    body = {"game": "silkroad", "seats": [{"player": "nobody-here"}, {"bot": "random"}]}
    response = api_client.post("/api/matches/", body, format="json")
    assert response.status_code == 400
    assert response.json()["fields"] == {"seats": ["No player called 'nobody-here'."]}


def test_a_django_http404_in_a_view_uses_the_body(api_client):
    response = api_client.get("/api/ratings/nogame/")
    assert response.status_code == 404
    assert response.json() == {"code": "not_found", "detail": "unknown game"}


# ---- pages ---------------------------------------------------------------------------------
class _Form(forms.Form):
    name = forms.CharField(required=False)
    options = forms.CharField(required=False, widget=forms.HiddenInput)


def test_add_to_form_puts_field_errors_on_their_fields_and_the_rest_above():
    form = _Form(data={})
    assert form.is_valid()
    add_to_form(form, ValidationError({
        "name": "Taken.", "options": "Bad option.", "elsewhere": "Not a field.", "__all__": "No.",
    }))  # fmt: skip
    assert form.errors["name"] == ["Taken."]
    assert form.non_field_errors() == ["No.", "Bad option.", "Not a field."]  # hidden: above


def test_add_to_form_with_renamed_fields_and_domain_errors():
    form = _Form(data={})
    form.is_valid()
    add_to_form(form, ValidationError({"player": "Unknown."}), field_names={"player": "name"})
    add_to_form(form, StalePly("Someone moved first."))
    add_to_form(form, ValidationError("Plain."))
    assert form.errors["name"] == ["Unknown."]
    assert form.non_field_errors() == ["Someone moved first.", "Plain."]


def test_message_of_every_kind():
    assert message_of(ValidationError({"a": "One.", "__all__": "Two."})) == "Two. One."
    assert message_of(StalePly("Late.")) == "Late."
    assert message_of(PermissionDenied("No.")) == "No."
    assert validation_code(ValidationError({"a": ValidationError("x", code="c")})) == "c"
