# dual-runtime
"""Helpers for the Chain Reaction tests: positions written as a few named squares."""

from xobo.games.chain_reaction.rules import Position, parse_cell

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
