"""Tournaments on the server (docs/tournaments.md, "On the server"): the store's log
of each tournament (``records``), the commands people send (``service``), the one
instance that pairs (``driver``), matches as ordinary rooms (``matches``), what the
API shows (``view``) and its HTTP routes (``api``)."""

from ginrummy.server.tournaments.service import (
    Contended,
    TournamentService,
    UnknownTournament,
)

__all__ = ["Contended", "TournamentService", "UnknownTournament"]
