"""ginrummy: exact web Gin Rummy.

Layers (see docs/architecture.md): ``engine`` (pure rules), ``bots``, ``hints`` and
``protocol`` (pure, on top of the engine), ``server`` (all I/O), ``web`` (static client).
"""

__version__ = "0.1.0"
