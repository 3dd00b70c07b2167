"""Account names: unique after normalisation, and never a lookalike of another.

Two names are the same name when their keys are equal. The key is a small version of
the "skeleton" of Unicode TR39 (confusable detection):

1. NFKC: compatibility forms become their plain letters (full-width ``Ａｎｎ``,
   ligatures, superscripts);
2. capital Greek and Cyrillic letters drawn like Latin capitals become those capitals
   (``UPPER_LOOKALIKES``: Greek ``Η`` is a Latin ``H``, while its small ``η`` is an
   ``n``), before case folding would turn them into small letters drawn otherwise;
3. case folding (``ANN``, ``ann``, ``Straße``/``STRASSE``);
4. marks that draw nothing are dropped (zero-width joiners and spaces, soft hyphens);
5. each character that looks like another is replaced by the one it looks like
   (``LOOKALIKES``: Cyrillic and Greek letters drawn like Latin ones, Latin small
   capitals, digits drawn like letters, ``rn`` drawn like ``m``), and separators (space,
   ``-``, ``_``, ``.``) are dropped, so ``Ann Lee``, ``ann_lee`` and ``AnnLee`` are one
   name.

No library on PyPI computes TR39's skeleton and is well kept (``confusable-homoglyphs``
detects mixed scripts in one string, not lookalikes between two names), so the table is
ours: the Latin, Greek and Cyrillic lookalikes of confusables.txt that a name may use.

The table cannot know every script's lookalikes (Cherokee ``Ꭺ``, Coptic ``ⲟ``, Lisu
``ꓮ``...), so an account's name (``account_name``) is written in one script of three:
Latin (with its diacritics), Greek or Cyrillic, with ASCII digits; a name mixing them
(``Hаnna`` with a Cyrillic ``а``) or using another script is refused.

>>> name_key("Ann") == name_key("ＡＮＮ") == name_key("Аnn")  # full width, Cyrillic А
True
>>> name_key("HANNA") == name_key("ΗΑΝΝΑ")  # Greek capitals
True
>>> name_key("Paul") == name_key("PauI") == name_key("Pau1")
True
>>> name_key("Anna") == name_key("Ana")
False
>>> script_of("Jörg"), script_of("Ελένη"), script_of("Hаnna")
('latin', 'greek', None)
"""

from __future__ import annotations

import unicodedata

from ginrummy.protocol.limits import BadName, clean_name

# What a character looks like, after NFKC and case folding (so lower case only).
LOOKALIKES: dict[str, str] = {
    # Cyrillic drawn like Latin
    "а": "a", "в": "b", "с": "c", "ԁ": "d", "е": "e", "ё": "e", "һ": "h", "і": "l",
    "ї": "l", "ј": "j", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "ԛ": "q",
    "г": "r", "ѕ": "s", "т": "t", "у": "y", "ү": "y", "х": "x", "ԝ": "w", "ɡ": "g",
    "ь": "b", "з": "3", "ӏ": "l",
    # Greek drawn like Latin
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "l", "κ": "k", "ν": "v", "ο": "o",
    "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "γ": "y", "ω": "w", "μ": "u", "σ": "o",
    "ς": "c", "ϲ": "c", "ϳ": "j",
    # Latin drawn like other Latin letters, and digits drawn like letters
    "ı": "l", "i": "l", "|": "l", "1": "l", "0": "o", "5": "s", "ß": "ss", "ſ": "f",
    "ɑ": "a",
}  # fmt: skip
# Capital Greek and Cyrillic letters drawn like Latin capitals (before case folding).
UPPER_LOOKALIKES: dict[str, str] = {
    # Greek
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M",
    "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "Ϲ": "C", "Ϳ": "J",
    # Cyrillic
    "А": "A", "В": "B", "С": "C", "Е": "E", "Ё": "E", "Н": "H", "І": "I", "Ї": "I",
    "Ј": "J", "К": "K", "М": "M", "О": "O", "Р": "P", "Ѕ": "S", "Т": "T", "Х": "X",
    "У": "Y", "Ү": "Y", "Ԛ": "Q", "Ԝ": "W", "Ӏ": "I", "З": "3", "Ь": "b",
}  # fmt: skip
# Latin small capitals, drawn like capitals but not folded by NFKC nor casefold.
SMALL_CAPITALS: dict[str, str] = {
    "ᴀ": "a", "ʙ": "b", "ᴄ": "c", "ᴅ": "d", "ᴇ": "e", "ꜰ": "f", "ɢ": "g", "ʜ": "h",
    "ɪ": "l", "ᴊ": "j", "ᴋ": "k", "ʟ": "l", "ᴍ": "m", "ɴ": "n", "ᴏ": "o", "ᴘ": "p",
    "ꞯ": "q", "ʀ": "r", "ꜱ": "s", "ᴛ": "t", "ᴜ": "u", "ᴠ": "v", "ᴡ": "w", "ʏ": "y",
    "ᴢ": "z",
}  # fmt: skip
LOOKALIKES.update(SMALL_CAPITALS)
SCRIPTS = ("latin", "greek", "cyrillic")
# Several characters drawn like one (after the single ones above).
SEQUENCES = (("rn", "m"), ("vv", "w"), ("cl", "d"))
SEPARATORS = frozenset(" -_.")
INVISIBLE = frozenset({"\u00ad", "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"})


def name_key(name: str) -> str:
    """The key two names share exactly when they would be taken for one another."""
    plain = unicodedata.normalize("NFKC", name)
    folded = "".join(UPPER_LOOKALIKES.get(ch, ch) for ch in plain).casefold()
    folded = unicodedata.normalize("NFKC", folded)  # folding can undo a composition
    chars = [
        LOOKALIKES.get(ch, ch) for ch in folded if ch not in INVISIBLE and ch not in SEPARATORS
    ]
    key = "".join(chars)
    for seq, like in SEQUENCES:
        key = key.replace(seq, like)
    return key


def script_of(name: str) -> str | None:
    """The one script of the name's letters (``SCRIPTS``) after NFKC, ``"latin"`` for a
    name of digits and separators only; None if it mixes scripts, uses another one, or
    has digits other than ASCII or marks other than the combining diacritics."""
    found: set[str] = set()
    for ch in unicodedata.normalize("NFKC", name):
        category = unicodedata.category(ch)
        if category.startswith("L"):
            script = unicodedata.name(ch, "").split(" ", 1)[0].lower()
            if script not in SCRIPTS:
                return None
            found.add(script)
        elif not _plain_digit_or_mark(ch, category):
            return None
    if len(found) > 1:
        return None
    return found.pop() if found else "latin"


def _plain_digit_or_mark(ch: str, category: str) -> bool:
    """True unless ``ch`` is a digit other than 0-9 or a mark other than a diacritic."""
    if category.startswith("N"):
        return ch.isascii()
    if category.startswith("M"):
        return "\u0300" <= ch <= "\u036f"  # combining diacritical marks
    return True


def account_name(raw: object) -> str:
    """A name as an account keeps and shows it: the name rule of every name
    (``protocol.limits.clean_name``; ``BadName`` with the reason), with no invisible
    characters, written in one script of ``SCRIPTS``."""
    name = clean_name(raw)
    if any(ch in INVISIBLE or unicodedata.category(ch) == "Cf" for ch in name):
        raise BadName("a name may not hold invisible characters")
    if script_of(name) is None:
        raise BadName(
            "an account's name is written in Latin, Greek or Cyrillic letters,"
            " one of them, with digits 0 to 9"
        )
    return name
