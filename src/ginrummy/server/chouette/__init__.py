"""Chouette rooms (docs/protocol.md, "Chouette rooms"; docs/rules.md §8): three to five
players at one table, a kind of table on the table core (``room.base``).

``log`` (the fold over the engine's table events), ``master`` (the commands), ``room``
(the kind's hooks on the core), ``duties`` (computer, move timer, grace periods),
``team`` (advice and team chat), ``presenter`` (what a room shows); its HTTP routes are
``server/api/chouette.py``, registered with the kind in ``server/kinds.py``.
"""

from ginrummy.server.chouette.room import KIND, REBUILD, ChouetteRoom, open_room

__all__ = ["KIND", "REBUILD", "ChouetteRoom", "open_room"]
