"""Move vocabulary: give and rank, their validation and their enumeration."""

import itertools

import pytest
from jsonschema import Draft202012Validator

from games.engines.base import IllegalMove
from games.engines.pickpic import moves as mv
from games.engines.pickpic.moves import check_give, check_rank, give_moves, rank_moves


@pytest.mark.parametrize("players,hand,each", [(3, 4, 2), (4, 3, 1), (5, 4, 1)])
def test_give_cards_hand_is_players_minus_one_except_three_players(players, hand, each):
    """Give cards: "a secret hand of cards equal to the number of players minus one ... each
    player draws 3 cards in a 4-player game"; 3-player game: "draws 4 cards ... gives 2 cards to
    each of the other players"."""
    assert mv.hand_size(players) == hand
    assert mv.per_seat(players) == each


def test_legal_gives_five_players_are_the_24_ways_to_hand_4_cards_to_4_seats():
    found = give_moves(5, 2, [9, 8, 7, 6])
    assert len(found) == 24
    assert len({repr(m) for m in found}) == 24
    for m in found:
        assert set(m["gifts"]) == {"0", "1", "3", "4"}
        assert sorted(c for cs in m["gifts"].values() for c in cs) == [6, 7, 8, 9]


def test_legal_gives_three_players_are_the_6_ways_to_split_4_cards_2_and_2():
    """3-player game: "gives 2 cards to each of the other players"."""
    found = give_moves(3, 0, [4, 3, 2, 1])
    assert len(found) == 6
    assert {tuple(m["gifts"]["1"]) for m in found} == set(itertools.combinations([1, 2, 3, 4], 2))
    for m in found:
        assert len(m["gifts"]["1"]) == len(m["gifts"]["2"]) == 2


def test_legal_gives_four_players():
    assert len(give_moves(4, 3, [5, 6, 7])) == 6


@pytest.mark.parametrize("players,seat,hand", [(3, 1, [1, 2, 3, 4]), (4, 0, [7, 8, 9]), (5, 4, [10, 11, 12, 13])])
def test_every_listed_give_is_accepted(players, seat, hand):
    for m in give_moves(players, seat, hand):
        assert check_give(m, players, seat, hand) == m["gifts"]


def test_legal_ranks_are_every_ordering_of_the_stack():
    assert len(rank_moves([1, 2, 3, 4, 5])) == 120
    assert len(rank_moves([1, 2, 3, 4])) == 24
    for m in rank_moves([3, 1, 2, 4]):
        assert check_rank(m, [1, 2, 3, 4], False)["order"] == m["order"]


def test_every_legal_move_validates_against_the_published_schema():
    validator = Draft202012Validator(mv.move_schema())
    samples = give_moves(5, 0, [1, 2, 3, 4]) + give_moves(3, 2, [1, 2, 3, 4])
    samples += rank_moves([1, 2, 3, 4, 5])[:10] + rank_moves([6, 7, 8, 9])[:5]
    samples.append({"type": "rank", "order": [1, 2, 3, 4], "comments": {"2": "x" * 140}})
    for m in samples:
        assert not list(validator.iter_errors(m)), m
    for variant in mv.move_schema()["oneOf"]:
        assert not list(validator.iter_errors(variant["example"]))


def test_give_order_within_a_list_does_not_matter():
    gifts = check_give({"type": "give", "gifts": {"2": [4, 1], "1": [3, 2]}}, 3, 0, [1, 2, 3, 4])
    assert gifts == {"1": [2, 3], "2": [1, 4]}


HAND4 = [11, 12, 13]  # seat 0 of 4 players


@pytest.mark.parametrize(
    "gifts,why",
    [
        (None, "gifts"),
        ([11, 12, 13], "gifts"),
        ({"1": [11], "2": [12]}, "exactly the other seats"),
        ({"1": [11], "2": [12], "3": [13], "0": []}, "exactly the other seats"),
        ({"1": [11], "2": [12], "4": [13]}, "exactly the other seats"),
        ({"01": [11], "2": [12], "3": [13]}, "exactly the other seats"),
        ({"1": 11, "2": [12], "3": [13]}, "list of card ids"),
        ({"1": [11, 12], "2": [], "3": [13]}, "exactly 1 card"),
        ({"1": ["11"], "2": [12], "3": [13]}, "card ids"),
        ({"1": [True], "2": [12], "3": [13]}, "card ids"),
        ({"1": [11.0], "2": [12], "3": [13]}, "card ids"),
        ({"1": [999], "2": [12], "3": [13]}, "card ids"),
        ({"1": [11], "2": [11], "3": [13]}, "only once"),
        ({"1": [11], "2": [12], "3": [14]}, "not in your hand"),
        ({"1": [None], "2": [12], "3": [13]}, "card ids"),
    ],
)
def test_bad_gives_are_illegal_moves(gifts, why):
    """Give cards: "give each other player exactly one card from their hand"."""
    move = {"type": "give"} if gifts is None else {"type": "give", "gifts": gifts}
    with pytest.raises(IllegalMove, match=why):
        check_give(move, 4, 0, HAND4)


def test_give_with_extra_fields_is_illegal():
    with pytest.raises(IllegalMove, match="unknown field"):
        check_give({"type": "give", "gifts": {"1": [11], "2": [12], "3": [13]}, "x": 1}, 4, 0, HAND4)


def test_three_player_give_must_be_two_and_two():
    """3-player game: "gives 2 cards to each of the other players"."""
    with pytest.raises(IllegalMove, match="exactly 2 card"):
        check_give({"type": "give", "gifts": {"1": [1], "2": [2, 3, 4]}}, 3, 0, [1, 2, 3, 4])


STACK = [5, 6, 7, 8]


@pytest.mark.parametrize(
    "move,why",
    [
        ({"type": "rank"}, "list of card ids"),
        ({"type": "rank", "order": "5678"}, "list of card ids"),
        ({"type": "rank", "order": [5, 6, 7]}, "exactly the cards"),
        ({"type": "rank", "order": [5, 6, 7, 8, 9]}, "exactly the cards"),
        ({"type": "rank", "order": [5, 6, 7, 7]}, "only once"),
        ({"type": "rank", "order": [5, 6, 7, 9]}, "exactly the cards"),
        ({"type": "rank", "order": [5, 6, 7, "8"]}, "card ids"),
        ({"type": "rank", "order": [5, 6, 7, 8], "extra": True}, "unknown field"),
        ({"type": "rank", "order": [5, 6, 7, 8], "comments": {"5": "nice"}}, "variant"),
    ],
)
def test_bad_rankings_are_illegal_moves(move, why):
    """Rank cards: "look at the cards in your stack and rank them" - all of them, once each."""
    with pytest.raises(IllegalMove, match=why):
        check_rank(move, STACK, comments_allowed=False)


def test_empty_comments_are_accepted_without_the_variant():
    ranking = check_rank({"type": "rank", "order": [8, 7, 6, 5], "comments": {}}, STACK, False)
    assert ranking == {"order": [8, 7, 6, 5], "comments": {}}


@pytest.mark.parametrize(
    "comments,why",
    [
        ([], "comments"),
        ({"9": "not mine"}, "not a card of your stack"),
        ({"05": "padded id"}, "not a card of your stack"),
        ({"5": ""}, "non-empty"),
        ({"5": "   "}, "non-empty"),
        ({"5": 5}, "non-empty"),
        ({"5": None}, "non-empty"),
        ({"5": "x" * 141}, "longer than 140"),
        ({"5": "line\nbreak"}, "control"),
    ],
)
def test_variant_bad_comments_are_illegal_moves(comments, why):
    """Variants: "giving short comments" - short text (at most 140 characters) on own cards."""
    with pytest.raises(IllegalMove, match=why):
        check_rank({"type": "rank", "order": [5, 6, 7, 8], "comments": comments}, STACK, True)


def test_variant_comments_up_to_140_characters_are_kept():
    move = {"type": "rank", "order": [5, 6, 7, 8], "comments": {"7": "é" * 140, "5": "same sky"}}
    assert check_rank(move, STACK, True)["comments"] == {"5": "same sky", "7": "é" * 140}


def test_communication_no_hints_only_give_and_rank_moves_exist():
    """Communication: "It is not allowed to give any hints what-so-ever to the other players": the
    only moves are give and rank, and a give carries no free text."""
    assert [v["properties"]["type"]["const"] for v in mv.move_schema()["oneOf"]] == ["give", "rank"]
    with pytest.raises(IllegalMove, match="unknown field"):
        check_give(
            {"type": "give", "gifts": {"1": [11], "2": [12], "3": [13]}, "note": "the blue one is for you"}, 4, 0, HAND4
        )
