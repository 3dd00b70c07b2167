"""The "learn with tips" coach (docs/rules.md §6): own hand and open discard card only."""

from ginrummy.hints.coach import Tip, advise
from ginrummy.hints.texts import TEXTS, render

__all__ = ["TEXTS", "Tip", "advise", "render"]
