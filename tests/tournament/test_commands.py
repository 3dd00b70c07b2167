"""A tournament's life through its commands, and every refusal with its error code."""

from __future__ import annotations

import pytest

from ginrummy.tournament import (
    Entrant,
    ErrorCode,
    FinishReason,
    Format,
    Joined,
    ResultReason,
    Settings,
    Started,
    TournamentError,
    Withdrawn,
    WithdrawReason,
    create,
    join,
    leave,
    no_show,
    record_result,
    start,
    withdraw,
)
from ginrummy.tournament.state import Phase

from .helpers import entrants, full, opened


def _refused(code: ErrorCode, command, *args, **kwargs) -> None:
    with pytest.raises(TournamentError) as err:
        command(*args, **kwargs)
    assert err.value.code is code, err.value


def _with_players(n: int, **options) -> object:
    run = opened(Settings("Cup", "swiss", 8, start_at=3600, **options), creator="host")
    for entrant in entrants(n):
        run.do(join(run.state, entrant, at=1))
    return run


# -- settings and creation ---------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"format": "round robin"}, ErrorCode.UNKNOWN_FORMAT),
        ({"max_players": 3}, ErrorCode.SIZE_OUT_OF_RANGE),
        ({"max_players": 65}, ErrorCode.SIZE_OUT_OF_RANGE),
        ({"rounds": 8}, ErrorCode.ROUNDS_OUT_OF_RANGE),
        ({"rounds": 0}, ErrorCode.ROUNDS_OUT_OF_RANGE),
        ({"name": " "}, ErrorCode.BAD_SETTINGS),
        ({"rules_preset": "pinochle"}, ErrorCode.BAD_SETTINGS),
        ({"target_score": 0}, ErrorCode.BAD_SETTINGS),
        ({"move_timer_seconds": 1}, ErrorCode.BAD_SETTINGS),
        ({"third_place": True}, ErrorCode.BAD_SETTINGS),  # Swiss has no third-place match
    ],
)
def test_bad_settings_are_refused_with_their_code(options, code):
    values = {"name": "Cup", "format": "swiss", "max_players": 8, **options}
    _refused(code, Settings, **values)


def test_sizes_4_to_64_and_both_formats_are_accepted():
    for size in (4, 64):
        for fmt in ("knockout", "swiss"):
            assert Settings("Cup", fmt, size).format is Format(fmt)


def test_a_start_time_must_lie_a_minute_ahead():
    _refused(ErrorCode.START_IN_PAST, create, Settings("Cup", "swiss", 8, start_at=50), "a", at=0)
    _refused(ErrorCode.START_IN_PAST, create, Settings("Cup", "swiss", 8, start_at=90), "a", at=100)
    created = create(Settings("Cup", "swiss", 8, start_at=160), "host", at=100)
    assert created.creator == "host" and created.at == 100


def test_the_rules_of_the_matches_come_from_the_preset():
    rules = Settings("Cup", "swiss", 8, rules_preset="oklahoma", target_score=150).rules()
    assert rules.oklahoma and rules.target_score == 150


# -- joining and leaving --------------------------------------------------------------


def test_players_join_and_leave_until_the_start():
    run = _with_players(3)
    run.do(leave(run.state, "p2", at=2))
    assert run.state.players == ("p1", "p3")
    assert run.state.phase is Phase.OPEN


def test_joining_twice_is_refused():
    run = _with_players(2)
    _refused(ErrorCode.ALREADY_JOINED, join, run.state, entrants(1)[0], at=2)


def test_joining_a_full_tournament_is_refused():
    run = _with_players(8)  # a set start time: a full tournament waits for it
    assert run.state.phase is Phase.OPEN
    _refused(ErrorCode.TOURNAMENT_FULL, join, run.state, Entrant("late", "Late", 1500), at=2)


def test_joining_or_leaving_after_the_start_is_refused():
    run = full("swiss", 4)
    _refused(ErrorCode.ALREADY_STARTED, join, run.state, Entrant("late", "Late", 1500), at=2)
    # after the start, leaving is a withdrawal
    _refused(ErrorCode.ALREADY_STARTED, leave, run.state, "p1", at=2)


def test_joining_a_finished_tournament_is_refused():
    run = full("knockout", 4)
    for _ in range(2):
        for p in run.state.current.pending():
            run.do(record_result(run.state, p.match_id, p.first, (100, 0), at=3))
    assert run.state.phase is Phase.FINISHED
    _refused(ErrorCode.FINISHED, join, run.state, Entrant("late", "Late", 1500), at=4)
    _refused(ErrorCode.FINISHED, withdraw, run.state, "p1", at=4)


def test_leaving_without_a_place_is_refused():
    run = _with_players(2)
    _refused(ErrorCode.NOT_JOINED, leave, run.state, "p7", at=2)


# -- starting ---------------------------------------------------------------------------


def test_a_tournament_without_a_start_time_starts_when_full():
    run = opened(Settings("Cup", "knockout", 4))
    for entrant in entrants(4):
        events = join(run.state, entrant, at=5)
        run.do(events)
    kinds = [type(e).__name__ for e in events]
    assert kinds == ["Joined", "Started", "RoundPaired"]
    assert run.state.phase is Phase.RUNNING and run.state.started_at == 5


def test_the_creator_may_start_early_with_four():
    run = _with_players(3)
    _refused(ErrorCode.TOO_FEW_PLAYERS, start, run.state, at=2, by="host")
    run.do(join(run.state, Entrant("p4", "Player 4", 1000), at=2))
    _refused(ErrorCode.NOT_CREATOR, start, run.state, at=3, by="p1")
    run.do(start(run.state, at=3, by="host"))
    assert run.state.phase is Phase.RUNNING
    _refused(ErrorCode.ALREADY_STARTED, start, run.state, at=4, by="host")


def test_the_clock_starts_at_the_start_time_or_cancels():
    run = _with_players(4)
    _refused(ErrorCode.TOO_EARLY, start, run.state, at=3599, by=None)
    run.do(start(run.state, at=3600, by=None))
    assert run.state.phase is Phase.RUNNING
    few = _with_players(3)
    few.do(start(few.state, at=3600, by=None))
    assert few.state.phase is Phase.FINISHED and few.state.finish is FinishReason.CANCELLED


def test_seeding_is_by_rating_then_by_who_joined_first():
    run = _with_players(0)
    for name, rating in [("low", 1200), ("tie1", 1600), ("top", 1900), ("tie2", 1600)]:
        run.do(join(run.state, Entrant(name, name, rating), at=1))
    run.do(start(run.state, at=2, by="host"))
    assert run.state.players == ("top", "tie1", "tie2", "low")
    assert isinstance(run.log[-2], Started)


def test_computers_fill_the_empty_places_at_the_start():
    run = _with_players(2, computer_level="casual")
    events = start(run.state, at=2, by="host", computer_rating=1400)
    computers = [e.entrant for e in events if isinstance(e, Joined)]
    assert len(computers) == 6
    assert {c.computer for c in computers} == {"casual"}
    assert all(c.rating == 1400 for c in computers)
    run.do(events)
    assert len(run.state.players) == 8 and run.state.players[:2] == ("p1", "p2")


def test_swiss_plays_the_default_number_of_rounds():
    run = full("swiss", 9)
    assert run.state.planned_rounds == 5  # ceil(log2(9)) + 1


# -- results, no-shows, withdrawals ------------------------------------------------------


def test_the_next_round_is_paired_when_the_last_match_ends():
    run = full("swiss", 4)
    first, second = run.state.current.pending()
    run.do(record_result(run.state, first.match_id, first.first, (100, 20), at=5))
    assert len(run.state.rounds) == 1
    events = record_result(run.state, second.match_id, second.second, (90, 104), at=6)
    assert [type(e).__name__ for e in events] == ["MatchResult", "RoundPaired"]
    assert events[-1].round == 2 and events[-1].pairings[0].match_id == "2.1"


def test_bad_results_are_refused():
    run = full("swiss", 4)
    pairing = run.state.current.pending()[0]
    _refused(ErrorCode.UNKNOWN_MATCH, record_result, run.state, "9.9", "p1", (1, 0), at=5)
    _refused(ErrorCode.BAD_RESULT, record_result, run.state, pairing.match_id, "p9", (1, 0), at=5)
    _refused(ErrorCode.BAD_RESULT, record_result, run.state, pairing.match_id, "p1", (-1, 0), at=5)
    _refused(ErrorCode.BAD_RESULT, no_show, run.state, pairing.match_id, [], at=5)
    _refused(ErrorCode.BAD_RESULT, no_show, run.state, pairing.match_id, ["p9"], at=5)
    run.do(record_result(run.state, pairing.match_id, pairing.first, (100, 0), at=5))
    _refused(
        ErrorCode.MATCH_DECIDED, record_result, run.state, pairing.match_id, "p1", (1, 0), at=6
    )


def test_commands_before_the_start_are_refused():
    run = _with_players(4)
    _refused(ErrorCode.NOT_STARTED, record_result, run.state, "1.1", "p1", (1, 0), at=2)
    _refused(ErrorCode.NOT_STARTED, withdraw, run.state, "p1", at=2)


def test_a_no_show_loses_by_forfeit():
    run = full("swiss", 4)
    pairing = run.state.current.pending()[0]
    (result,) = no_show(run.state, pairing.match_id, [pairing.first], at=5)
    assert result.winner == pairing.second
    assert result.reason is ResultReason.NO_SHOW and result.absent == (pairing.first,)


def test_two_no_shows_in_a_row_withdraw_a_player():
    run = full("swiss", 6)
    missing = run.state.current.pending()[0].first
    for rnd in (1, 2):
        events = ()
        for p in run.state.current.pending():
            if missing in p.players:
                events = no_show(run.state, p.match_id, [missing], at=10 * rnd)
                run.do(events)
            else:
                run.do(record_result(run.state, p.match_id, p.first, (100, 0), at=10 * rnd))
        withdrawn = [e for e in events if isinstance(e, Withdrawn)]
        if rnd == 1:
            assert withdrawn == []
    assert withdrawn == [Withdrawn(missing, WithdrawReason.NO_SHOWS, 20)]
    assert missing not in {p for pairing in run.state.current.pairings for p in pairing.players}


def test_a_played_match_resets_the_no_show_count():
    run = full("swiss", 4, rounds=3)
    player = "p1"
    for rnd, absent in ((1, True), (2, False), (3, True)):
        for p in run.state.current.pending():
            if player in p.players and absent:
                run.do(no_show(run.state, p.match_id, [player], at=rnd))
            else:
                run.do(record_result(run.state, p.match_id, p.players[-1], (1, 2), at=rnd))
    assert run.state.withdrawn == ()
    assert run.state.finish is FinishReason.COMPLETED


def test_a_withdrawal_forfeits_the_match_and_keeps_the_standings():
    run = full("swiss", 6)
    p = run.state.current.pending()[0]
    run.do(record_result(run.state, p.match_id, p.first, (100, 10), at=5))
    leaver = p.first
    other = run.state.current.pending()[0]
    run.do(withdraw(run.state, other.first, at=6))
    result = run.state.current.result_of(other.match_id)
    assert result.winner == other.second and result.reason is ResultReason.WITHDRAWAL
    _refused(ErrorCode.WITHDRAWN, withdraw, run.state, other.first, at=7)
    _refused(ErrorCode.NOT_JOINED, withdraw, run.state, "nobody", at=7)
    run.do(withdraw(run.state, leaver, at=7))  # between matches: nothing to forfeit
    for pairing in run.state.current.pending():
        run.do(record_result(run.state, pairing.match_id, pairing.first, (100, 0), at=8))
    assert run.state.current.number == 2
    paired = {x for pairing in run.state.current.pairings for x in pairing.players}
    assert leaver not in paired and other.first not in paired
    rows = {s.player: s for s in run.state.standings()}
    assert rows[leaver].match_points == 1 and rows[leaver].points_scored == 100


def test_a_double_no_show_in_a_knockout_sends_the_better_seed_on():
    run = full("knockout", 4)
    pairing = run.state.current.pending()[0]
    (result,) = no_show(run.state, pairing.match_id, list(pairing.players), at=5)
    assert result.winner == pairing.first == "p1"
    swiss = full("swiss", 4)
    p = swiss.state.current.pending()[0]
    (both,) = no_show(swiss.state, p.match_id, list(p.players), at=5)
    assert both.winner is None


def test_a_refused_command_changes_nothing():
    run = full("swiss", 4)
    before = run.state
    with pytest.raises(TournamentError):
        record_result(run.state, "1.1", "p9", (1, 0), at=5)
    assert run.state is before and run.state == before
