"""The rules engine: pure, deterministic, standard library only (docs/rules.md).

>>> from ginrummy.engine import parse_cards, best_arrangement
>>> best_arrangement(parse_cards("7h 8h 9h Tc Td Ts 2c 3d 4s Kh")).deadwood
19
"""

from ginrummy.engine.actions import Action, ActionKind, parse_action
from ginrummy.engine.cards import DECK, Card, Suit, cards_text, parse_card, parse_cards
from ginrummy.engine.errors import (
    ActionParseError,
    CardParseError,
    ChouetteError,
    DuplicateCardError,
    GinRummyError,
    HandSizeError,
    IllegalActionError,
    NotAKnockError,
    RecordError,
    RecordFieldError,
    RulesError,
)
from ginrummy.engine.match import (
    ForfeitReason,
    MatchPhase,
    MatchResult,
    MatchState,
    ScoredRound,
    deal,
    forfeit,
    new_match,
)
from ginrummy.engine.match import apply as apply_match
from ginrummy.engine.match import legal_actions as match_legal_actions
from ginrummy.engine.melds import (
    Arrangement,
    DiscardOption,
    Meld,
    MeldKind,
    best_arrangement,
    best_discards,
    is_meld,
)
from ginrummy.engine.record import (
    FairBlock,
    MatchRecord,
    RoundRecord,
    load_record,
    record_of,
    replay_match,
    replay_round,
)
from ginrummy.engine.round import (
    Phase,
    PublicMove,
    ResultKind,
    RoundResult,
    RoundState,
    apply,
    legal_actions,
    new_round,
)
from ginrummy.engine.rules import PRESETS, AfterVoid, NextDealer, Rules, StockRule
from ginrummy.engine.seats import Pair, Seat
from ginrummy.engine.showdown import Layoff, Showdown, ShowdownKind, Side, settle
from ginrummy.engine.shuffle import RandomSource, draw_first_dealer, shuffled_deck
from ginrummy.engine.views import (
    SeatView,
    SpectatorView,
    TableView,
    view_for_seat,
    view_for_spectator,
)

__all__ = [
    "DECK",
    "PRESETS",
    "Action",
    "ActionKind",
    "ActionParseError",
    "AfterVoid",
    "Arrangement",
    "Card",
    "CardParseError",
    "ChouetteError",
    "DiscardOption",
    "DuplicateCardError",
    "FairBlock",
    "ForfeitReason",
    "GinRummyError",
    "HandSizeError",
    "IllegalActionError",
    "Layoff",
    "MatchPhase",
    "MatchRecord",
    "MatchResult",
    "MatchState",
    "Meld",
    "MeldKind",
    "NextDealer",
    "NotAKnockError",
    "Pair",
    "Phase",
    "PublicMove",
    "RandomSource",
    "RecordError",
    "RecordFieldError",
    "ResultKind",
    "RoundRecord",
    "RoundResult",
    "RoundState",
    "Rules",
    "RulesError",
    "ScoredRound",
    "Seat",
    "SeatView",
    "Showdown",
    "ShowdownKind",
    "Side",
    "SpectatorView",
    "StockRule",
    "Suit",
    "TableView",
    "apply",
    "apply_match",
    "best_arrangement",
    "best_discards",
    "cards_text",
    "deal",
    "draw_first_dealer",
    "forfeit",
    "is_meld",
    "legal_actions",
    "load_record",
    "match_legal_actions",
    "new_match",
    "new_round",
    "parse_action",
    "parse_card",
    "parse_cards",
    "record_of",
    "replay_match",
    "replay_round",
    "settle",
    "shuffled_deck",
    "view_for_seat",
    "view_for_spectator",
]
