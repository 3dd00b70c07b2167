"""Account names: unique after normalisation, and never a lookalike of another.

Two names are the same name when their keys are equal. The key is a small version of
the "skeleton" of Unicode TR39 (confusable detection):

1. NFKC: compatibility forms become their plain letters (full-width ``Ａｎｎ``,
   ligatures, superscripts);
2. case folding (``ANN``, ``ann``, ``Straße``/``STRASSE``);
3. marks that draw nothing are dropped (zero-width joiners and spaces, soft hyphens);
4. each character that looks like another is replaced by the one it looks like
   (``LOOKALIKES``: Cyrillic and Greek letters drawn like Latin ones, digits drawn like
   letters, ``rn`` drawn like ``m``), and separators (space, ``-``, ``_``, ``.``) are
   dropped, so ``Ann Lee``, ``ann_lee`` and ``AnnLee`` are one name.

No library on PyPI computes TR39's skeleton and is well kept (``confusable-homoglyphs``
detects mixed scripts in one string, not lookalikes between two names), so the table is
ours: the Latin, Greek and Cyrillic lookalikes of confusables.txt that a name may use
(names allow letters, digits, spaces, '-', '_' and '.', ``protocol.limits``). A name in
another script keeps its letters (``ﾀﾛｳ`` folds to ``タロウ`` by NFKC and stays so).

>>> name_key("Ann") == name_key("ＡＮＮ") == name_key("Аnn")  # full width, Cyrillic А
True
>>> name_key("Paul") == name_key("PauI") == name_key("Pau1")
True
>>> name_key("Anna") == name_key("Ana")
False
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
# Several characters drawn like one (after the single ones above).
SEQUENCES = (("rn", "m"), ("vv", "w"), ("cl", "d"))
SEPARATORS = frozenset(" -_.")
INVISIBLE = frozenset({"\u00ad", "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"})


def name_key(name: str) -> str:
    """The key two names share exactly when they would be taken for one another."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    folded = unicodedata.normalize("NFKC", folded)  # folding can undo a composition
    chars = [
        LOOKALIKES.get(ch, ch) for ch in folded if ch not in INVISIBLE and ch not in SEPARATORS
    ]
    key = "".join(chars)
    for seq, like in SEQUENCES:
        key = key.replace(seq, like)
    return key


def account_name(raw: object) -> str:
    """A name as an account keeps and shows it: the name rule of every name
    (``protocol.limits.clean_name``; ``BadName`` with the reason), with no invisible
    characters."""
    name = clean_name(raw)
    if any(ch in INVISIBLE or unicodedata.category(ch) == "Cf" for ch in name):
        raise BadName("a name may not hold invisible characters")
    return name
