"""Chouette rooms (docs/protocol.md, "Chouette rooms"; docs/rules.md §8): three to five
players at one table, on the two-player rooms' parts.

``log`` (the fold over the engine's table events), ``master`` (the commands), ``room``
(state, lock, the one place of effects), ``duties`` (computer, move timer, grace
periods), ``team`` (advice and team chat), ``presenter`` (what a room shows) and
``api`` (its HTTP routes).
"""

from ginrummy.server.chouette.room import KIND, REBUILD, ChouetteRoom, open_room

__all__ = ["KIND", "REBUILD", "ChouetteRoom", "open_room"]
