"""Player ratings: Glicko-2 (standard library only; imports nothing of ours)."""

from ginrummy.ratings.glicko2 import DEFAULT_TAU, Rating, rate, rate_match

__all__ = ["DEFAULT_TAU", "Rating", "rate", "rate_match"]
