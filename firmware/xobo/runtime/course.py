"""Lessons checked by the rules: what a lesson asks is a condition the game's engine evaluates
at the lesson's position, and the cells its words name come from the engine's answers, never
from typed text (docs/games.md "Lessons"). Imported by the learn mode while learning only.

A lesson's ``expect`` is either moves in the game's notation (this move, or one of these), or
one of the conditions below; any move that ends the game without the mover winning is never
the lesson's, but under ``draws``:

- ``wins``: the move wins the game at once;
- ``draws``: the move ends the game in a draw;
- ``safe``: any move that does not end the game against the mover;
- ``blocks``: the next player then has no move that wins at once (the game's ``threats``
  hook when it has one: XoBo's Voïna cells);
- ``keeps``: no move of the next player then lowers the mover's score (the game's ``score``);
- ``gains``: the mover's score grows;
- ``best``: the mover's score grows the most any legal move makes it grow;
- ``threat``: the mover then threatens to win at once (the game's ``threats``); ``fork``: at
  two cells or more, which one answer cannot both stop.

The words and the lit cells may hold, filled from the engine:

- ``{moves}``: the cells of the moves that meet the condition ("d9, e9 or f9" in words, the
  cells themselves in ``look``); ``{move}``: the cells of the hint's move (the move named
  after the condition, ``"wins c5"``, else the first that meets it);
- ``{losing}``: the cells of the moves that would end the game against the mover;
- ``{threats}``: after the lesson's move, the cells where the mover now threatens to win;
- ``{replies}``: after another move, the cells of the next player's answers that show why it
  is not the lesson's (it wins at once, or it lowers the mover's score);
- ``{next}``: the next player's name.

The game's lessons module may give the hooks ``score(pos, player[, part])`` (``"gains:NE"``
asks for the part NE of the score: X's North-East corner) and ``threats(pos, player)`` (the
cells where ``player`` would win with a placement).

Usage (the learn mode's)::

    >>> from xobo.runtime import course
    >>> from xobo.games import load, part
    >>> from xobo.runtime.topology import cell_name
    >>> game = load("tiny")
    >>> pos = game.new_position(game.DEFAULTS)
    >>> def name(g):
    ...     return cell_name(g, 3)
    >>> c = course.Condition(part(game, "lessons"), "b2", name, game.PLAYER_NAMES)  # expect "b2"
    >>> c.meets(pos, pos.parse_move("b2")), c.meets(pos, pos.parse_move("a1"))   # the verdicts
    (True, False)
"""

CONDITIONS = ("wins", "draws", "safe", "blocks", "keeps", "gains", "best", "threat", "fork")


def join_or(words):
    """'a', 'a or b', 'a, b or c'."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


class Condition:
    """A lesson's ``expect``, evaluated by the engine (the module docstring)."""

    def __init__(self, module, expect, cell_name, names):
        words = expect.split()
        kind, _, arg = (words[0] if words else "").partition(":")
        self.kind = kind if kind in CONDITIONS else ""
        self.arg = arg  # the score's part ("gains:NE": X's North-East corner)
        # the lesson's moves by notation; after a condition, the move its words show (the
        # hint's), which must meet it
        self.moves = tuple(words[1:]) if self.kind else tuple(words)
        self.score_of = getattr(module, "score", None)
        self.threats_of = getattr(module, "threats", None)
        self.cell_name = cell_name
        self.names = names
        self._scratch = None

    # ------------------------------------------------------------ the engine's verdicts

    def ends_against(self, pos, m):
        """The move ends the game and the mover has not won it (a loss, or a draw)."""
        side = pos.side
        pos.apply(m)
        try:
            return pos.is_terminal() and pos.winner() != side
        finally:
            pos.undo()

    def meets(self, pos, m):
        """Whether move ``m`` (legal at ``pos``) is the lesson's: its moves, or its condition
        as the engine answers it. ``pos`` is left as it was."""
        kind = self.kind
        if not kind:
            return self._named(pos, m)
        side = pos.side
        before = self.score(pos, side) if kind in ("gains", "best") else 0
        pos.apply(m)
        try:
            over = pos.is_terminal()
            w = pos.winner() if over else -1
            if kind == "wins":
                return over and w == side
            if kind == "draws":
                return over and w < 0
            if over and w != side:
                return False
            if kind == "safe":
                return True
            if kind == "threat":
                return not over and bool(self.threats(pos, side))
            if kind == "fork":
                return not over and len(self.threats(pos, side)) >= 2
            if kind == "blocks" and self.threats_of is not None:
                return not over and not self.threats_of(pos, pos.side)
            if kind == "blocks":
                return not over and not self.answers(pos, side)
            if kind == "keeps":
                return not over and not self.answers(pos, side)
            gain = self.score(pos, side) - before
        finally:
            pos.undo()
        if kind == "gains":
            return gain > 0
        return gain > 0 and gain == self.best_gain(pos)  # "best"

    def _named(self, pos, m):
        text = pos.move_text(m)
        for w in self.moves:
            if w == text:
                return True
            try:
                if pos.parse_move(w) == m:
                    return True
            except ValueError:
                pass
        return False

    def score(self, pos, player):
        if self.score_of is None:
            raise ValueError("this game's lessons give no score: no 'gains', 'best', 'keeps'")
        if self.arg:
            return self.score_of(pos, player, self.arg)
        return self.score_of(pos, player)

    def threats(self, pos, player):
        """The cells where ``player`` would win at once with a placement (the game's
        hook)."""
        if self.threats_of is None:
            raise ValueError("this game's lessons give no threats: no 'threat', 'fork'")
        return self.threats_of(pos, player)

    def _wins(self, pos, m, player):
        pos.apply(m)
        try:
            return pos.is_terminal() and pos.winner() == player
        finally:
            pos.undo()

    def answers(self, pos, mover):
        """After the mover's move: the next player's moves that show it was not the lesson's
        (``blocks``: they win at once; ``keeps``: they lower the mover's score)."""
        out = []
        if self.kind == "blocks" and self.threats_of is not None:
            return [m for m in pos.legal_actions() if self._wins(pos, m, pos.side)]
        keep = self.kind == "keeps"
        mine = self.score(pos, mover) if keep else 0
        nxt = pos.side
        for m in pos.legal_actions():
            pos.apply(m)
            try:
                if keep:
                    bad = self.score(pos, mover) < mine
                else:
                    bad = pos.is_terminal() and pos.winner() == nxt
            finally:
                pos.undo()
            if bad:
                out.append(m)
        return out

    def best_gain(self, pos):
        side = pos.side
        before = self.score(pos, side)
        best = 0
        for m in pos.legal_actions():
            pos.apply(m)
            g = self.score(pos, side) - before
            pos.undo()
            if g > best:
                best = g
        return best

    # ------------------------------------------------------------ the cells it names

    def cells(self, pos, m):
        """The cells a move fills (the cells it empties when it fills none)."""
        if self._scratch is None:
            self._scratch = (bytearray(16), bytearray(16))
        lifted, added = self._scratch
        nl, na = pos.footprint(m, lifted, added)
        if na:
            return [added[k] for k in range(na)]
        return [lifted[k] for k in range(nl)]

    def names_of(self, pos, moves):
        out = []
        for m in moves:
            for c in self.cells(pos, m):
                name = self.cell_name(c)
                if name not in out:
                    out.append(name)
        return out

    def lesson_moves(self, pos):
        return [m for m in pos.legal_actions() if self.meets(pos, m)]

    def first_move(self, pos):
        """The lesson's move the hint shows: its first named move, else the first legal move
        that meets its condition; -1 when none does."""
        if self.moves:
            return pos.parse_move(self.moves[0])
        for m in pos.legal_actions():
            if self.meets(pos, m):
                return m
        return -1

    def fill(self, text, pos, look=False, moved=-1, mover=-1):
        """``text`` with its placeholders filled from the engine at ``pos``: the lesson's
        position, or, with ``moved`` >= 0, the position before move ``moved`` (``{replies}``,
        ``{threats}`` are then of the position after it). ``look``: cells separated by
        spaces (the lit cells), else in words."""
        if "{" not in text:
            return text
        join = " ".join if look else join_or
        if "{moves}" in text:
            text = text.replace("{moves}", join(self.names_of(pos, self.lesson_moves(pos))))
        if "{move}" in text:
            m = self.first_move(pos)
            text = text.replace("{move}", join(self.names_of(pos, [m] if m >= 0 else [])))
        if "{losing}" in text:
            losing = [m for m in pos.legal_actions() if self.ends_against(pos, m)]
            text = text.replace("{losing}", join(self.names_of(pos, losing)))
        if moved >= 0 and ("{replies}" in text or "{threats}" in text or "{next}" in text):
            side = pos.side
            pos.apply(moved)
            try:
                if "{replies}" in text:
                    text = text.replace("{replies}", join(self.names_of(
                        pos, self.answers(pos, side))))
                if "{threats}" in text:
                    text = text.replace("{threats}", join(
                        [self.cell_name(c) for c in self.threats(pos, side)]))
                text = text.replace("{next}", self.names[pos.side])
            finally:
                pos.undo()
        return text
