"""One frozen rules configuration; presets are named sets of values (docs/rules.md §3-§4).

>>> Rules.preset("oklahoma").oklahoma
True
>>> Rules.preset("standard", target_score=50).target_score
50
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from enum import Enum, StrEnum
from typing import Any

from ginrummy.engine.errors import RulesError


class NextDealer(StrEnum):
    ALTERNATE = "alternate"  # "Der Geber wechselt jede Runde"
    LOSER = "loser"  # the loser of the previous round deals (Wikipedia)


class AfterVoid(StrEnum):
    NEXT = "next"  # the next dealer as usual (void rounds count for alternation)
    SAME = "same"  # the same dealer deals again (Wikipedia)


class StockRule(StrEnum):
    VOID = "void"  # void at 2 stock cards left
    LAST_DISCARD = "last_discard"  # ...but the next player may first take the last discard to knock


@dataclass(frozen=True, slots=True)
class Rules:
    """Every option of docs/rules.md §4. Build with ``Rules.preset(name, **overrides)``."""

    name: str = "standard"
    target_score: int | None = 100  # None: "first to knock", one scoring round decides
    knock_limit: int = 10
    oklahoma: bool = False  # knock limit from the first upcard (ace: gin only)
    spade_doubling: bool = False  # Oklahoma: round points doubled if the first upcard is a spade
    gin_bonus: int = 25
    undercut_bonus: int = 25
    big_gin_bonus: int | None = None  # None: Big Gin off
    box_bonus: int = 0  # per round won, added at match end
    game_bonus: int = 0  # for reaching the target, added at match end
    shutout_bonus: int = 0  # when the opponent scored 0, added at match end
    eleven_card_deal: bool = False  # 11 to the non-dealer, who opens by discarding; no upcard
    next_dealer: NextDealer = NextDealer.ALTERNATE
    after_void: AfterVoid = AfterVoid.NEXT
    stock_rule: StockRule = StockRule.VOID
    move_timer_seconds: int | None = None  # per draw and per discard; enforced by the server

    def __post_init__(self) -> None:
        # Rules(...) and with_(...) get from_dict's type checks: a text such as "loser"
        # must become the enum member (the match compares with `is`), never pass as is.
        for f in fields(self):
            try:
                object.__setattr__(self, f.name, _coerce(f.name, getattr(self, f.name)))
            except ValueError as exc:
                raise RulesError(f"invalid rules: {exc}") from None
        problems = list(self._problems())
        if problems:
            raise RulesError("invalid rules: " + "; ".join(problems))

    def _problems(self) -> Any:
        if self.target_score is not None and not 1 <= self.target_score <= 10_000:
            yield f"target_score must be 1..10000 or null (first to knock), got {self.target_score}"
        if not 0 <= self.knock_limit <= 30:
            yield f"knock_limit must be 0..30, got {self.knock_limit}"
        for name in ("gin_bonus", "undercut_bonus", "box_bonus", "game_bonus", "shutout_bonus"):
            value = getattr(self, name)
            if not 0 <= value <= 1000:
                yield f"{name} must be 0..1000, got {value}"
        if self.big_gin_bonus is not None and not 0 <= self.big_gin_bonus <= 1000:
            yield f"big_gin_bonus must be 0..1000 or null (off), got {self.big_gin_bonus}"
        if self.oklahoma and self.eleven_card_deal:
            yield "Oklahoma takes the knock limit from the upcard, the 11-card deal has none"
        if self.spade_doubling and not self.oklahoma:
            yield "spade doubling is an Oklahoma rule and needs oklahoma on"
        if self.move_timer_seconds is not None and not 5 <= self.move_timer_seconds <= 600:
            yield f"move_timer_seconds must be 5..600 or null (off), got {self.move_timer_seconds}"
        if self.target_score is None and (self.game_bonus or self.shutout_bonus):
            yield "first-to-knock (no target score) cannot have a game or shutout bonus"

    @classmethod
    def preset(cls, name: str = "standard", **overrides: Any) -> Rules:
        """A named preset with single fields overridden; the name stays the preset's."""
        try:
            base = PRESETS[name]
        except KeyError:
            raise RulesError(
                f"unknown preset {name!r}; choose one of {', '.join(PRESETS)}"
            ) from None
        if not overrides:
            return base
        return cls.from_dict({**base.to_dict(), **overrides})

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        for key, value in out.items():
            if isinstance(value, Enum):
                out[key] = value.value
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        known = {f.name: f for f in fields(cls)}
        unknown = sorted(set(data) - set(known))
        if unknown:
            raise RulesError(f"unknown rules option(s): {', '.join(unknown)}")
        kwargs: dict[str, Any] = {}
        try:
            for key, value in data.items():
                kwargs[key] = _coerce(key, value)
        except ValueError as exc:
            raise RulesError(f"invalid rules: {exc}") from None
        return cls(**kwargs)

    def with_(self, **changes: Any) -> Rules:
        return replace(self, **changes)


_ENUMS: dict[str, type[Enum]] = {
    "next_dealer": NextDealer,
    "after_void": AfterVoid,
    "stock_rule": StockRule,
}
_BOOLS = {"oklahoma", "spade_doubling", "eleven_card_deal"}
_OPTIONAL_INTS = {"target_score", "big_gin_bonus", "move_timer_seconds"}


def _coerce(key: str, value: Any) -> Any:
    if key in _ENUMS:
        try:
            return _ENUMS[key](value)
        except ValueError:
            allowed = ", ".join(str(m.value) for m in _ENUMS[key])
            raise ValueError(f"{key} must be one of {allowed}, got {value!r}") from None
    if key in _BOOLS:
        if not isinstance(value, bool):
            raise ValueError(f"{key} must be true or false, got {value!r}")
        return value
    if key == "name":
        if not isinstance(value, str) or not value:
            raise ValueError(f"name must be a non-empty string, got {value!r}")
        return value
    if value is None and key in _OPTIONAL_INTS:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{key} must be a whole number, got {value!r}")
    return value


PRESETS: dict[str, Rules] = {
    "standard": Rules(),
    "oklahoma": Rules(name="oklahoma", oklahoma=True, spade_doubling=True),
    # The William Hill money-mode settlement, without money.
    "classic": Rules(
        name="classic",
        gin_bonus=25,
        undercut_bonus=25,
        box_bonus=25,
        game_bonus=100,
        shutout_bonus=100,
    ),
    "first-to-knock": Rules(name="first-to-knock", target_score=None),
}
