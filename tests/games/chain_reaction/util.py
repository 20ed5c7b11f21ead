# dual-runtime
"""Helpers for the Chain Reaction tests: positions written as a few named squares."""

from xobo.games.chain_reaction.rules import Position, new_move_buffer, parse_cell

START = "..ddd../.ddddd./..ddd../......./..lll../.lllll./..lll.. l 0 0 0 18"
FILES = "bcdefgh"


def cn2(squares, side="l", seg=0, light=0, dark=0, target=18, field=7, extra=""):
    """A CN2 string with ``squares`` ({"d4": "[dl]", "e5": "l"}) placed and the other pieces
    filling up to 11 a side: Light from b2 along the ranks upward, Dark from h<top> downward,
    on squares not named (the tests keep their action away from those corners)."""
    grid = {}
    for name, v in squares.items():
        grid[name] = v
    counts = {"l": 0, "d": 0}
    for v in grid.values():
        for ch in v:
            if ch in counts:
                counts[ch] += 1
    light_fill = [FILES[f] + str(r) for r in range(2, field + 2) for f in range(7)]
    dark_fill = [FILES[6 - f] + str(r) for r in range(field + 1, 1, -1) for f in range(7)]
    for colour, fill in (("l", light_fill), ("d", dark_fill)):
        for name in fill:
            if counts[colour] >= 11:
                break
            if name not in grid:
                grid[name] = colour
                counts[colour] += 1
    rows = []
    for r in range(field + 1, 1, -1):
        rows.append("".join(grid.get(FILES[f] + str(r), ".") for f in range(7)))
    s = "%s %s %d %d %d %d" % ("/".join(rows), side, seg, light, dark, target)
    return s + (" " + extra if extra else "")


def pos_of(squares, blockade=False, **kw):
    return Position.parse(cn2(squares, **kw), None, blockade)


def cell(pos, name):
    return parse_cell(name, pos.height)


def moves_text(pos):
    return sorted(pos.move_text(m) for m in pos.legal_actions())


class Lcg:
    """A tiny deterministic generator: the same games under CPython and MicroPython."""

    def __init__(self, seed):
        self.x = (seed * 2654435761 + 12345) & 0x7FFFFFFF

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 8) % n


def check_invariants(pos):
    counts = [0, 0]
    towers = 0
    for c in range(pos.n_cells):
        if pos.top[c]:
            counts[pos.top[c] - 1] += 1
        if pos.bot[c]:
            counts[pos.bot[c] - 1] += 1
            towers += 1
            assert pos.top[c] and pos.tower == c
        assert pos.heights[c] == (1 if pos.top[c] else 0) + (1 if pos.bot[c] else 0)
    assert counts == [11, 11], counts  # CB4
    assert towers <= 1  # CB4
    if towers == 0:
        assert pos.tower == -1 and pos.seg == 0


def play_game(seed, limit=400, check=True):
    lcg = Lcg(seed)
    pos = Position(6 + lcg.below(2), 12 + lcg.below(13), lcg.below(2), lcg.below(2) == 1)
    buf = new_move_buffer()
    lifted = bytearray(4)
    added = bytearray(4)
    occ = bytearray(pos.n_cells)
    for _ in range(limit):
        n = pos.legal_moves(buf)
        if n == 0:
            assert pos.is_terminal()
            break
        m = buf[lcg.below(n)]
        if check:
            before = pos.to_string()
            side = pos.side
            assert Position.parse(before, None, pos.blockade).to_string() == before  # CN2
            assert pos.parse_move(pos.move_text(m)) == m  # CN1
            pos.occupancy(occ)
            nl, na = pos.footprint(m, lifted, added)
            old = bytes(occ)
        pos.apply(m)
        if check:
            pos.occupancy(occ)
            changed = [c for c in range(pos.n_cells) if occ[c] != old[c]]
            want = sorted([lifted[i] for i in range(nl)] + [added[i] for i in range(na)])
            assert changed == want, (before, pos.move_text(m))
            check_invariants(pos)
            if pos.side != side:  # CE1: the turn that ended leaves no tower of the mover's
                assert pos.tower < 0 or pos.top[pos.tower] != side + 1
            pos.undo()
            assert pos.to_string() == before
            pos.apply(m)
    return pos
