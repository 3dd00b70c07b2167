"""The app's shared services as a route reaches them (``request.app.state``), typed."""

from __future__ import annotations

from starlette.requests import Request

from ginrummy.server.quick import QuickMatch
from ginrummy.server.reviews import ReviewJobs
from ginrummy.server.room import RoomManager
from ginrummy.server.tournaments import TournamentService


def rooms_of(request: Request) -> RoomManager:
    rooms: RoomManager = request.app.state.rooms
    return rooms


def quick_of(request: Request) -> QuickMatch:
    quick: QuickMatch = request.app.state.quick
    return quick


def tournaments_of(request: Request) -> TournamentService:
    service: TournamentService = request.app.state.tournaments
    return service


def reviews_of(request: Request) -> ReviewJobs:
    reviews: ReviewJobs = request.app.state.reviews
    return reviews
