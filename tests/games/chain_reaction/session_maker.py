"""Writes the scripted sessions of tests/games/chain_reaction/sessions/ (run it again after a
change of the rules or the computer): each segment as the hands that play it on the board.

    python tests/games/chain_reaction/session_maker.py

A segment becomes: lift the piece or tower; a piece put onto a piece is put with the one
underneath lifted and put back (the touch that names the target), or, once, stepped to
with ok; a scoring top piece is put on its goal square, then taken off and put on its
re-entry square; a penalty lifts the tower, puts its top back and its bottom on the square.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "firmware"))

from xobo.games.chain_reaction import ai  # noqa: E402
from xobo.games.chain_reaction.rules import K_PENALTY, K_STEP, Position, cell_name  # noqa: E402

OUT = Path(__file__).resolve().parent / "sessions"


def hands(pos, m, use_ok=False):
    """The script lines that play segment m from pos (before it)."""
    g = pos.geo
    k = m >> 9
    c = g.fi_cell[m & 63]
    d = (m >> 6) & 7
    n = cell_name
    lines = ["# %s %s" % ("light" if pos.side == 0 else "dark", pos.move_text(m))]
    if k >= K_PENALTY:
        r = g.fi_cell[k - K_PENALTY]
        lines += ["lift %s" % n(c), "put %s" % n(c), "put %s" % n(r), "wait 1500"]
        return lines
    s1 = g.nb[c * 8 + d]
    lines.append("lift %s" % n(c))
    if k == K_STEP:
        if pos.top[s1]:
            if use_ok:
                lines += ["put %s" % n(s1), "press ok", "leds", "wait 3500"]
                return lines
            lines += ["lift %s" % n(s1), "put %s 2" % n(s1), "wait 3500"]
        else:
            lines += ["put %s" % n(s1), "wait 3500"]
        return lines
    s2 = g.nb[s1 * 8 + d]
    if pos.top[s1]:
        lines += ["lift %s" % n(s1), "put %s 2" % n(s1)]
    else:
        lines.append("put %s" % n(s1))
    if k == 0:
        lines.append("put %s %d" % (n(s2), 2 if pos.top[s2] else 1))
    else:
        r = g.fi_cell[k - 1]
        lines += ["put %s" % n(s2), "wait 200", "leds", "lift %s" % n(s2), "put %s" % n(r)]
    lines.append("wait 3500")
    return lines


def by_hand(seed=1, levels=("search", "greedy"), undo_at=12, cut_at=30):
    pos = Position()
    out = ["# a whole game of Chain Reaction played by hand: light plays %s's segments, dark"
           " %s's (session_maker.py)" % levels,
           "serial set game chain-reaction", "wait 100"]
    # the start position's pieces
    for c in range(pos.n_cells):
        if pos.heights[c]:
            out.append("put %s" % cell_name(c))
    out += ["wait 1500", "leds"]
    stepped = touched = scored = undone = cut = False
    while not pos.is_terminal():
        m = ai.choose_move(pos, levels[pos.side], seed=seed + pos.ply)
        k = m >> 9
        onto = k == K_STEP and pos.top[pos.geo.nb[pos.geo.fi_cell[m & 63] * 8 + ((m >> 6) & 7)]]
        use_ok = bool(onto) and touched and not stepped
        out += hands(pos, m, use_ok)
        if onto:
            if use_ok:
                stepped = True
                # ok stepped to the first candidate; step on until it is m's target
                out.pop()  # the wait
                out.append("# (ok steps through the candidates until %s)"
                           % cell_name(pos.touch_cell(m)))
                out += ["press ok"] * step_count(pos, m)
                out.append("wait 3500")
            else:
                touched = True
        if 1 <= k < K_STEP:
            scored = True
        pos.apply(m)
        if pos.ply == undo_at and not undone:
            undone = True
            before = pos.clone()
            pos.undo()
            out += ["# undo that segment, put the pieces back", "press undo", "wait 200"]
            out += restore_lines(before, pos)
            out += ["wait 1500", "# and play it again"]
            out += hands(pos, m)
            pos.apply(m)
        if pos.ply == cut_at and not cut:
            cut = True
            out += ["power-cut", "wait 1500", "position"]
    out += ["leds", "position"]
    assert stepped and touched and scored
    return out


def step_count(pos, m):
    """ok presses after the first that reach m's target (the candidates' touch cells in
    cell order, the first press picks the lowest)."""
    g = pos.geo
    c = g.fi_cell[m & 63]
    cells = sorted(pos.touch_cell(x) for x in pos.legal_actions()
                   if (x >> 9) == K_STEP and g.fi_cell[x & 63] == c and pos.touch_cell(x) >= 0)
    return cells.index(pos.touch_cell(m))


def restore_lines(before, after):
    out = []
    for c in range(after.n_cells):
        a = before.heights[c]
        b = after.heights[c]
        if a > b:
            out.append("take %s %d" % (cell_name(c), a - b))
    for c in range(after.n_cells):
        a = before.heights[c]
        b = after.heights[c]
        if b > a:
            out.append("put %s %d" % (cell_name(c), b - a))
    return out


def against_computer(seed=2):
    """The board plays dark at its default level; the player's light segments are the
    greedy level's, played by hand; the computer's are played as the board shows them."""
    from xobo.games import load

    level = load("chain-reaction").DEFAULT_LEVEL
    pos = Position()
    out = ["# a whole game against the computer: the board plays dark (level %s)" % level,
           "serial set game chain-reaction", "wait 100"]
    for c in range(pos.n_cells):
        if pos.heights[c]:
            out.append("put %s" % cell_name(c))
    out += ["wait 1500", "serial set level %s" % level, "serial set opponent dark", "wait 100"]
    while not pos.is_terminal():
        if pos.side == 1:
            m = ai.choose_move(pos, level, seed=pos.ply, time_ms=1800)
        else:
            m = ai.choose_move(pos, "greedy", seed=seed + pos.ply)
        out += hands(pos, m)
        pos.apply(m)
    out += ["position"]
    return out


if __name__ == "__main__":
    OUT.mkdir(exist_ok=True)
    (OUT / "by_hand.txt").write_text("\n".join(by_hand()) + "\n")
    (OUT / "vs_computer.txt").write_text("\n".join(against_computer()) + "\n")
