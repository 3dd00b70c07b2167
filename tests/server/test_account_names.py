"""Account names: one key for names that differ by case, width, separators or lookalike
letters; different names keep different keys (docs/accounts.md, "Names")."""

from __future__ import annotations

import doctest

import pytest

from ginrummy.protocol.limits import BadName
from ginrummy.server.accounts import codes, labels, names
from ginrummy.server.accounts.names import account_name, name_key


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Anna", "ANNA"),  # case
        ("Anna", "Ａｎｎａ"),  # full width
        ("Anna", "Аnnа"),  # Cyrillic а
        ("Anna", "Αnnα"),  # Greek alpha
        ("Paul", "PauI"),  # capital i for small L
        ("Paul", "Pau1"),  # digit one
        ("Bob", "B0b"),  # zero for o
        ("Emma", "Ernrna"),  # rn for m
        ("Ann Lee", "ann_lee"),  # separators
        ("Ann Lee", "AnnLee"),
        ("Straße", "STRASSE"),  # case folding of ß
        ("Kraken", "Кrаkеn"),  # Cyrillic К, а, е
        ("HANNA", "ΗΑΝΝΑ"),  # Greek capitals, mapped before folding
        ("Hanna", "ΗΑΝΝΑ"),
        ("MAX", "ΜΑΧ"),
        ("KEN", "ΚΕΝ"),
        ("TONY", "ΤΟΝΥ"),
        ("HANNA", "НАNNА"),  # Cyrillic capitals Н, А
        ("KOCT", "КОСТ"),  # Cyrillic capitals К, О, С, Т
        ("Nil", "ɴɪʟ"),  # small capitals
        ("Boris", "ʙᴏʀɪꜱ"),
        ("Anna", "ᴀɴɴᴀ"),
    ],
)
def test_lookalikes_share_a_key(one: str, other: str) -> None:
    assert name_key(one) == name_key(other)


@pytest.mark.parametrize(("one", "other"), [("Anna", "Ana"), ("Jörg", "Jorg"), ("Li", "Lu")])
def test_different_names_keep_different_keys(one: str, other: str) -> None:
    assert name_key(one) != name_key(other)


@pytest.mark.parametrize(
    ("name", "script"),
    [("Jörg", "latin"), ("Zoë 2", "latin"), ("ɴɪʟ", "latin"), ("Ελένη", "greek"),
     ("Иван", "cyrillic"), ("Ｍax", "latin"), ("42", "latin")],
)  # fmt: skip
def test_a_name_in_one_script_of_three_is_accepted(name: str, script: str) -> None:
    assert names.script_of(name) == script
    assert account_name(name) == name


@pytest.mark.parametrize(
    "name",
    [
        "Hаnna",  # Latin with a Cyrillic а
        "Ηanna",  # a Greek Η with Latin
        "Ivan Петров",  # Latin and Cyrillic words
        "Αлекс",  # Greek and Cyrillic
        "ᎻᎪᏁᏁᎪ",  # Cherokee drawn like Latin
        "ⲘⲀⲬ",  # Coptic
        "ꓮꓠꓠꓮ",  # Lisu
        "タロウ",  # another script altogether
        "Ann٣",  # Arabic-Indic digit
    ],
)
def test_a_name_mixing_scripts_or_in_another_is_refused(name: str) -> None:
    assert names.script_of(name) is None
    with pytest.raises(BadName, match="Latin, Greek or Cyrillic"):
        account_name(name)


def test_invisible_characters_are_refused() -> None:
    for raw in ("An\u200bna", "An\u00adna", "An\u2060na"):
        with pytest.raises(BadName):
            account_name(raw)
    assert account_name("  Ann   Lee ") == "Ann Lee"


def test_the_modules_examples_hold() -> None:
    for module in (names, codes, labels):
        assert doctest.testmod(module).failed == 0


def test_codes_are_typed_forgivingly_and_hashed() -> None:
    code = codes.new_code(lambda alphabet: alphabet[0])
    assert code == "AAAAAAAAAAAA"
    assert codes.code_hash("aaaa-aaaa-aaaa") == codes.code_hash(" AAAA AAAA AAAA ")
    assert codes.code_hash(code) != code
    assert not set("01ILOUV") & set(codes.ALPHABET)
