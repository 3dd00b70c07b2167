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
    # How sure a grade is (docs/review.md, "Grades and how sure they are"); {loss} is
    # one of the two loss phrases below, {band} the grade's word, {start} a threshold.
    "verdict_sure_error": {
        "en": "Sure: {loss}. Even the interval's low end is in the {band} range or above.",
        "de": "Sicher: {loss}. Selbst das untere Ende des Intervalls liegt im Bereich "
        "„{band}“ oder darüber.",
    },
    "verdict_likely_error": {
        "en": "Likely: {loss}. The estimate is in the {band} range; the interval reaches "
        "below it, but not down to 0.",
        "de": "Wahrscheinlich: {loss}. Die Schätzung liegt im Bereich „{band}“; das "
        "Intervall reicht darunter, aber nicht bis 0.",
    },
    "verdict_sure_good": {
        "en": "Sure: {loss}. The whole interval is below an inaccuracy ({start} points).",
        "de": "Sicher: {loss}. Das ganze Intervall liegt unter einer Ungenauigkeit "
        "({start} Punkte).",
    },
    "verdict_likely_good": {
        "en": "Likely: {loss}. The estimate is below an inaccuracy ({start} points); the "
        "interval reaches above it.",
        "de": "Wahrscheinlich: {loss}. Die Schätzung liegt unter einer Ungenauigkeit "
        "({start} Punkte); das Intervall reicht darüber.",
    },
    "verdict_likely_good_rival": {
        "en": "Likely: {loss}. Below an inaccuracy ({start} points), but another choice's "
        "interval reaches above it.",
        "de": "Wahrscheinlich: {loss}. Unter einer Ungenauigkeit ({start} Punkte), aber "
        "das Intervall einer anderen Wahl reicht darüber.",
    },
    "verdict_unsure": {
        "en": "Unclear: {loss}. The estimate looks like an error, but the interval reaches "
        "0: the sampled deals cannot tell it from no loss, so it is graded good.",
        "de": "Unklar: {loss}. Die Schätzung sieht nach einem Fehler aus, aber das "
        "Intervall reicht bis 0: die ausgelosten Verteilungen können ihn nicht von "
        "keinem Verlust unterscheiden, daher gilt der Zug als gut.",
    },
    "loss_interval": {
        "en": "estimated loss {estimate} ± {error} points ({level} % interval {low} to "
        "{high}, {worlds} sampled deals)",
        "de": "geschätzter Verlust {estimate} ± {error} Punkte ({level}-%-Intervall {low} "
        "bis {high}, {worlds} ausgeloste Kartenverteilungen)",
    },
    "loss_rough": {
        "en": "estimated loss {estimate} points (one sampled deal: no interval)",
        "de": "geschätzter Verlust {estimate} Punkte (eine ausgeloste Kartenverteilung: "
        "kein Intervall)",
    },
    # A negative loss: the move played looked better than the best other choice checked.
    "gain_interval": {
        "en": "estimated gain {estimate} ± {error} points over the other choice ({level} % "
        "interval {low} to {high}, {worlds} sampled deals)",
        "de": "geschätzter Gewinn {estimate} ± {error} Punkte gegenüber der anderen Wahl "
        "({level}-%-Intervall {low} bis {high}, {worlds} ausgeloste Kartenverteilungen)",
    },
    "gain_rough": {
        "en": "estimated gain {estimate} points over the other choice (one sampled deal: "
        "no interval)",
        "de": "geschätzter Gewinn {estimate} Punkte gegenüber der anderen Wahl (eine "
        "ausgeloste Kartenverteilung: kein Intervall)",
    },
    "summary_certainty": {
        "en": "Sure: {sure} of {errors}. Unclear (graded good): {unclear}.",
        "de": "Sicher: {sure} von {errors}. Unklar (als gut gewertet): {unclear}.",
    },
}
# The grades' words inside a sentence ("in the blunder range").
BANDS = {
    "inaccuracy": {"en": "inaccuracy", "de": "Ungenauigkeit"},
    "mistake": {"en": "mistake", "de": "Fehler"},
    "blunder": {"en": "blunder", "de": "Patzer"},
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
    if "band" in params:
        words["band"] = BANDS[str(params["band"])][lang]
    if key.startswith("verdict_"):
        words["loss"] = _loss_words(params, words, lang)
    if key == "summary":
        words["counts"] = counts_text({g: int(params.get(g, 0)) for g in GRADES}, lang)
    text = TEXTS[key][lang].format(**words)
    return text[0].upper() + text[1:]


def _loss_words(params: Params, words: dict[str, str], lang: str) -> str:
    """The loss of a verdict in words; a negative one as the gain it is (its interval
    turned round), never as "a loss of -8.1"."""
    interval = params.get("low") is not None
    estimate = params.get("estimate")
    if not isinstance(estimate, int | float) or estimate >= 0:
        return TEXTS["loss_interval" if interval else "loss_rough"][lang].format(**words)
    gain = dict(words, estimate=_number(-estimate, lang))
    if interval:
        low, high = params["low"], params["high"]
        assert isinstance(low, int | float) and isinstance(high, int | float)
        gain.update(low=_number(-high, lang), high=_number(-low, lang))
    return TEXTS["gain_interval" if interval else "gain_rough"][lang].format(**gain)


def phrase(key: str, params: Params) -> dict[str, object]:
    """The message ``key`` as the review's JSON carries it: its key, its parameters and
    its text in each language (a client may render it anew from the first two)."""
    text = {lang: render(key, params, lang) for lang in LANGUAGES}
    return {"key": key, "params": dict(params), "text": text}


def _number(value: str | int | float, lang: str) -> str:
    if isinstance(value, float):
        text = f"{value:.1f}"
        return text.replace(".", ",") if lang == "de" else text
    return str(value)
