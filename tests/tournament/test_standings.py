"""Swiss tie-breaks against hand-worked examples (docs/tournaments.md, tie-breaks)."""

from __future__ import annotations

from ginrummy.tournament.games import Game
from ginrummy.tournament.standings import standings


def _table(seeds, games):
    return [
        (s.player, s.match_points, s.buchholz, s.sonneborn_berger, s.head_to_head, s.points_scored)
        for s in standings(seeds, games)
    ]


def test_the_worked_example_of_the_docs():
    # Six players, three rounds (the first player named dealt first; points in brackets):
    # round 1: a-d 1-0 (100:60), b-e 1-0 (100:70), c-f 1-0 (100:90)
    # round 2: b-c 1-0 (100:80), f-a 1-0 (100:95), e-d 0-1 (50:100)
    # round 3: a-b 1-0 (100:30), c-e 1-0 (100:40), d-f 0-1 (20:100)
    games = [
        Game("a", "d", "a", 100, 60),
        Game("b", "e", "b", 100, 70),
        Game("c", "f", "c", 100, 90),
        Game("b", "c", "b", 100, 80),
        Game("f", "a", "f", 100, 95),
        Game("e", "d", "d", 50, 100),
        Game("a", "b", "a", 100, 30),
        Game("c", "e", "c", 100, 40),
        Game("d", "f", "f", 20, 100),
    ]
    # match points: a, b, c, f 2; d 1; e 0
    # Buchholz: a = d1 + f2 + b2 = 5, f = c2 + a2 + d1 = 5, b = e0 + c2 + a2 = 4,
    #           c = f2 + b2 + e0 = 4, d = a2 + e0 + f2 = 4, e = b2 + d1 + c2 = 5
    # Sonneborn-Berger: a = d1 + b2 = 3, f = a2 + d1 = 3, b = e0 + c2 = 2, c = f2 + e0 = 2
    # a and f tie on all three: f beat a (head-to-head) though a scored more (295 > 290);
    # b and c tie too: b beat c, though c scored more (280 > 230)
    assert _table("abcdef", games) == [
        ("f", 2, 5, 3, 1, 290),
        ("a", 2, 5, 3, 0, 295),
        ("b", 2, 4, 2, 1, 230),
        ("c", 2, 4, 2, 0, 280),
        ("d", 1, 4, 0, 0, 180),
        ("e", 0, 5, 0, 0, 160),
    ]
    assert [s.rank for s in standings("abcdef", games)] == [1, 2, 3, 4, 5, 6]


def test_sonneborn_berger_comes_before_head_to_head():
    # a round robin of four: a beats b and c, b beats c and d, c beats d, d beats a
    games = [
        Game("a", "b", "a"),
        Game("c", "d", "c"),
        Game("a", "c", "a"),
        Game("b", "d", "b"),
        Game("d", "a", "d"),
        Game("b", "c", "b"),
    ]
    # a and b: 2 points, Buchholz 4 each; SB a = b2 + c1 = 3, b = c1 + d1 = 2
    # c and d: 1 point, Buchholz 5 each; SB c = d1 = 1, d = a2 = 2: d ranks above c
    # although c beat d
    assert _table("abcd", games) == [
        ("a", 2, 4, 3, 0, 0),
        ("b", 2, 4, 2, 0, 0),
        ("d", 1, 5, 2, 0, 0),
        ("c", 1, 5, 1, 0, 0),
    ]


def test_points_scored_then_the_seed_break_a_circle():
    # a beats b, b beats c, c beats a, and all three beat d: a, b and c have 2 points,
    # Buchholz 4, Sonneborn-Berger 2 and one win among themselves each
    games = [
        Game("a", "b", "a", 100, 90),
        Game("b", "c", "b", 100, 80),
        Game("c", "a", "c", 100, 70),
        Game("a", "d", "a", 100, 0),
        Game("b", "d", "b", 100, 0),
        Game("c", "d", "c", 100, 0),
    ]
    # points scored: a 270, b 290, c 280
    assert [row[0] for row in _table("abcd", games)] == ["b", "c", "a", "d"]
    assert {row[3:5] for row in _table("abcd", games)[:3]} == {(2, 1)}
    # the same games without points: the seed decides
    pointless = [Game(g.first, g.second, g.winner) for g in games]
    assert [row[0] for row in _table("cabd", pointless)] == ["c", "a", "b", "d"]


def test_a_bye_scores_a_win_but_adds_no_buchholz():
    games = [Game("a", "b", "a"), Game("c", None, "c"), Game("a", "c", "c"), Game("b", None, "b")]
    assert _table("abc", games) == [
        # c: bye 1 + beat a; Buchholz a1; SB a1
        ("c", 2, 1, 1, 0, 0),
        # a and b tie on 1 point: a's Buchholz b1 + c2 = 3, b's a1 = 1
        ("a", 1, 3, 1, 0, 0),
        ("b", 1, 1, 0, 0, 0),
    ]


def test_a_double_no_show_gives_both_players_a_loss():
    games = [Game("a", "b", None), Game("c", "d", "c")]
    rows = {row[0]: row[1:3] for row in _table("abcd", games)}
    assert rows == {"c": (1, 0), "a": (0, 0), "b": (0, 0), "d": (0, 1)}
