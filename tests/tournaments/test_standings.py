"""Scores and the tie-breaks in their published order, as worked examples."""

from __future__ import annotations

from fractions import Fraction as F

from games.tournaments.standings import (
    MULTI_PLAYER_ORDER,
    TWO_PLAYER_ORDER,
    Bye,
    Scoring,
    Table,
    points,
    standings,
)


def test_points_by_place_share_ties():
    four = Scoring.by_table(4)
    assert four.by_place == (6, 4, 2, 0) and four.bye == 3
    # Two players sharing second place share the points of second and third: (4 + 2) / 2.
    assert four.table_points(Table(1, ("a", "b", "c", "d"), (1, 2, 2, 4))) == {"a": 6, "b": 3, "c": 3, "d": 0}
    # At a short table the last seat still scores last.
    assert four.table_points(Table(1, ("a", "b", "c"), (1, 2, 3))) == {"a": 6, "b": 4, "c": 0}
    two = Scoring.two_player()
    assert two.table_points(Table(1, ("a", "b"), (1, 1))) == {"a": F(1, 2), "b": F(1, 2)}
    assert points(["a", "b"], [Bye(1, "a")], two) == {"a": 1, "b": 0}


def test_two_player_order_points_buchholz_sonneborn_berger_direct_encounter():
    assert TWO_PLAYER_ORDER == ("points", "buchholz", "sonneborn_berger", "direct_encounter", "lot")
    players = ["A", "B", "C", "D", "E", "F"]
    history = [
        Table(1, ("D", "A"), (1, 1)),
        Table(1, ("E", "B"), (1, 2)),
        Table(1, ("C", "F"), (1, 2)),
        Table(2, ("A", "C"), (1, 2)),
        Table(2, ("D", "E"), (1, 2)),
        Table(2, ("B", "F"), (1, 1)),
        Table(3, ("B", "A"), (1, 2)),
        Table(3, ("C", "D"), (1, 1)),
        Table(3, ("F", "E"), (1, 2)),
    ]
    table = standings(players, history, Scoring.two_player(), "seed")
    assert [s.player for s in table] == ["D", "A", "C", "B", "F", "E"]
    by = {s.player: s for s in table}
    # D: a draw with A, a win over E, a draw with C: 2 points, alone at the top.
    assert by["D"].points == 2
    # A, C, B and F have 1 1/2. Buchholz (the opponents' points):
    #   A met D 2 + C 1 1/2 + B 1 1/2 = 5      C met F 1 1/2 + A 1 1/2 + D 2 = 5
    #   B met E 1 + F 1 1/2 + A 1 1/2 = 4      F met C 1 1/2 + B 1 1/2 + E 1 = 4
    assert [by[p].tiebreaks["buchholz"] for p in "ACBF"] == [5, 5, 4, 4]
    # Sonneborn-Berger (beaten opponents' points, half of those drawn):
    #   A: D 2 / 2 + C 1 1/2 = 5/2      C: F 1 1/2 + D 2 / 2 = 5/2   (still tied with A)
    #   B: F 1 1/2 / 2 + A 1 1/2 = 9/4  F: B 1 1/2 / 2 + E 1 = 7/4   (B before F)
    assert [by[p].tiebreaks["sonneborn_berger"] for p in "ACBF"] == [F(5, 2), F(5, 2), F(9, 4), F(7, 4)]
    # Direct encounter parts A and C: A beat C in round 2.
    assert by["A"].tiebreaks["direct_encounter"] == 1 and by["C"].tiebreaks["direct_encounter"] == 0


def test_direct_encounter_waits_until_all_the_tied_have_met():
    # A and B are tied on everything and never met: the lot parts them, the same way every time.
    history = [Table(1, ("A", "C"), (1, 2)), Table(1, ("B", "D"), (1, 2))]
    once = standings(["A", "B", "C", "D"], history, Scoring.two_player(), "seed")
    assert {s.tiebreaks["direct_encounter"] for s in once} == {0}
    assert once == standings(["A", "B", "C", "D"], history, Scoring.two_player(), "seed")


def test_multi_player_order_points_opponents_points_average_place():
    assert MULTI_PLAYER_ORDER == ("points", "opponents_points", "average_place", "lot")
    three = Scoring.by_table(3)  # 4 / 2 / 0
    players = ["A", "B", "C", "D", "E", "F", "G"]
    history = [
        Table(1, ("A", "B", "C"), (1, 2, 3)),
        Table(1, ("D", "E", "F"), (1, 2, 3)),
        Bye(1, "G"),
        Table(2, ("A", "D", "E"), (2, 1, 3)),
        Table(2, ("B", "C", "G"), (1, 3, 2)),
        Bye(2, "F"),
    ]
    table = standings(players, history, three, "seed", two_player=False)
    by = {s.player: s for s in table}
    # Points: D 4 + 4 = 8; A 4 + 2 = 6; B 2 + 4 = 6; G bye 2 + 2 = 4; F 0 + bye 2 = 2; E 2 + 0 = 2; C 0.
    assert {p: by[p].points for p in players} == {"A": 6, "B": 6, "C": 0, "D": 8, "E": 2, "F": 2, "G": 4}
    # A and B on 6: A sat with B 6 + C 0, then D 8 + E 2: 16; B with A 6 + C 0, then C 0 + G 4: 10.
    assert by["A"].tiebreaks["opponents_points"] == 16 and by["B"].tiebreaks["opponents_points"] == 10
    # E and F on 2: E sat with D 8 + F 2, then A 6 + D 8: 24; F with D 8 + E 2 (a bye adds nobody): 10.
    assert by["E"].tiebreaks["opponents_points"] == 24 and by["F"].tiebreaks["opponents_points"] == 10
    assert [s.player for s in table] == ["D", "A", "B", "G", "E", "F", "C"]


def test_average_place_parts_equal_opponents():
    two_tables = Scoring.by_table(4)
    history = [Table(1, ("A", "B", "C", "D"), (1, 2, 2, 4)), Table(2, ("A", "B", "C", "D"), (4, 2, 2, 1))]
    # A: 6 + 0, B: 3 + 3, C: 3 + 3, D: 0 + 6; everyone met the same three. B and C average 2nd,
    # A and D 2 1/2: B and C come first (and the lot parts the pairs).
    table = standings(["A", "B", "C", "D"], history, two_tables, "seed", two_player=False)
    assert {s.player for s in table[:2]} == {"B", "C"}
    assert table[0].tiebreaks["average_place"] == -2 and table[3].tiebreaks["average_place"] == F(-5, 2)
