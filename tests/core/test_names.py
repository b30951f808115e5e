"""Names people can't fake (issue #31, core/names.py): look-alike user and bot names are
refused by their UTS #39 skeleton, and control and bidi characters by name."""

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils import translation

from core import names
from games import services
from games.models import Player, PlayerKind, looks_taken
from tests.games.factories import HumanPlayerFactory, UserFactory
from tests.migrations import back_to, migrate_to

User = get_user_model()
RLO = "\u202e"  # RIGHT-TO-LEFT OVERRIDE: "a\u202elice" shows as "aecil"
PASSWORD = "s3cure-pass-word"


# ---- the skeleton ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("\u0430lice", "alice"),  # Cyrillic а
        ("p\u0430ypal", "paypal"),
        ("ALICE", "alice"),
        ("\u0410LICE", "alice"),  # a Cyrillic capital А, and case on top
        ("Ian", "lan"),  # a capital I is drawn like an l
        ("rnary", "mary"),
        ("a1ice", "alice"),
        ("\uff41\uff4c\uff49\uff43\uff45", "alice"),  # full-width
    ],
)
def test_look_alikes_share_a_skeleton(a, b):
    assert names.looks_alike(a, b)


@pytest.mark.parametrize(
    ("a", "b"),
    [("Šárka Nováková", "Sarka Novakova"), ("ali", "all"), ("jana", "jan"), ("ilya", "llya")],
)
def test_different_names_stay_different(a, b):
    assert not names.looks_alike(a, b)


def test_the_skeleton_maps_each_letter_to_its_prototype():
    assert names.skeleton("\u0430lice") == "alice"
    assert names.skeleton("m") == "rn"
    assert names.skeletons("Ian") == ("ian", "lan")


# ---- invisible characters --------------------------------------------------------------
@pytest.mark.parametrize(
    "char", [RLO, "\u202a", "\u2066", "\u2069", "\u200b", "\u200d", "\u200f", "\ufeff",
             "\x07", "\x00", "\n", "\t", "\x7f", "\ud800"],
)  # fmt: skip
def test_control_and_format_characters_are_refused_in_names(char):
    with pytest.raises(ValidationError) as refused:
        names.check_text(f"a{char}lice", field_label="Name")
    assert refused.value.code == "control_character"
    assert f"U+{ord(char):04X}" in refused.value.messages[0]
    assert refused.value.messages[0].startswith("Name can't contain")


def test_descriptions_keep_line_breaks_tabs_and_emoji_joiners_only():
    text = "Line one\r\n\tline two 👨\u200d👩\u200d👧"
    assert names.check_text(text, field_label="Description", multiline=True) == text
    for char in (RLO, "\u2067", "\u200b", "\x1b", "\ufeff"):
        with pytest.raises(ValidationError):
            names.check_text(f"x\n{char}y", field_label="Description", multiline=True)


def test_the_validator_names_the_field_and_czech_is_ready():
    validator = names.NoControlCharacters("User name")
    validator("Šárka Nováková")  # letters with diacritics are fine
    with pytest.raises(ValidationError, match="User name can't contain"):
        validator(f"a{RLO}lice")
    assert validator == names.NoControlCharacters("User name")
    with translation.override("cs"):
        message = names.refusal_message(RLO, "Jméno")
    assert "U+202E" in message


# ---- sign-up, the page -----------------------------------------------------------------
def _sign_up(client, username: str):
    return client.post("/signup/", {"username": username, "email": "",
                                    "password1": PASSWORD, "password2": PASSWORD})  # fmt: skip


@pytest.mark.django_db
@pytest.mark.parametrize("username", ["\u0430lice", "ALICE", "Alice", "\u0410lice", "a1ice"])
def test_sign_up_with_a_look_alike_of_a_taken_name_is_a_form_error(client, username):
    services.register_human(username="alice", password=PASSWORD)
    response = _sign_up(client, username)
    assert response.status_code == 200
    errors = response.context["form"].errors["username"]
    # Django's own "already exists" for a case variant, ours for a look-alike.
    assert any("already taken" in e or "already exists" in e for e in errors), errors
    assert list(User.objects.values_list("username", flat=True)) == ["alice"]
    assert Player.objects.count() == 1


@pytest.mark.django_db
def test_the_cyrillic_alice_gets_the_look_alike_message(client):
    services.register_human(username="alice", password=PASSWORD)
    response = _sign_up(client, "\u0430lice")
    assert response.context["form"].errors["username"] == [str(names.LOOKS_TAKEN)]
    assert "This name looks like one already taken." in response.content.decode()


@pytest.mark.django_db
def test_sign_up_with_a_right_to_left_override_is_refused_with_the_reason(client):
    response = _sign_up(client, f"a{RLO}lice")
    assert response.status_code == 200
    errors = response.context["form"].errors["username"]
    assert errors == ["User name can't contain invisible control or text-direction characters "
                      "(it has U+202E)."]  # fmt: skip
    assert not User.objects.exists()


@pytest.mark.django_db
def test_the_service_refuses_what_the_form_would_not_see():
    with pytest.raises(ValidationError) as refused:
        services.register_human(username=f"bob{RLO}", password=PASSWORD)
    assert "username" in refused.value.error_dict
    services.register_human(username="paypal", password=PASSWORD)
    with pytest.raises(ValidationError) as refused:
        services.register_human(username="p\u0430ypal", password=PASSWORD)
    assert refused.value.error_dict["username"][0].code == "looks_taken"
    assert User.objects.count() == 1


@pytest.mark.django_db
def test_a_czech_name_is_welcome(client):
    HumanPlayerFactory(user__username="alice")
    response = _sign_up(client, "Šárka.Nováková")
    assert response.status_code == 302, response.context["form"].errors
    player = Player.objects.get(user__username="Šárka.Nováková")
    assert player.name == "sarkanovakova"
    assert player.name_skeleton == names.folded_skeleton("Šárka.Nováková")


@pytest.mark.django_db
def test_a_name_that_looks_like_a_built_in_bot_is_refused():
    with pytest.raises(ValidationError) as refused:
        services.register_human(username="rand0m", password=PASSWORD)
    assert refused.value.error_dict["username"][0].code == "looks_taken"


# ---- bots, the API -----------------------------------------------------------------------
@pytest.mark.django_db
def test_a_bot_named_like_a_taken_name_is_a_400_and_nothing_is_stored(api_client):
    services.register_human(username="alice", password=PASSWORD)
    api_client.force_authenticate(HumanPlayerFactory().user)
    for name in ("a1ice", "aIice", "ALICE"):
        response = api_client.post("/api/players/bots/", {"name": name}, format="json")
        assert response.status_code == 400, (name, response.content)
        assert "taken" in response.json()["fields"]["name"][0]
    response = api_client.post("/api/players/bots/", {"name": "a1ice"}, format="json")
    assert response.json()["fields"]["name"] == ["This name looks like one already taken."]
    # A Cyrillic letter or an override is no slug at all: refused by the field.
    for name in ("\u0430lice", f"a{RLO}lice"):
        response = api_client.post("/api/players/bots/", {"name": name}, format="json")
        assert response.status_code == 400 and "name" in response.json()["fields"]
    assert not Player.objects.filter(kind=PlayerKind.EXTERNAL_BOT).exists()
    assert User.objects.count() == 2


@pytest.mark.django_db
def test_one_owners_bots_cannot_look_alike(api_client):
    owner = HumanPlayerFactory().user
    api_client.force_authenticate(owner)
    assert (
        api_client.post("/api/players/bots/", {"name": "paypal"}, format="json").status_code == 201
    )
    for name in ("paypa1", "PAYPAL", "paypaI"):
        response = api_client.post("/api/players/bots/", {"name": name}, format="json")
        assert response.status_code == 400, name
    mine = Player.objects.filter(owner=owner, kind=PlayerKind.EXTERNAL_BOT)
    assert list(mine.values_list("name", flat=True)) == ["paypal"]
    # ... and a person can't sign up as one of them with a Cyrillic а either.
    with pytest.raises(ValidationError):
        services.register_human(username="p\u0430ypal", password=PASSWORD)


@pytest.mark.django_db
def test_a_bots_description_refuses_an_override(api_client):
    api_client.force_authenticate(HumanPlayerFactory().user)
    body = {"name": "fine-bot", "description": f"plays {RLO}fast"}
    response = api_client.post("/api/players/bots/", body, format="json")
    assert response.status_code == 400
    assert "U+202E" in response.json()["fields"]["description"][0]
    assert not Player.objects.filter(name="fine-bot").exists()
    body["description"] = "plays fast\nand\tloose"
    assert api_client.post("/api/players/bots/", body, format="json").status_code == 201


@pytest.mark.django_db
def test_engine_bots_made_by_hand_are_checked_the_shared_ones_are_not():
    services.create_engine_bot(name="lena", bot_name="random")
    with pytest.raises(ValidationError) as refused:
        services.create_engine_bot(name="Iena", bot_name="random")
    assert refused.value.error_dict["name"][0].code == "looks_taken"
    shared = services.builtin_bot_player(bot_name="random")
    assert shared.name == "random" and shared.name_skeleton == "randorn"  # "m" is "rn"


# ---- the stored skeletons ----------------------------------------------------------------
@pytest.mark.django_db
def test_a_renamed_account_moves_its_skeletons():
    user = UserFactory(username="olga")
    assert looks_taken("0lga")
    user.username = "vera"
    user.save()
    player = Player.objects.get(user=user)
    assert (player.name_skeleton, player.name_skeleton_cased) == ("vera", "vera")
    assert looks_taken("VERA") and not looks_taken("0lga")
    assert not looks_taken("vera", exclude_pk=player.pk)


@pytest.mark.django_db(transaction=True)
def test_the_migration_fills_the_skeletons_of_existing_players():
    old, latest = back_to("games", "0017_reach_language_email_calendar")
    OldUser, OldPlayer = old.get_model("auth", "User"), old.get_model("games", "Player")
    bot = OldPlayer.objects.create(name="Iena", name_key="iena", kind="engine_bot",
                                   bot_name="random")  # fmt: skip
    user = OldUser.objects.create(username="\u0430lice")
    OldPlayer.objects.create(name="lice", name_key="lice", kind="human", user=user)
    migrate_to(latest)
    assert Player.objects.get(pk=bot.pk).name_skeleton_cased == "lena"
    assert Player.objects.get(user__username="\u0430lice").name_skeleton == "alice"
    assert looks_taken("alice") and looks_taken("lena")
