"""Brochs on the board: its light layers, its buttons and its words (docs/games.md,
docs/rules/brochs.md "On the board").

The switches see only occupied or empty; who owns a piece, and which Black piece is the
master, the board knows from the game. Always shown (the lowest layer):

- the pieces' owners: Black's men in Black's colour (blue), White's men in White's (orange),
  the master reddish purple (the pieces themselves are black, natural wood and reddish
  purple: ``PIECE_RGB``);
- the four donjons, dim: yellow when empty, else in the colour of the piece on them;
- the quadrants: the empty squares of the central cross (file h, rank 8: in no quadrant), dim;
- a remote capture (BM3): the White pieces it may take blink orange; lifting one plays it
  (or, after Black declared a quadrant with ``imprecation_choice white``, White lifts the one
  it gives up);
- the submission question (BR6): all the edges blink white fast until it is answered.

The runtime adds the move in progress from footprints: a lifted piece lights its legal squares
(the candidates' destinations), and once it stands on one, the pieces it captures blink "take
off" until they are off (a candidate's captures are shown only when its destination is
reached: before that, every destination's captures would blink at once).

Buttons (``App.press``, serial ``press NAME``): ``master`` (the drop being made is the master:
``pos.button_of``), ``pass``, ``submission``, ``accept``, ``refuse``, ``resign``. On the
board's three buttons: ``ok`` held while a drop waits declares it the master; ``ok`` held with
nothing on the way passes (or answers "pass!" to the question); ``hint`` held after the first
move asks "submission?" (or accepts the question); at the start of a game both keep their
usual meaning (the next game, the computer opponent).

Usage: the runtime makes ``Layers(n_cells, game, edges, name)`` for the game ``brochs``.
"""

from xobo.games.brochs import rules as R
from xobo.runtime import colours as C
from xobo.runtime import inference as I
from xobo.runtime.layers import GameLayers
from xobo.runtime.words import FootprintWords

BUTTON_NAMES = ("master", "pass", "submission", "accept", "refuse", "resign")


class Layers(FootprintWords, GameLayers):
    """Brochs's light: owners, master, donjons, cross, remote targets, the question."""

    PIECE = "piece"
    BUTTON_NAMES = BUTTON_NAMES
    # The pieces themselves, named by their colours in the rules: Black's men black, White's
    # men natural (light, unpainted) wood, the master in its light's colour; the board lights
    # the players' colours around them (black cannot be lit). Read by hardware/pieces.py
    # (the piece sets a café orders) and the simulator's drawing: one source.
    PIECE_RGB = (0x000000, None)  # per player (Black, White); None: natural wood

    def __init__(self, n_cells, game, edges, name):
        GameLayers.__init__(self, n_cells, game, edges, name)
        self.base = bytearray(n_cells)
        self.remote = bytearray(n_cells)
        self.asked = False
        self.pos_shown = None  # the position shown (its rules say why a fix is one)

    def set_position(self, pos, inf):
        GameLayers.set_position(self, pos, inf)
        self.pos_shown = pos
        base = self.base
        cells = pos.cells
        for c in range(self.n):
            k = cells[c]
            if k == R.MAN:
                base[c] = C.NS_COLOUR
            elif k == R.WHITE:
                base[c] = C.EW_COLOUR
            elif k == R.MASTER:
                base[c] = C.BR_MASTER
            elif R.QUADRANT[c] == R.NO_QUADRANT:
                base[c] = C.BR_CROSS
            else:
                base[c] = 0
        for c in pos.donjons:
            k = cells[c]
            base[c] = (C.BR_DONJON, C.BR_DONJON_BLACK, C.BR_DONJON_MASTER,
                       C.BR_DONJON_WHITE)[k]
        if not pos.is_terminal():
            pos.remote_targets(self.remote)
            for c in range(self.n):
                if self.remote[c]:
                    base[c] = C.BR_REMOTE
        self.asked = pos.sub_kind == R.SUB_ASKED and not pos.is_terminal()

    def paint(self, code, inf, state, hints):
        base = self.base
        for c in range(self.n):
            code[c] = base[c]

    def paint_move(self, code, inf, i, put_code, take_code):
        """A candidate whose destination is not reached yet: its captures are not shown."""
        if put_code != C.PUT or inf.n_a[i] == 0:
            return
        b = i * inf.fp
        if inf.added[inf.fp_a[b]]:
            return
        lifted = inf.lifted
        for k in range(inf.n_l[i]):
            c = inf.fp_l[b + k]
            if not lifted[c] and code[c] == take_code:
                code[c] = self.base[c]

    def paint_edges(self, ec, thinking):
        GameLayers.paint_edges(self, ec, thinking)
        if self.asked:
            for e in range(len(ec)):
                ec[e] = C.BR_ASKED

    # ------------------------------------------------------------ buttons

    def gesture(self, action, pos, inf):
        """ok held: the master (a drop waits), else pass / "pass!"; hint held after the
        first move: "submission?" / accept. At the start both keep their meaning."""
        if pos is None or pos.is_terminal():
            return action
        if action == "next":
            if "master" in inf.buttons and inf.complete >= 0 and (
                    inf.state == I.COMPLETE or inf.state == I.WAIT_LONGER):
                return "press:master"
            if inf.state == I.MATCH and (pos.ply > 0 or pos.sub_kind == R.SUB_ASKED):
                return "press:pass"
        elif action == "opponent" and pos.ply > 0 and inf.state == I.MATCH:
            return "press:submission"
        return action

    def button_move(self, pos, name):
        """The question's answers share the buttons: pass answers "pass!", submission
        accepts (BR6); the other names are the rules' own (``pos.button_move``)."""
        if pos.sub_kind == R.SUB_ASKED:
            if name == "pass":
                name = "refuse"
            elif name == "submission":
                name = "accept"
        return pos.button_move(name)

    def pressed_words(self, name, on):
        if name == "master":
            if on:
                return "master: the next piece you drop is the master (press again to cancel)"
            return "master cancelled: the next piece you drop is a man"
        return GameLayers.pressed_words(self, name, on)

    # ------------------------------------------------------------ words

    def move_words(self, pos, m):
        kind = R.move_kind(m)
        c = m & 255
        if kind == "drop":
            words = "drop a man on %s" % self.name(c)
        elif kind == "master-drop":
            words = "drop the master on %s (put it, then hold ok)" % self.name(c)
        elif kind == "move":
            words = "move %s to %s" % (self.name(m >> 8), self.name(c))
        elif kind == "remote":
            return "take the White piece off %s (remote capture)" % self.name(c)
        elif kind == "declare":
            return "declare a remote capture in %s (%s)" % (R.QUADRANT_NAMES[c],
                                                              pos.move_text(m))
        else:
            return "press %s (%s)" % ({"ask": "submission"}.get(kind, kind),
                                      pos.move_text(m))
        cap = bytearray(8)
        n = pos.captures_of(m, cap) if pos.is_legal(m) else 0
        if n:
            words += ", take off %s" % ", ".join(self.name(cap[k]) for k in range(n))
        return words

    def remaining_words(self, pos, inf, i):
        words = FootprintWords.remaining_words(self, pos, inf, i)
        m = inf.moves[i]
        if R.is_master_drop(m) and "master" in inf.buttons and not inf.armed:
            return (words + "; " if words else "") + "hold ok for the master"
        return words

    def fix_words(self, inf):
        """A piece moved or dropped where no legal move goes: which rule says no (the
        engine's words, with its rule number), and what to put back where."""
        pos = self.pos_shown
        if pos is None:
            return ""
        lifted = [c for c in range(self.n) if inf.lifted[c]]
        added = [c for c in range(self.n) if inf.added[c]]
        if len(added) != 1 or len(lifted) > 1:
            return ""
        to = self.name(added[0])
        text = ("%s-%s" % (self.name(lifted[0]), to)) if lifted else "*" + to
        try:
            pos.parse_move(text)
            return ""  # a legal move: the board waits for the rest of it
        except ValueError as exc:
            why = str(exc)
        if why.startswith(text + ": "):
            why = why[len(text) + 2:]
        out = "%s is not allowed: %s; take the piece off %s" % (
            "%s to %s" % (self.name(lifted[0]), to) if lifted else "a drop on " + to, why, to)
        if lifted:  # the piece that left its square goes back
            out += "; put %s on %s (it came from there)" % (
                ("", "a man", "the master", "a man")[pos.cells[lifted[0]]],
                self.name(lifted[0]))
        return out

    def waiting_words(self, pos, inf):
        m = inf.complete_move()
        if "master" in inf.buttons and R.move_kind(m) == "drop":
            return ("a man on %s: it counts when the pieces stay still (for your master "
                    "instead, hold ok now)" % self.name(m & 255))
        return ""

    def end_text(self, pos):
        if not pos.is_terminal():
            return "*"
        w = pos.winner()
        return "%s %s" % (self.names[w] if w >= 0 else "draw", pos.end_reason())

    def result_event(self, pos):
        if not pos.is_terminal():
            return None
        w = pos.winner()
        return (self.names[w] if w >= 0 else "draw"), pos.end_reason().replace(" ", "-")
