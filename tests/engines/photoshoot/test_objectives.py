"""Photo Objective cards (a reconstruction): 50 of them, each reachable under every set of
orange effects a team can hold together, proven by an exhaustive search of the square."""

from collections import deque
from itertools import permutations

import pytest

from games.engines.photoshoot import effects as fx
from games.engines.photoshoot import grid as g
from games.engines.photoshoot import objectives as obj
from games.engines.photoshoot.characters import LETTERS, NAMES

CODE = {name: letter for letter, name in LETTERS.items()}


def test_components_50_photo_objective_cards_each_a_partial_arrangement():
    assert obj.COUNT == 50 == len(set(obj.CARDS))
    for card in range(obj.COUNT):
        shown = [c for c in obj.cells(card) if c is not None]
        assert 3 <= len(shown) <= 5 and len(set(shown)) == len(shown)
        assert set(shown) <= set(NAMES)


def test_a_photo_matches_when_every_character_shown_is_in_its_cell():
    card = obj.CARDS.index(".E.P....O")
    grid = ["Max", "Edgar", "Jo", "Pam", "Alice", "Chloé", "Arthur", "James", "Olivia"]
    assert obj.matches(grid, card) and obj.placed(grid, card) == 3
    assert not obj.matches(g.swap(grid, 0, 1), card) and obj.placed(g.swap(grid, 0, 1), card) == 2


def movement_table(effects):
    """The engine's own rules (effects.swap_fault, push_fault) as a lookup by cells and letters:
    swap_fault reads only the two cells swapped."""
    swaps = []
    for a, b in fx.base_swaps():
        ok = set()
        for x in NAMES:
            for y in NAMES:
                if x != y:
                    fake = ["Pam"] * 9
                    fake[a], fake[b] = x, y
                    if fx.swap_fault(fake, a, b, effects) is None:
                        ok.add(CODE[x] + CODE[y])
        swaps.append((a, b, ok))
    pushes = []
    if "jo" in effects:
        for cell in g.CELLS:
            for direction in g.DIRECTIONS:
                fake = ["Pam"] * 9
                fake[cell] = "Jo"
                if fx.push_fault(fake, cell, direction, effects) is None:
                    order = g.line(cell, direction)
                    perm = list(range(9))
                    for i, target in enumerate(order):
                        perm[target] = order[i - 1]
                    pushes.append((cell, perm))
    return swaps, pushes


def validity(effects):
    """effects.placement_fault as a lookup by the cells of Arthur, Max, James and Olivia."""
    bad = {}
    for pair, card in (("TM", "arthur"), ("FO", "james")):
        if card in effects:
            bad[pair] = set()
            for x in g.CELLS:
                for y in g.CELLS:
                    if x != y:
                        fake = [n for n in NAMES if n not in (LETTERS[pair[0]], LETTERS[pair[1]])]
                        fake.insert(min(x, y), LETTERS[pair[0]] if x < y else LETTERS[pair[1]])
                        fake.insert(max(x, y), LETTERS[pair[1]] if x < y else LETTERS[pair[0]])
                        if fx.placement_fault(fake, {card}) is not None:
                            bad[pair].add((x, y))

    def ok(state: str) -> bool:
        return all((state.index(p[0]), state.index(p[1])) not in cells for p, cells in bad.items())

    return ok


SQUARE = "".join(LETTERS)  # the nine characters' letters, a square's alphabet
HEX = str.maketrans(SQUARE, "012345678")


def packed(square: str) -> int:
    """A square as an integer, a hexadecimal digit per cell (cell 0 the most significant): a
    movement is then a few shifts and masks, not a new string (the search over all 9! squares
    runs in half the time)."""
    return int(square.translate(HEX), 16)


def shift(cell: int) -> int:
    return 4 * (8 - cell)


def component(start: int, effects, valid: set[int]) -> set[int]:
    """The valid squares (packed) reached from `start` by correct movements."""
    swaps, pushes = movement_table(effects)
    swaps = [(shift(a), shift(b), {packed(pair[0]) << 4 | packed(pair[1]) for pair in ok}) for a, b, ok in swaps]
    jo = packed("J")
    # A push moves a line's three cells one step along it: new[order[i]] = old[order[i - 1]].
    lines = []
    for cell, perm in pushes:
        moved = [i for i in range(9) if perm[i] != i]
        mask = sum(15 << shift(i) for i in moved)
        lines.append((shift(cell), ~mask, [(shift(perm[i]), shift(i)) for i in moved]))
    unseen = valid - {start}
    queue = deque([start])
    while queue:
        square = queue.popleft()
        for a, b, ok in swaps:
            x, y = (square >> a) & 15, (square >> b) & 15
            if (x << 4 | y) in ok:
                after = square ^ ((x ^ y) << a) ^ ((x ^ y) << b)
                if after in unseen:
                    unseen.discard(after)
                    queue.append(after)
        for at, keep, moves in lines:
            if (square >> at) & 15 == jo:
                after = square & keep
                for source, target in moves:
                    after |= ((square >> source) & 15) << target
                if after in unseen:
                    unseen.discard(after)
                    queue.append(after)
    return valid - unseen


@pytest.mark.parametrize("effects", fx.orange_combinations(), ids=lambda e: "+".join(sorted(e)) or "none")
def test_every_objective_is_reachable_from_every_square_under_every_orange_combination(effects):
    """Every valid square (one an Effect leaves possible, after the start-of-round mending)
    reaches every objective with correct actions: the squares form a single component of the
    graph of correct movements (all movements are reversible), and every objective has a
    square in it."""
    squares = ["".join(p) for p in permutations(SQUARE)]
    ok = validity(effects)
    allowed = {s for s in squares if ok(s)}
    valid = {packed(s) for s in allowed}
    assert component(packed(min(allowed)), effects, valid) == valid
    for card in range(obj.COUNT):
        pattern = obj.CARDS[card]
        assert any(all(p == "." or p == c for p, c in zip(pattern, s)) for s in allowed), card
