"""RLCard's gin rummy rule agent (``GinRummyNoviceRuleAgent``) as a bot-protocol player.

    pip install rlcard==1.2.0
    ginrummy arena --a expert --b "cmd:python -m ginrummy.anchors.rlcard_novice" \\
        --rule eleven_card_deal=true --rule stock_rule=last_discard --matches 100

RLCard's game (rlcard/games/gin_rummy) and ours differ; docs/computer-players.md
("Anchors") lists every difference. Those that change what the agent may do are
reported (``uncounted``): a deal with an upcard (RLCard deals 11 cards to the
non-dealer and has no first upcard, so run the arena with ``eleven_card_deal=true``),
a knock limit other than 10 or Oklahoma, and a round that ended void at the stock's
last two cards (RLCard lets the next player pick up the last discard and play on).
Scoring differences do not matter to the agent: it never looks at scores.
"""

from __future__ import annotations

import importlib
from collections import OrderedDict
from typing import Any

from ginrummy.anchors import Answer, CardIds, serve, view_seed, void_round_count

CARDS = CardIds("shdc")  # RLCard's suit order: S, H, D, C
DRAW_CARD, PICK_UP_DISCARD, DECLARE_DEAD_HAND, GIN = 2, 3, 4, 5
DISCARD, KNOCK = 6, 58


card_id, card_text = CARDS.id, CARDS.text


def rlcard_actions(legal: list[str]) -> dict[int, str]:
    """Our legal actions as RLCard action ids, each with the action it stands for.

    RLCard offers only the gin action when gin is possible, so the same happens here;
    its gin has no card, so it stands for our first gin (or Big Gin) action."""
    gins = [a for a in legal if a == "big gin" or a.startswith("gin ")]
    if gins:
        return {GIN: gins[0]}
    out: dict[int, str] = {}
    for action in legal:
        verb, _, card = action.rpartition(" ")
        if action == "draw stock":
            out[DRAW_CARD] = action
        elif action == "pass":  # declining the last discard at the wall (stock_rule last_discard)
            out[DECLARE_DEAD_HAND] = action
        elif action in ("draw discard", "take"):
            out[PICK_UP_DISCARD] = action
        elif verb == "discard":
            out[DISCARD + card_id(card)] = action
        elif verb == "knock":
            out[KNOCK + card_id(card)] = action
    return out


def first_upcard_or_pass(legal: list[str]) -> dict[int, str]:
    """``take``/``pass`` on the first upcard: RLCard's draw choice (pick up or draw)."""
    return {PICK_UP_DISCARD: "take", DRAW_CARD: "pass"} if "take" in legal else {}


def differences(view: dict[str, Any]) -> str | None:
    """The first rule of RLCard's game that this view shows to differ in a way that
    can change the agent's play, or ``None``."""
    rules = view["table"]["rules"]
    if not rules["eleven_card_deal"]:
        return "deal: RLCard deals 11 cards to the non-dealer and has no first upcard"
    if rules["oklahoma"] or view["table"]["knock_limit"] != 10:
        return "knock limit: RLCard's is always 10"
    if void_round_count(view):
        return "stock exhaustion: RLCard lets the next player pick up the last discard and play on"
    return None


def observation(view: dict[str, Any]) -> list[list[int]]:
    """RLCard's five 52-card planes: hand, top discard, the rest of the pile, the
    opponent's known cards, and the cards unknown to the player."""
    planes = [[0] * 52 for _ in range(5)]
    table = view["table"]
    pile: list[str] = table["discard_pile"]
    opponent = "one" if view["seat"] == "two" else "two"
    for c in view["hand"]:
        planes[0][card_id(c)] = 1
    if pile:
        planes[1][card_id(pile[-1])] = 1
    for c in pile[:-1]:
        planes[2][card_id(c)] = 1
    for c in table["known"][opponent]:
        planes[3][card_id(c)] = 1
    for i in range(52):
        if not any(planes[p][i] for p in range(4)):
            planes[4][i] = 1
    return planes


def decide(view: dict[str, Any]) -> Answer:
    np = importlib.import_module("numpy")
    models = importlib.import_module("rlcard.models.gin_rummy_rule_models")
    legal: list[str] = view["legal_actions"]
    choices = first_upcard_or_pass(legal) or rlcard_actions(legal)
    state = {
        "obs": np.array(observation(view), dtype=np.int32),
        "legal_actions": OrderedDict((i, None) for i in choices),
        "raw_legal_actions": list(choices),
    }
    np.random.seed(view_seed(view))
    action_id = int(models.GinRummyNoviceRuleAgent.step(state))
    return Answer(choices[action_id], differences(view))


def main() -> int:
    return serve(decide)


if __name__ == "__main__":
    raise SystemExit(main())
