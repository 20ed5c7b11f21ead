"""XoBo on the host (never on the device): its piece set and the hands of its moves, for the
simulator, the test kits and the tools (docs/games.md, "The host module").

Usage::

    >>> from xobo.games.xobo import host
    >>> from xobo.games.xobo.rules.position import Position
    >>> host.PIECES                           # the set's cubes (B1), counted by the page
    36
    >>> pos = Position()
    >>> m = pos.parse_move("e5")
    >>> for what, cell, n in host.hands(pos, m, order="late"):
    ...     print(what, cell, n)              # "put" a cube, "lift" a stack, "take" n cubes off
    put 40 1
"""

from xobo.games.xobo.rules.geometry import ray as ray_of
from xobo.games.xobo.rules.moves import (
    PLACE,
    REGROUP,
    move_cell,
    move_count,
    move_dir,
    move_kind,
)

PIECES = 36  # a XoBo set has 36 cubes (B1): what is neither on the board nor in a hand is boxed
PIECE_WORD = "cubes"
CELL_HOLDS = None  # a stack has no height limit (B6)
LADDER = ((), 200, (30,), 2)  # make bench: its strength ladder against UCT
# the long strength matches behind docs/ai.md (xobo_host.bench.strength): (level, opponent,
# games, seed, max plies, what the match rates)
STRENGTH = (
    ("pico", "uct:20000", 66, 1, 200, "XoBo's default level, the board's computer and hints"),
    ("strong", "uct:20000", 66, 1, 200, "XoBo's desktop level (too slow for the Pico)"),
    ("greedy", "random", 200, 1000, 200, "XoBo's greedy level against random"),
    ("beginner", "greedy", 200, 2000, 200, "XoBo's beginner level against greedy"),
    ("strong", "greedy", 40, 5000, 200, "XoBo's strong level against greedy"),
)
# make bench's kernels of its rules and its computer, run under both runtimes (xobo_host.bench.run,
# xobo_host.bench.ai)
RULES_BENCH = "xobo.games.xobo.rules.bench"
AI_BENCH = "xobo.games.xobo.ai.bench"  # its POSITIONS: the device check's hint sweep too
# make bench's board cycle (xobo.runtime.bench): a stack of 4 on e5 lifted and spread to d4,
# and a position whose cells pulse (Voina: the LEDs rewritten often)
BOARD_BENCH = (
    "........./........./........./........./....4..../...1...../........./........./"
    "......... ns 31 0 0",
    (("lift", "e5"), ("put", "d4")),
    "/".join(["....1...."] * 4 + ["........."] + ["....1...."] * 4) + " ew 28 0 0")
# the device check's middle-game position (ply 20, a stack of 3 on e6), NS to move, reached by
# the hint engine: its hint and the computer's move with a switch closed during the search
CHECK_MIDDLE = ("...1...../...1...../....1..../....3..../.....1.../...1...../.......1./"
                "......111/11..11111 ns 17 0 0")
LESSON_SHOT = (1, "pico_gpio")  # docs/learn-xobo.png: the first lesson
FLOOR_SHOT = ("e5", "d4", "e4")  # docs/cafe-floor.png: its opening, the side to move's edges lit
# its own light codes (xobo.runtime.colours) without a game's prefix: the Voina and regroup
# cells, the loser's edges, the lifted stack (docs/rules/xobo.md): the page's legend
LIGHT_NAMES = ("VOINA", "REGROUP", "LOSER", "SOURCE")
PLAYER_LABELS = ("North–South", "East–West")  # ns, ew in the legend's and the page's words
# the simulator page's words: how a game ends (E2-E4), the notation's rules, the reserves
RESULT_WORDS = {
    "blocus": "{loser} connected both pairs of edges: blocus (E2)",
    "connected-opponent": "{loser} connected {winner}'s edges (E2)",
    "connected": "connected its edges (E3)",
    "exhaustion": "by exhaustion: {loser} cannot play on (E4)",
}
NOTATION_RULES = ("N2", "N3")
RESERVES = True


def hands(pos, m, order="late"):
    """Move ``m`` of ``pos`` as a player's hands do it: ``[(what, cell, n)]`` with ``what``
    ``"put"`` (one cube onto ``cell``), ``"lift"`` (every cube of ``cell`` into the hand) or
    ``"take"`` (``n`` cubes off ``cell``). A place: a cube on the cell. A regroup (M2): each
    other cell's cube lifted onto the stack cell, and when the switches cannot tell which end the
    stack went to (a touch cell), the stack lifted and put back. A spread (M3): ``order``
    "late": lift the stack, a cube on each cell, the pairs off at the end; "early": each pair
    off as it forms; "cube": the stack's cubes taken one at a time (its switch stays closed
    until the last)."""
    kind = move_kind(m)
    c = move_cell(m)
    n = move_count(m)
    if kind == PLACE:
        return [("put", c, 1)]
    ray = ray_of(c, move_dir(m))
    out = []
    if kind == REGROUP:
        for k in range(n - 1):
            out += [("lift", ray[k], 0), ("put", c, 1)]  # the cell empties (M2)
        if pos.touch_cell(m) >= 0:
            out += [("lift", c, 0)] + [("put", c, 1)] * n
        return out
    heights = pos.heights
    pairs = []
    if order != "cube":
        out.append(("lift", c, 0))
    for k in range(n):
        t = ray[k]
        if order == "cube":
            out.append(("take", c, 1))
        out.append(("put", t, 1))
        if heights[t] == 1:  # a pair forms: captured (M3)
            if order == "late":
                pairs.append(t)
            else:
                out.append(("take", t, 2))
    return out + [("take", t, 2) for t in pairs]


def record_settings(rec):
    """The settings an N2 record was played with: its variant and first player (N2)."""
    return {"variant": rec.variant, "first": ("ns", "ew")[rec.first]}


def piece_set(game):
    """The set's pieces for hardware/pieces.py: 36 natural cubes nobody owns (B5), stacked as
    high as a cell's reach lets a stack grow (M3). ``(highest stack, pieces, why)``."""
    from xobo.games.xobo.rules.geometry import maxreach
    from xobo.games.xobo.rules.position import TOTAL_CUBES

    w, h = game.area(game.DEFAULTS)
    top = max(maxreach(c) for c in range(w * h))  # M3: a stack of h needs a reach of h
    return top, [{"owner": "nobody (B5: the common reserve)", "rgb": None,
                  "count": TOTAL_CUBES, "shape": "cube"}], \
        "36 identical cubes, nobody owns them (B5); stacks up to %d (M3: a stack needs a " \
        "reach as long as its height)" % top
