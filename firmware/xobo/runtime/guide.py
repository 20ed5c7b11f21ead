"""What the board asks for, in words: the cells to fix or restore (``event fix ...``), what is
left of a move, which moves the switches cannot tell apart (serial ``state ... say``, the page,
``event say``). The light shows the same; the app imports this module the first time a host
or a player needs the words (on the device, not at boot).

Usage (the app's)::

    >>> from xobo.runtime import guide
    >>> from xobo.runtime.virtual_board import VirtualBoard
    >>> vb = VirtualBoard()
    >>> vb.put("e5"); vb.put("c3"); vb.advance(1500)   # two cubes: no move puts two
    >>> app = vb.app
    >>> guide.fix_event(app)     # the cells to fill (c5=3: three cubes) and to clear
    ('fix', 'clear c3 e5')
"""

from xobo.runtime import inference as I


def join_or(words):
    """'a', 'a or b', 'a, b or c'."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


def fill_words(app):
    """The cells to fill, a stack with its height: ['c5=3', 'd5']."""
    inf = app.inf
    out = []
    for c in range(app.n):
        if inf.fill[c]:
            h = inf.heights[c]
            out.append("%s=%d" % (app.cell_name(c), h) if h >= 2 else app.cell_name(c))
    return out

def height_words(app):
    """While restoring, the occupied cells whose height must change (their switch stays
    closed), with the height they must have: ['a5=1', 'e3=3']."""
    inf = app.inf
    if inf.state != I.RESTORE:
        return []
    return ["%s=%d" % (app.cell_name(c), inf.heights[c]) for c in range(app.n)
            if app.regauge[c] and inf.heights[c]]

def fix_event(app):
    """('fix', 'fill c5=3 d4 clear c3') (cells to fill, a stack with the height it must
    have, and cells to clear), ('restore', 'fill b5 c5 d5 height a5=1') after an undo or a
    load (occupied cells whose height must change), or ('fix', 'none')."""
    inf = app.inf
    fill = fill_words(app)
    clear = [app.cell_name(c) for c in range(app.n) if inf.clear[c]]
    height = height_words(app)
    kind = "restore" if inf.state == I.RESTORE else "fix"
    if not fill and not clear and not height:
        return (kind, "none")
    words = []
    if fill:
        words.append("fill " + " ".join(fill))
    if clear:
        words.append("clear " + " ".join(clear))
    if height:
        words.append("height " + " ".join(height))
    return (kind, " ".join(words))

def fix_text(app):
    """'fix fill c5=3 d4 clear c3', 'restore fill b5 height a5=1' or 'fix none'."""
    ev = fix_event(app)
    return ev[0] + " " + ev[1]

def ambiguous_cells(app):
    """The touch cells of moves the switches cannot tell apart: ['c2', 'f2'] (the
    inference marks them, ``amb_stack``)."""
    inf = app.inf
    if not inf.ambiguous:
        return []
    return [app.cell_name(c) for c in range(app.n) if inf.amb_stack[c]]

def guide_text(app):
    """What the player is asked to do now, in plain words ('' when nothing is asked):
    the board's light says the same, this is for the page, serial ``state`` and an
    ``ok`` that has nothing to commit (``event say ...``)."""
    inf = app.inf
    st = inf.state
    layers = app.layers
    pos = app.pos
    who = ""
    if app.pending >= 0:
        who = "the %s plays %s" % (app.pending_from, pos.move_text(app.pending))
    if st == I.OFFER:
        m = inf.complete_move()
        return "%s is a legal move: press ok to play it, %s cancels" % (
            pos.move_text(m), layers.offer_undo_words(pos, m))
    if st == I.MATCH:
        if app.pending >= 0:
            return "%s: %s" % (who, layers.move_words(pos, app.pending))
        if app.hint_move >= 0 and app.light.hint_on and not pos.is_terminal():
            # the hint in words, as the computer's own moves are said
            return "hint %s: %s" % (pos.move_text(app.hint_move),
                                    layers.move_words(pos, app.hint_move))
        turn = getattr(layers, "turn_words", None)  # a turn of several moves (Chain Reaction)
        return turn(pos) if turn is not None else ""
    if st == I.OVER and not pos.is_terminal() and app.full():
        return app.full_text()  # the longest game the board keeps: it ends there
    if st == I.FIX:
        return layers.fix_words(inf)  # the game's words for the cells to fix, or none
    if st not in (I.PROGRESS, I.COMPLETE, I.WAIT_LONGER, I.UNKNOWN):
        return ""
    if inf.touch >= 0:
        return layers.touch_words(inf.touch)
    if st == I.UNKNOWN:
        return ""
    amb = ambiguous_cells(app)
    if amb:
        return layers.ambiguous_words(join_or(amb))
    if inf.stepped >= 0 and st == I.WAIT_LONGER:  # picked with ok (the layer's OK_STEPS)
        return "%s chosen: it is played when the %ss stay still (or hold ok); ok picks " \
            "the next" % (pos.move_text(inf.complete_move()), layers.PIECE)
    if st == I.WAIT_LONGER:
        w = layers.waiting_words(pos, inf)  # the game's (Brochs: hold ok for the master)
        if w:
            return w
        return "%s is complete: press ok, or wait (it could still grow)" % pos.move_text(
            inf.complete_move())
    if st == I.COMPLETE:
        return "%s is complete: it is played when the %ss stay still (or press ok)" % (
            pos.move_text(inf.complete_move()), layers.PIECE)
    out = ""
    if inf.n_cand == 1:
        out = layers.remaining_words(pos, inf, inf.cand[0])
    else:
        words = []
        for j in range(inf.n_cand):
            w = layers.move_words(pos, inf.moves[inf.cand[j]])
            if w not in words:
                words.append(w)
        out = join_or(words[:4]) + (" or another" if len(words) > 4 else "")
    if who:
        return "%s: %s" % (who, out) if out else who
    return out
