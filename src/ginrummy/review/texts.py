"""German and English texts of the review: each message is a key with parameters
(like the coach's tips, ``ginrummy.hints``); a client may ship its own catalog."""

from __future__ import annotations

from collections.abc import Mapping

Params = Mapping[str, str | int | float]

GRADES: dict[str, dict[str, tuple[str, str]]] = {
    # grade: language: (singular, plural)
    "inaccuracy": {
        "en": ("inaccuracy", "inaccuracies"),
        "de": ("Ungenauigkeit", "Ungenauigkeiten"),
    },
    "mistake": {"en": ("mistake", "mistakes"), "de": ("Fehler", "Fehler")},
    "blunder": {"en": ("blunder", "blunders"), "de": ("Patzer", "Patzer")},
}

PATTERNS: dict[str, dict[str, str]] = {
    "took_discard": {"en": "taking the discard", "de": "das Aufnehmen der Ablagekarte"},
    "left_discard": {"en": "leaving the discard", "de": "das Liegenlassen der Ablagekarte"},
    "missed_gin": {"en": "missing gin", "de": "verpasstes Gin"},
    "missed_knock": {"en": "not knocking", "de": "verpasstes Klopfen"},
    "early_knock": {"en": "knocking too early", "de": "zu frühes Klopfen"},
    "broke_meld": {"en": "breaking up melds", "de": "das Aufbrechen von Meldungen"},
    "fed_opponent": {
        "en": "discarding cards the opponent can use",
        "de": "das Abwerfen von Karten, die dem Gegner nützen",
    },
    "kept_high_deadwood": {
        "en": "holding high deadwood",
        "de": "das Behalten hoher Restpunkte",
    },
    "other_discard": {"en": "the choice of discard", "de": "die Wahl der Abwurfkarte"},
}

TEXTS: dict[str, dict[str, str]] = {
    "summary_clean": {
        "en": "No inaccuracies, mistakes or blunders.",
        "de": "Keine Ungenauigkeiten, Fehler oder Patzer.",
    },
    "summary": {
        "en": "{counts}; most points lost by {pattern} from turn {turn} ({points} points).",
        "de": "{counts}; die meisten Punkte verloren durch {pattern} ab Zug {turn} "
        "({points} Punkte).",
    },
    "decision": {
        "en": "{grade}: {played} loses {loss} points against {best}.",
        "de": "{grade}: {played} verliert {loss} Punkte gegenüber {best}.",
    },
}
LANGUAGES = ("de", "en")


def counts_text(counts: Mapping[str, int], lang: str) -> str:
    """``"3 mistakes, 1 blunder"``: the grades that occur, in rising order of weight."""
    parts = []
    for grade, words in GRADES.items():
        n = counts.get(grade, 0)
        if n:
            one, many = words[lang]
            parts.append(f"{n} {one if n == 1 else many}")
    return ", ".join(parts)


def render(key: str, params: Params, lang: str) -> str:
    """The message ``key`` with ``params`` in ``lang`` ("de" or "en").

    >>> render("decision", {"grade": "blunder", "played": "discard 7h",
    ...                     "loss": 12.5, "best": "knock 2c"}, "de")
    'Patzer: discard 7h verliert 12,5 Punkte gegenüber knock 2c.'
    """
    words: dict[str, str] = {k: _number(v, lang) for k, v in params.items()}
    if "grade" in params:
        words["grade"] = GRADES[str(params["grade"])][lang][0].capitalize()
    if "pattern" in params:
        words["pattern"] = PATTERNS[str(params["pattern"])][lang]
    if key == "summary":
        words["counts"] = counts_text({g: int(params.get(g, 0)) for g in GRADES}, lang)
    text = TEXTS[key][lang].format(**words)
    return text[0].upper() + text[1:]


def _number(value: str | int | float, lang: str) -> str:
    if isinstance(value, float):
        text = f"{value:.1f}"
        return text.replace(".", ",") if lang == "de" else text
    return str(value)
