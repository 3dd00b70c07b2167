"""ginrummy: exact web Gin Rummy.

Layers (see docs/design.md and docs/architecture.md): ``engine`` (pure rules);
``bots``, ``hints``, ``protocol``, ``fairness`` and ``tournament`` (pure, on top of the
engine); ``ratings`` (pure maths); ``review`` (on the engine and the bots); ``server``
(all I/O); ``web`` (static client).
"""

__version__ = "0.1.0"
