"""The Czech catalogs address the reader formally, everywhere ("vy", "váš", "jste na tahu",
"Klikněte", "Zvolte"): pages, forms and the engines' words alike. Informal second-person
forms ("jsi", "tvůj", "Klikni") mixed in read as careless, so this test lists them."""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest

LOCALE = Path(__file__).resolve().parent.parent / "locale" / "cs" / "LC_MESSAGES"
CATALOGS = sorted(LOCALE.glob("*.po"))

# Whole words only (case-insensitive); each one is informal in any position.
INFORMAL_WORDS = [
    r"jsi",
    r"jseš",
    r"ses",
    r"sis",
    r"tv(ůj|oje|oji|ojí|á|é|ého|ému|ou|ých|ým|ými)",  # "tvůj", "tvá", "tvé"...
    r"teb(e|ou)",
    r"tobě",
    # "ty" is also "those" ("ty karty"): only as the pronoun standing alone.
    r"\(ty\)",
    r"ty jsi",
    # Second-person singular verbs ("máš", "můžeš", "vidíš", "hraješ").
    r"\w+(eš|íš|áš)",
    # Informal imperatives (the formal ones end in -te: "Klikněte", "Zvolte", "Vyberte").
    r"klikni",
    r"zvol",
    r"vyber",
    r"přihlas",
    r"odhlas",
    r"zaregistruj",
    r"zadej",
    r"počkej",
    r"vyčkej",
    r"zkus",
    r"hraj",
    r"zahraj",
    r"vrať",
    r"pošli",
    r"napiš",
    r"otevři",
    r"ulož",
    r"podívej",
    r"přidej",
    r"zruš",
    r"pozvi",
    r"vytvoř",
    r"nastav",
    r"změň",
    r"použij",
    r"stiskni",
    r"polož",
    r"vezmi",
    r"dej",
    r"potvrď",
    r"vyplň",
    r"pokračuj",
    r"táhni",
    r"obnov",
    r"spusť",
    r"vyzkoušej",
]
# Legitimate words the verb-ending pattern would catch.
NOT_INFORMAL = {"náš", "váš", "příliš", "spíš"}
INFORMAL = re.compile(r"(?<!\w)(" + "|".join(INFORMAL_WORDS) + r")(?!\w)", re.IGNORECASE)

# The formal pronoun is lowercase except where a sentence starts ("Váš tah", "… váš tah").
CAPITAL_PRONOUN = re.compile(r"(?<=[^\s.!?:;„(])\s+(Vy|Vás|Váš|Vám|Vámi|Vaš\w*)(?!\w)")


def translations():
    for path in CATALOGS:
        for entry in polib.pofile(str(path)):
            if entry.obsolete:
                continue
            texts = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
            for text in filter(None, texts):
                yield path.name, entry.msgid, text


def informal(text: str) -> list[str]:
    return [m.group(0) for m in INFORMAL.finditer(text) if m.group(0).lower() not in NOT_INFORMAL]


def test_the_catalogs_are_there():
    assert {p.name for p in CATALOGS} >= {"django.po", "engines.po"}
    assert sum(1 for _ in translations()) > 1000


def test_no_informal_address():
    found = [(name, msgid, text) for name, msgid, text in translations() if informal(text)]
    assert found == []


def test_formal_pronouns_are_lowercase_inside_a_sentence():
    found = [
        (name, msgid, text) for name, msgid, text in translations() if CAPITAL_PRONOUN.search(text)
    ]
    assert found == []


@pytest.mark.parametrize(
    "text",
    ["jsi hráč 1", "tvá pasivní zásoba: 3", "Hráč 1 (ty)", "Klikni na plán.", "Zvol kartu",
     "Přihlas se", "Můžeš táhnout.", "Vyber si"],
)  # fmt: skip
def test_the_checker_catches_informal_forms(text):
    assert informal(text)


@pytest.mark.parametrize(
    "text",
    ["jste hráč 1", "vaše pasivní zásoba: 3", "Hráč 1 (vy)", "Klikněte na plán.", "Zvolte kartu",
     "Přihlaste se", "Přihlásit se", "Můžete táhnout.", "Vyberte si", "ty karty", "Váš tah",
     "příliš málo hráčů", "tvar zdi", "zvolit cestu", "bazar", "Bakšiš", "Dejte"],
)  # fmt: skip
def test_the_checker_leaves_formal_and_ordinary_words(text):
    assert informal(text) == []
    assert not CAPITAL_PRONOUN.search(text)


def test_a_capital_pronoun_inside_a_sentence_is_caught():
    assert CAPITAL_PRONOUN.search("Partie čekající na Váš tah")
    assert not CAPITAL_PRONOUN.search("Partie čekající na váš tah. Váš tah je další.")
