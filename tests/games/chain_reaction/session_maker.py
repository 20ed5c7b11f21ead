"""Writes the scripted sessions of tests/games/chain_reaction/sessions/ (run it again after a
change of the rules or the computer): each segment as the hands that play it on the board.

    python tests/games/chain_reaction/session_maker.py

A segment is played with Chain Reaction's host module's hands (``boardkit.hand_lines``: the
pieces lifted, put and taken off as the footprint says, the target touched where several
segments share one); once, a target is stepped to with ok instead of the touch.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path[:0] = [str(ROOT / "firmware"), str(ROOT / "tests")]

from boardapp.boardkit import hand_lines  # noqa: E402

from xobo.games.chain_reaction import PLAYER_NAMES, ai  # noqa: E402
from xobo.games.chain_reaction.rules import FOOTPRINT_MAX, Position, cell_name  # noqa: E402

OUT = Path(__file__).resolve().parent / "sessions"


def hands(pos, m, use_ok=False):
    """The script lines that play segment m from pos (before it): the host module's hands;
    with ``use_ok`` a segment onto a piece has its target chosen with ok, not touched."""
    lines = ["# %s %s" % (PLAYER_NAMES[pos.side], pos.move_text(m))]
    acts = hand_lines("chain-reaction", pos, m, cell_name)
    touch = pos.touch_cell(m)
    if use_ok and touch >= 0:
        # the hands end with the touch (the target lifted and its pieces put back): ok instead
        after = pos.clone()
        after.apply(m)
        return lines + acts[:-1 - after.heights[touch]] + ["press ok", "leds", "wait 3500"]
    return lines + acts + ["wait 3500"]


def _footprint(pos, m):
    lifted = bytearray(FOOTPRINT_MAX)
    added = bytearray(FOOTPRINT_MAX)
    nl, na = pos.footprint(m, lifted, added)
    return bytes(lifted[:nl]), bytes(added[:na])


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
        onto = pos.touch_cell(m) >= 0  # onto a piece: the target is touched (or stepped to)
        use_ok = onto and touched and not stepped
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
        if "+" in pos.move_text(m):  # a piece scored (CN1: '+1', '+2')
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
    """ok presses after the first that reach m's target (the touch cells of the segments of
    m's footprint in cell order, the first press picks the lowest)."""
    fp = _footprint(pos, m)
    cells = sorted(pos.touch_cell(x) for x in pos.legal_actions()
                   if pos.touch_cell(x) >= 0 and _footprint(pos, x) == fp)
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
