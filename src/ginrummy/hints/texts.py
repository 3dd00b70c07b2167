"""Default German and English texts of the coach's message keys (one sentence each).

The client may ship its own catalog; these keep the keys and their parameters honest.
"""

from __future__ import annotations

from ginrummy.hints.coach import Tip

TEXTS: dict[str, dict[str, str]] = {
    "take_completes_meld": {
        "en": "Take {card}: it completes {meld}, deadwood {before} → {after}.",
        "de": "Nimm {card}: es vervollständigt {meld}, Restpunkte {before} → {after}.",
    },
    "pass_no_meld": {
        "en": "Pass on {card}: it makes no meld for you (deadwood {deadwood}).",
        "de": "Lass {card} liegen: es bildet keine Meldung (Restpunkte {deadwood}).",
    },
    "draw_stock_no_meld": {
        "en": "Draw from the stock: {card} makes no meld for you (deadwood {deadwood}).",
        "de": "Zieh vom Vorrat: {card} bildet keine Meldung (Restpunkte {deadwood}).",
    },
    "draw_stock_only": {
        "en": "Draw from the stock: it is the only choice (deadwood {deadwood}).",
        "de": "Zieh vom Vorrat: es geht nur das (Restpunkte {deadwood}).",
    },
    "pass_only": {
        "en": "Pass: the stock is used up and passing is the only choice (deadwood {deadwood}).",
        "de": "Pass: Der Vorrat ist aufgebraucht, es geht nur das (Restpunkte {deadwood}).",
    },
    "gin": {
        "en": "Go gin with {card}: every other card is in a meld.",
        "de": "Mach Gin mit {card}: alle übrigen Karten sind gemeldet.",
    },
    "big_gin": {
        "en": "Show Big Gin: all eleven cards are in melds.",
        "de": "Zeig Big Gin: alle elf Karten sind gemeldet.",
    },
    "knock": {
        "en": "Knock with {card}: your deadwood is only {deadwood}.",
        "de": "Klopf mit {card}: du hast nur {deadwood} Restpunkte.",
    },
    "discard_loose": {
        "en": "Discard {card}: a loose card; deadwood left {deadwood}.",
        "de": "Wirf {card} ab: eine freie Karte; Restpunkte danach {deadwood}.",
    },
    "discard_least_deadwood": {
        "en": "Discard {card}: it leaves the least deadwood, {deadwood}.",
        "de": "Wirf {card} ab: das lässt die wenigsten Restpunkte, {deadwood}.",
    },
}


def render(tip: Tip, lang: str = "en") -> str:
    """The tip as one sentence in ``lang`` ("de" or "en")."""
    return TEXTS[tip.key][lang].format(**tip.params)
