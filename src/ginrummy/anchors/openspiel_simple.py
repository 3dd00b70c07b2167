"""OpenSpiel's ``SimpleGinRummyBot`` as a bot-protocol player.

    pip install open_spiel==2.0.2
    ginrummy arena --a expert --b "cmd:python -m ginrummy.anchors.openspiel_simple" \\
        --rule stock_rule=last_discard --matches 100

OpenSpiel's gin rummy is one hand with the rules of our ``standard`` preset and the
wall of ``stock_rule=last_discard`` (docs/computer-players.md, "Anchors"). Its simple
bot decides on a whole ``pyspiel`` state, so this adapter replays the round into one:
the deal and each stock draw as chance outcomes, every public move as an OpenSpiel
action. Its own stock draws it remembers (the adapter lives for the whole match); the
opponent's hidden cards are assigned so that each card it discarded was in its hand
at the time, and the rest are cards the player never saw. The bot reads only its own
observation (hand, upcard, discard pile, stock size, knock card), so the assignment
does not change what it decides. Reported (``uncounted``): the 11-card deal, a knock
limit other than 10 or Oklahoma, a void round under ``stock_rule=void`` (OpenSpiel
offers the wall), a Big Gin, and a discard of the card just taken from the pile
(OpenSpiel allows it, we do not).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, replace
from typing import Any

from ginrummy.anchors import Answer, CardIds, serve, void_round_count

CARDS = CardIds("scdh")  # OpenSpiel's suit order
DRAW_UPCARD, DRAW_STOCK, PASS, KNOCK = 52, 53, 54, 55


card_id, card_text = CARDS.id, CARDS.text


class ReplayError(Exception):
    """The view cannot be replayed (a move this adapter does not know, or a lost draw)."""


@dataclass(frozen=True, slots=True)
class Memory:
    """What the adapter saw of its own hand in this round: the dealt hand and, in
    order, the cards it drew from the stock (the public moves do not name them)."""

    round: int = 0
    dealt: tuple[str, ...] = ()
    draws: tuple[str, ...] = ()


def remember(view: dict[str, Any], memory: Memory) -> Memory:
    """``memory`` brought up to this view: a new round starts with the hand as dealt
    (the player's first decision of a round always comes before its first move), and
    a decision right after its own stock draw names the card drawn."""
    table = view["table"]
    if table["round"] != memory.round or not memory.dealt:
        memory = Memory(table["round"], tuple(view["hand"]))
    moves = view["moves"]
    mine = view["seat"]
    own_draws = sum(1 for m in moves if m["seat"] == mine and m["action"] == "draw stock")
    if own_draws == len(memory.draws) + 1 and moves[-1] == {"seat": mine, "action": "draw stock"}:
        before = set(_hand_before_last(view, memory))
        drawn = [c for c in view["hand"] if c not in before]
        if len(drawn) != 1:
            raise ReplayError(f"cannot tell the card drawn from the stock: {drawn}")
        memory = replace(memory, draws=(*memory.draws, drawn[0]))
    if own_draws != len(memory.draws):
        raise ReplayError("a stock draw of this round was not seen")
    return memory


def _hand_before_last(view: dict[str, Any], memory: Memory) -> list[str]:
    hand = list(memory.dealt)
    pile = [view["table"]["first_upcard"]]
    draws = iter(memory.draws)
    for move in view["moves"][:-1]:
        verb, _, card = move["action"].rpartition(" ")
        action = move["action"]
        if move["seat"] != view["seat"]:
            if action in ("take", "draw discard"):
                pile.pop()
            elif verb == "discard":
                pile.append(card)
            continue
        if action in ("take", "draw discard"):
            hand.append(pile.pop())
        elif action == "draw stock":
            hand.append(next(draws))
        elif verb == "discard":
            hand.remove(card)
            pile.append(card)
    return hand


def replay(view: dict[str, Any], memory: Memory) -> tuple[int, list[int]]:
    """The player's OpenSpiel id (0 = the non-dealer) and the OpenSpiel actions, chance
    outcomes included, that lead to this view."""
    table = view["table"]
    mine = view["seat"]
    me = 1 if table["dealer"] == mine else 0
    first = table["first_upcard"]
    if first is None:
        raise ReplayError("no first upcard: OpenSpiel has no 11-card deal")
    chance: list[str | None] = [None] * 20  # player 0's ten cards, then player 1's
    chance[me * 10 : me * 10 + 10] = memory.dealt
    chance.append(first)
    steps: list[int | None] = []  # an action, or None: the next stock draw's chance outcome
    opp_slots = [i for i in range(20) if chance[i] is None]  # its unknown cards in hand
    opp_known: list[str] = []  # cards it took from the pile and still holds
    pile = [first]
    draws = iter(memory.draws)
    wall = False
    for move in view["moves"]:
        action = move["action"]
        verb, _, card = action.rpartition(" ")
        own = move["seat"] == mine
        if action in ("take", "draw discard"):
            steps.append(KNOCK if wall else DRAW_UPCARD)
            top = pile.pop()
            if not own:
                opp_known.append(top)
        elif action == "pass":
            steps.append(PASS)
        elif action == "draw stock":
            steps += [DRAW_STOCK, None]
            chance.append(next(draws) if own else None)
            if not own:
                opp_slots.append(len(chance) - 1)
        elif verb == "discard":
            steps.append(card_id(card))
            pile.append(card)
            if not own:
                if card in opp_known:
                    opp_known.remove(card)
                elif opp_slots:
                    chance[opp_slots.pop(0)] = card
                else:
                    raise ReplayError(f"the opponent discarded {card}, which it cannot hold")
            wall = 52 - len(chance) == 2
        else:
            raise ReplayError(f"cannot replay {action!r}")
    seen = {c for c in chance if c} | set(pile) | set(view["hand"]) | set(opp_known)
    filler = iter(sorted({card_text(i) for i in range(52)} - seen, key=card_id))
    for slot in opp_slots:
        chance[slot] = next(filler)
    cards = [card_id(c) for c in chance if c is not None]
    if len(cards) != len(chance):
        raise ReplayError("a card of the replay is missing")
    drawn = iter(cards[21:])
    out = cards[:21]
    for step in steps:
        out.append(next(drawn) if step is None else step)
    return me, out


def answer_for(opens: list[int], legal: list[str]) -> tuple[str | None, str | None]:
    """Our action for the bot's OpenSpiel actions (one, or two after it knocked: the
    knock and its discard), or ``None`` and why it has no counterpart (never ``None``
    without a reason: the match would count with a move the bot did not choose)."""
    first = opens[0]
    if "take" in legal:
        return _mapped({DRAW_UPCARD: "take", PASS: "pass"}, first, "the first upcard")
    if legal == ["draw stock"]:
        return "draw stock", None
    if "draw stock" in legal or ("draw discard" in legal and "pass" not in legal):
        return _mapped({DRAW_UPCARD: "draw discard", DRAW_STOCK: "draw stock"}, first, "a draw")
    if "pass" in legal:  # the wall
        return _mapped({PASS: "pass", KNOCK: "draw discard"}, first, "the wall")
    if first == KNOCK and len(opens) == 1:
        return None, "knock: OpenSpiel lets this hand knock, we do not"
    if first == KNOCK:
        card = card_text(opens[-1])
        for action in (f"gin {card}", f"knock {card}"):
            if action in legal:
                return action, None
        return None, f"knock: OpenSpiel's knock discarding {card} is not ours"
    action = f"discard {card_text(first)}"
    if action in legal:
        return action, None
    return None, f"discard: OpenSpiel lets a player discard {card_text(first)}, we do not"


def _mapped(ours: dict[int, str], action: int, when: str) -> tuple[str | None, str | None]:
    """Our action for OpenSpiel's ``action`` at ``when``, or ``None`` and why."""
    if action in ours:
        return ours[action], None
    return None, f"{when}: OpenSpiel's action {action} has no counterpart here"


def differences(view: dict[str, Any]) -> str | None:
    """The first rule of OpenSpiel's game this view shows to differ in a way that can
    change the play, or ``None``."""
    table = view["table"]
    rules = table["rules"]
    if rules["eleven_card_deal"]:
        return "deal: OpenSpiel deals 10 each and turns a first upcard"
    if rules["oklahoma"] or table["knock_limit"] != 10:
        return "knock limit: OpenSpiel's is 10 here"
    if rules["stock_rule"] != "last_discard" and void_round_count(view):
        return "stock exhaustion: OpenSpiel offers the last discard to knock (the wall)"
    if any(r["result"]["kind"] == "big_gin" for r in table["rounds"]):
        return "big gin: OpenSpiel has none"
    return None


def decide(view: dict[str, Any], memory: Memory) -> tuple[Answer, Memory]:
    pyspiel = importlib.import_module("pyspiel")
    legal: list[str] = view["legal_actions"]
    differs = differences(view)
    try:
        memory = remember(view, memory)
        me, actions = replay(view, memory)
        game = pyspiel.load_game("gin_rummy")
        state = game.new_initial_state()
        for step in actions:
            state.apply_action(step)
        if state.is_terminal() or state.current_player() != me:
            raise ReplayError("OpenSpiel's hand is over or it is not this player's turn")
        bot = pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), me)
        opens = [int(bot.step(state))]
        knocks = any(a.startswith(("knock ", "gin ")) for a in legal)
        if opens[0] == KNOCK and knocks:  # its knock, then the discard that goes with it
            if KNOCK in state.legal_actions():
                state.apply_action(KNOCK)
            opens.append(int(bot.step(state)))
        action, why = answer_for(opens, legal)
    except (ReplayError, RuntimeError) as exc:  # pyspiel's errors are RuntimeErrors
        action, why = None, f"replay: {exc}"
    if action is None:  # no counterpart: play on, but the match does not count
        return Answer(legal[0], differs or why), memory
    return Answer(action, differs), memory


def main() -> int:
    memory = Memory()

    def step(view: dict[str, Any]) -> Answer:
        nonlocal memory
        answer, memory = decide(view, memory)
        return answer

    return serve(step)


if __name__ == "__main__":
    raise SystemExit(main())
