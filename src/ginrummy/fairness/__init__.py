"""Provably fair deals (docs/fairness.md): the construction ``gin-fair-v1`` and the
verifier of records. Pure: imports only the engine and the standard library.

>>> from ginrummy.fairness import DealContext, deal_deck, fair_block
>>> ctx = DealContext(bytes(32), bytes(32), "room", 1, 1)
>>> fair_block(bytes(32), ctx).version
'gin-fair-v1'
"""

from ginrummy.fairness.construction import (
    SEED_BYTES,
    VERSION,
    DealContext,
    FairnessError,
    SeedError,
    commitment,
    deal_deck,
    deal_message,
    default_seat_seed,
    fair_block,
    new_seed,
    parse_seed,
    phrase_seat_seed,
)
from ginrummy.fairness.verify import (
    Check,
    FieldError,
    Report,
    RoundVerdict,
    report_dict,
    verify_fairness,
    verify_record,
)

__all__ = [
    "SEED_BYTES",
    "VERSION",
    "Check",
    "DealContext",
    "FairnessError",
    "FieldError",
    "Report",
    "RoundVerdict",
    "SeedError",
    "commitment",
    "deal_deck",
    "deal_message",
    "default_seat_seed",
    "fair_block",
    "new_seed",
    "parse_seed",
    "phrase_seat_seed",
    "report_dict",
    "verify_fairness",
    "verify_record",
]
