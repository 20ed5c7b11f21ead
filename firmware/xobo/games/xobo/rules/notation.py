"""Move notation (N1) and the reasons a move is not legal.

``e5`` places a cube; ``a4->c4`` regroups a4, b4, c4 onto c4 (far end first); ``g6xf5``
spreads the stack on g6 towards f5 (and on, in that direction). A move that declares Voina is
written with `` (v)`` after it in records; :func:`parse_move` accepts and ignores that mark.

Usage::

    >>> from xobo.games.xobo.rules.notation import parse_move, format_move
    >>> from xobo.games.xobo.rules.position import Position
    >>> pos = Position()
    >>> m = parse_move("e5", pos)       # MoveError says what is wrong: "g6xf5: g6 holds no stack"
    >>> format_move(m)
    'e5'
"""

from xobo.errors import MoveError
from xobo.games.xobo.rules.geometry import (
    MAXREACH,
    N_CELLS,
    RAY_CELLS,
    REACH,
    cell_name,
    direction_between,
    parse_cell,
)
from xobo.games.xobo.rules.moves import (
    PLACE,
    REGROUP,
    make_place,
    make_regroup,
    make_spread,
    move_cell,
    move_count,
    move_dir,
    move_kind,
)

_DIR_WORDS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")


def format_move(m):
    """The N1 notation of move m (without the Voina mark)."""
    kind = move_kind(m)
    c = move_cell(m)
    if kind == PLACE:
        return cell_name(c)
    ro = (c * 8 + move_dir(m)) * 8
    if kind == REGROUP:
        return cell_name(RAY_CELLS[ro + move_count(m) - 2]) + "->" + cell_name(c)
    return cell_name(c) + "x" + cell_name(RAY_CELLS[ro])


def strip_voina_mark(text):
    """'e5 (v)' -> ('e5', True); 'e5' -> ('e5', False)."""
    t = text.strip()
    if t.endswith("(v)"):
        return t[:-3].strip(), True
    return t, False


def parse_move(text, pos):
    """Parse N1 notation into a move legal in ``pos``; MoveError says what is wrong."""
    t, _ = strip_voina_mark(text)
    if not t:
        raise MoveError("empty move: write a cell (e5), a regroup (a4->c4) or a spread (g6xf5)")
    if "->" in t:
        a, _, b = t.partition("->")
        far = _cell(a.strip(), t)
        stack = _cell(b.strip(), t)
        d = direction_between(stack, far)
        if d < 0:
            raise MoveError("%s: %s and %s are not on one line" % (t, a.strip(), b.strip()))
        n = 1
        x = stack
        while x != far:
            x = RAY_CELLS[(x * 8 + d) * 8]
            n += 1
        m = make_regroup(stack, d, n)
    elif "x" in t:
        a, _, b = t.partition("x")
        src = _cell(a.strip(), t)
        first = _cell(b.strip(), t)
        d = direction_between(src, first)
        if d < 0 or RAY_CELLS[(src * 8 + d) * 8] != first:
            raise MoveError(
                "%s: %s is not next to %s; name the first cell the spread reaches"
                % (t, b.strip(), a.strip())
            )
        hs = pos.heights[src]
        if hs < 2:
            raise MoveError(
                "%s: %s holds %s, not a stack to spread"
                % (t, a.strip(), "no cube" if hs == 0 else "a single cube")
            )
        m = make_spread(src, d, hs)
    else:
        m = make_place(_cell(t, t))
    why = why_illegal(m, pos)
    if why is not None:
        raise MoveError(why)
    return m


def _cell(s, whole):
    try:
        return parse_cell(s)
    except MoveError as exc:
        if s == whole:
            raise MoveError(
                "'%s' is not a move: write a cell (e5), a regroup (a4->c4) or a spread (g6xf5)"
                % whole
            )
        raise MoveError("%s: %s" % (whole, exc))


def _describe(m):
    """format_move, or words for an encoding whose cells leave the board."""
    kind = move_kind(m)
    c = move_cell(m)
    d = move_dir(m)
    n = move_count(m)
    need = n - 1 if kind == REGROUP else (n if kind != PLACE else 0)
    if REACH[c * 8 + d] >= need and (kind != REGROUP or n >= 2) and (kind == PLACE or n >= 1):
        return format_move(m)
    return "%s of %d from %s towards %s" % (
        ("regroup", "spread")[kind - 1], n, cell_name(c), _DIR_WORDS[d])


def why_illegal(m, pos):
    """None when move m is legal in ``pos``, else the reason, naming the rule."""
    if m < 0 or m >= 65536 or move_cell(m) >= N_CELLS or move_kind(m) > 2:
        return "not a move"
    text = _describe(m)
    w = pos.winner()
    if w >= 0:
        return "%s: the game is over (%s won)" % (text, "NS" if w == 0 else "EW")
    kind = move_kind(m)
    c = move_cell(m)
    d = move_dir(m)
    n = move_count(m)
    h = pos.heights
    if c >= N_CELLS:
        return "not a move"
    if kind == PLACE:
        if n != 1:
            return "not a move"
        if h[c]:
            return "%s: the cell is not empty (M1)" % text
        if not pos.common and not pos.own[pos.side]:
            return "%s: no cube to place: the common reserve and your own are empty (M1)" % text
        return None
    ro = (c * 8 + d) * 8
    if kind == REGROUP:
        if not pos.under_voina():
            return "%s: a regroup is allowed only under Voïna (M2, V2)" % text
        if n < 3:
            return "%s: a regroup takes at least 3 aligned cubes (M2)" % text
        if pos.variant == "kv" and n != 3:
            return "%s: in the kv variant a regroup takes exactly 3 cubes (M2)" % text
        if REACH[c * 8 + d] < n - 1:
            return "%s: the line leaves the board (M2)" % text
        cells = (c,) + tuple(RAY_CELLS[ro + k] for k in range(n - 1))
        for x in cells:
            if h[x] != 1:
                return "%s: %s is not a single cube; every cell regrouped must hold one (M2)" % (
                    text,
                    cell_name(x),
                )
        if MAXREACH[c] < n:
            return (
                "%s: a stack of %d on %s could never be spread: it reaches at most %d cells"
                " (M2)" % (text, n, cell_name(c), MAXREACH[c])
            )
        return None
    if kind != 2:
        return "not a move"
    if h[c] < 2:
        return "%s: %s holds no stack (M3)" % (text, cell_name(c))
    if n != h[c]:
        return "%s: the stack on %s holds %d cubes, not %d" % (text, cell_name(c), h[c], n)
    if REACH[c * 8 + d] < n:
        return "%s: %d cubes towards %s need %d cells, only %d before the border (M3)" % (
            text,
            n,
            _DIR_WORDS[d],
            n,
            REACH[c * 8 + d],
        )
    capture = False
    for i in range(n):
        t = RAY_CELLS[ro + i]
        if h[t] == 1:
            capture = True
        elif h[t] >= 2 and h[t] + 1 > MAXREACH[t]:
            return "%s: the stack on %s would grow to %d and could never be spread (M3)" % (
                text,
                cell_name(t),
                h[t] + 1,
            )
    if not capture:
        return "%s: a spread must reach at least one single cube to capture (M3)" % text
    return None
