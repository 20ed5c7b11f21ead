"""Learn mode: a short course of the game on the board itself (docs/firmware.md, "Learn").

Entered with serial ``learn [GAME]``, the page's Learn button, or a long press on ``undo`` at
the start of a game (no move yet); left with a long press on ``undo``, ``ok`` + ``undo`` held,
serial ``learn off``, or at the end of the course. The player's own game waits meanwhile: it is
neither changed nor saved over, and comes back as it was (the board shows what to put back).

The course is the game's own (``xobo.games.<name>.lessons``, docs/games.md "Lessons"): each
lesson sets up a position (the cells to fill and to clear light as after a ``load``), lights
the cells it speaks of (``LOOK``: white, breathing slowly), says what to do (the board's
``say`` words: serial ``state``, the page's status, ``event say``) and waits for the pieces.
The move is inferred and checked by the game's own engine, as in play (this module is no
referee): the lesson's move is committed with its flash and its events, and the lesson then
says what happened; another legal move is explained and taken back (the board shows what to
put back); an impossible placement is shown to fix as in play. The last lesson of every course
is a real position to play out against the computer.

Buttons while learning: ``ok`` plays the complete move now (as in play) and, once a lesson is
done, goes on to the next one; ``ok`` held skips to the next lesson; ``undo`` starts the
lesson again; ``undo`` held (or ``ok`` + ``undo``) leaves; ``hint`` lights the lesson's move,
``hint`` held plays it when it is an action no piece shows (a game's button: Brochs's
submission question; serial ``press`` too).

Memory: this module and the game's lessons are imported when learning starts and forgotten
when it ends (``xobo.compat.forget_module``): play never holds them on the device.

Usage (the app's ``do_learn``, the protocol's ``learn``)::

    >>> from xobo.runtime import learn
    >>> from xobo.runtime.virtual_board import VirtualBoard
    >>> app = VirtualBoard().app
    >>> now = app.d.clock.ticks_ms()
    >>> mode = learn.start(app, now, "tiny")   # the test game's course (switches the game first)
    >>> app.mode.say()[:30]             # the first lesson's words
    'Lesson 1/6, the goal. Set up t'
    >>> app.mode.leave(now)             # back to the player's game
    >>> app.settings["game"]
    'tiny'
"""

import sys

from xobo.compat import collect, forget_module
from xobo.errors import XoboError
from xobo.runtime import course, guide
from xobo.runtime import events as E
from xobo.runtime import inference as I

LEARN = "learn"  # the event's kind (xobo.runtime.events: its table)
ASK = 0  # the lesson waits for its move (or for the pieces of its position)
DONE = 1  # the lesson's move was played: ok goes on
PLAY = 2  # the last lesson: the position is played out against the computer
OVER = 3  # the course is complete: ok goes back to the player's game

# a lesson: (title, position, look, ask, expect, well, other)
TITLE = 0
POSITION = 1  # the game's position notation; "" for the start position
LOOK = 2  # the cells the lesson speaks of, in the game's notation, separated by spaces
ASK_WORDS = 3  # what to do
EXPECT = 4  # the moves that do it (notation, separated by spaces), or the condition the
# engine checks (xobo.runtime.course: "safe", "wins", "blocks"...); "play": play the position
# out against the computer
WELL = 5  # what happened, after the lesson's move
OTHER = 6  # why another legal move is not the lesson's


def lessons_of(game):
    """The game's lessons module (its ``LESSONS``, and ``piece_words(pos, cell)`` when its
    pieces differ: what to put on a cell, in words); XoboError when it has none."""
    from xobo.games import part

    try:
        return part(game, "lessons")
    except ImportError:
        raise XoboError("%s has no lessons installed" % game.TITLE) from None


def command(app, arg, now):
    """Serial ``learn [GAME]``: the game's course on the board; ``learn next`` skips to the
    next lesson, ``learn off`` goes back to the game. Returns the reply line; raises
    XoboError or ValueError saying what is wrong."""
    try:
        word = arg.lower()
        if len(arg.split()) > 1:
            raise ValueError("usage: learn [GAME|next|off]")
        mode = app.mode
        learning = isinstance(mode, LearnMode)
        if word in ("off", "next") and not learning:
            raise XoboError("not learning (learn [GAME] starts the course)")
        if word == "off":
            mode.leave(now)
            return "ok learn off"
        if word == "next":
            mode.next_lesson(now)
        else:
            mode = start(app, now, word)
        return "ok %s %s" % (mode.state_field(), app.settings["game"])
    finally:
        if not isinstance(app.mode, LearnMode):
            forget_module("xobo.runtime.learn")


def start(app, now, name=""):
    """Enter the learn mode with the course of game ``name`` (the current game when "").
    Returns the mode."""
    mode = app.mode
    if mode is not app:
        if isinstance(mode, LearnMode):
            mode.leave(now)
        else:
            raise XoboError("the board is busy (self-test): learn when it is over")
    if name and name != app.settings["game"]:
        app.set_setting("game", name, now)
    mode = LearnMode(app, lessons_of(app.game))
    # (nothing of the lessons is saved, and they have no id: no host takes their moves for
    # the player's game's)
    app.set_mode(mode, None, "")
    try:
        mode.begin(0, now)
    except (XoboError, ValueError) as exc:  # a lesson the engine refuses: the game back
        mode.leave(now)
        raise XoboError("the lessons of %s cannot start: %s" % (app.game.TITLE, exc)) from None
    return mode


class LearnMode:
    """The board's learn mode (the app's other modes: the game, ``App`` itself, and the
    self-test's): the switches go to the game's inference as in play, the moves it infers to
    the lesson."""

    observes = True

    def __init__(self, app, module):
        self.app = app
        self.lessons = module.LESSONS
        self.module = module.__name__
        self.course = module  # its hooks for the conditions (score, threats)
        self.piece_words = getattr(module, "piece_words", None)
        self.game = app.game
        self.modules = tuple(sys.modules)  # what learning imports is forgotten after it
        self.host_took_over = False  # a host loaded, started or switched a game meanwhile
        # the player's game, given back at the end (nothing of it is saved meanwhile)
        self.own = (app.pos, app.gameid)  # (its position and its id: the lessons have none)
        self.saved = app.saved
        self.opponent = app.settings["opponent"]
        if app.pending >= 0:
            app.cancel_pending(app.d.clock.ticks_ms())
        self.k = 0
        self.phase = ASK
        self.lesson = None
        self.pos = None
        self.cond = None  # the lesson's condition (xobo.runtime.course)
        self.work = None  # the lesson's position, for the engine's answers
        self.ask = ""  # the lesson's words, their cells filled from the engine
        self.told = ""  # what the board said about the last try
        self.swaps = ""  # the pieces to change that the switches cannot see
        self.ready = False  # the pieces matched the lesson: a fix now is the try's, not set-up
        self.seen_version = -1  # the inference's classification last looked at
        self.tried = -1  # the last try that was not the lesson's (taken back)
        app.light.look = bytearray(app.n)

    # ------------------------------------------------------------ the course

    def begin(self, k, now):
        """Set up lesson ``k``: its position (the cells to change light until the pieces
        match), the cells it speaks of, its words."""
        app = self.app
        lesson = self.lessons[k]
        self.k = k
        self.lesson = lesson
        self.told = ""
        self.tried = -1
        text = lesson[POSITION]
        if text:
            pos = app.game.parse_position(text, app.settings)
        else:
            pos = app.game.new_position(app.settings)
        if pos.n_cells != app.n:
            raise XoboError("the lessons of %s are for its default size: set it back first"
                            % app.game.TITLE)
        app.settings["opponent"] = self.opponent_for(pos) if lesson[EXPECT] == "play" \
            else "off"
        self.swaps = self.changed_pieces(app.pos, pos)
        app.show_position(pos, now)
        self.pos = pos
        self.ready = app.inf.state == I.MATCH
        self.phase = PLAY if lesson[EXPECT] == "play" else ASK
        self.work = pos  # (the app's position until the lesson's move: apply and undo are exact)
        self.cond = course.Condition(self.course, "" if self.phase == PLAY else lesson[EXPECT],
                                     app.cell_name, self.player_names())
        self.ask = self.cond.fill(lesson[ASK_WORDS], self.work)
        self.light_look(self.cond.fill(lesson[LOOK], self.work, look=True))
        app.emit((LEARN, app.settings["game"], "%d/%d" % (k + 1, len(self.lessons)),
                  lesson[TITLE]))
        app.emit((E.SAY, self.say()))

    def changed_pieces(self, old, pos):
        """The cells whose piece must change though the switch stays closed (another
        colour, a tower for a single): '' for a game whose pieces are all alike."""
        words_of = self.piece_words
        if words_of is None:
            return ""
        out = []
        for c in range(pos.n_cells):
            if old.heights[c] and pos.heights[c]:
                w = words_of(pos, c)
                if w != words_of(old, c):
                    out.append("%s: %s" % (self.app.cell_name(c), w))
        return ", ".join(out)

    def player_names(self):
        """The players' names in words ('North-South', 'Yellow'): the game's display names
        when its layers have them."""
        app = self.app
        shown = getattr(app.layers, "DISPLAY_NAMES", None)
        if shown:
            return shown
        return [n[0].upper() + n[1:] for n in app.names]

    def opponent_for(self, pos):
        """The computer plays everyone but the player to move (the learner)."""
        names = self.app.names
        return "+".join(names[p] for p in range(len(names)) if p != pos.side)

    def light_look(self, cells):
        look = self.app.light.look
        for c in range(len(look)):
            look[c] = 0
        pos = self.pos
        for word in cells.split():
            look[self.cell_of(word, pos)] = 1
        self.app.light.version += 1

    def cell_of(self, word, pos):
        w = pos.width
        f = ord(word[0]) - 97
        r = int(word[1:]) - 1
        if f < 0 or f >= w or r < 0 or r >= pos.height:
            raise XoboError("lesson %d names cell %s outside the game" % (self.k + 1, word))
        return r * w + f

    def next_lesson(self, now):
        if self.k + 1 >= len(self.lessons):
            self.finish(now)
            return
        try:
            self.begin(self.k + 1, now)
        except (XoboError, ValueError) as exc:  # a lesson the engine refuses: the game back
            self.leave(now)
            self.app.emit((E.ERROR, "lesson %d cannot start: %s" % (self.k + 2, exc)))

    def finish(self, now):
        self.phase = OVER
        self.light_look("")
        self.app.settings["opponent"] = "off"
        self.told = ""
        self.app.emit((LEARN, self.app.settings["game"], "done", ""))
        self.app.emit((E.SAY, self.say()))

    def leave(self, now):
        """Back to the player's game, as it was: the board shows what to put back."""
        app = self.app
        if app.pos is not self.pos and self.pos is not None:  # (a new game: a new position)
            self.host_took_over = True  # (as the cycle finds it: step_mode)
        # (the player's game's id back, or the one of the game the host started)
        app.set_mode(app, self.saved, app.gameid if self.host_took_over else self.own[1])
        app.light.look = None
        app.settings["opponent"] = self.opponent
        if self.host_took_over:  # the host's game is played now: it is saved
            app.save_game()
        else:  # (its first player and start are the player's game's: only a host changes them)
            app.show_position(self.own[0], now)
        app.emit((LEARN, "off", "", ""))
        self.lessons = None
        self.piece_words = None
        self.course = None
        self.cond = None
        self.work = None
        forget_module(self.module)
        forget_module("xobo.runtime.learn")
        if not self.host_took_over:  # (a game the host switched to keeps its modules)
            for name in tuple(sys.modules):  # the notation's parser, the guide, the AI...
                if name not in self.modules:
                    forget_module(name)
        self.modules = None
        collect()

    # ------------------------------------------------------------ the mode

    def button(self, kind, name, now):
        app = self.app
        if app.listeners:
            app.emit((E.BUTTON, name, ("", "short", "long", "both")[kind]))
        if kind == 3 or (name == "undo" and kind == 2) or (name == "ok" and self.phase == OVER):
            self.leave(now)
        elif name == "ok" and kind == 2:
            self.next_lesson(now)
        elif name == "ok":
            if self.phase == DONE:
                self.next_lesson(now)
            elif self.phase == PLAY:  # the game against the computer: ok as in play
                app.controls.do_confirm(now)
            else:
                m = app.inf.confirm()
                if m >= 0:
                    self.played(m, now)
                else:
                    app.emit((E.SAY, self.say()))
        elif name == "undo":
            self.begin(self.k, now)
        elif name == "hint" and kind == 1:
            self.show_move(now)
        elif name == "hint" and kind == 2:
            self.press_lesson_button(now)

    def press_lesson_button(self, now):
        """hint held: the lesson's action that no piece shows (Brochs's submission
        question) by the game's button that plays it, as ``press NAME`` does."""
        app = self.app
        m = self.expected_move()
        layers = app.layers
        for name in layers.BUTTON_NAMES:
            if m >= 0 and layers.button_move(app.pos, name) == m:
                try:
                    app.controls.press(name, now)
                except XoboError as exc:
                    app.emit((E.ERROR, str(exc)))
                return
        app.emit((E.SAY, self.say()))

    def play_pressed(self, m, now):
        """A move a button played (serial ``press``, a gesture): the lesson's, or another
        (explained), as a move of the pieces is; in the last lesson, as in play."""
        if self.phase == PLAY:
            self.app.commit(m, now)
        elif self.phase == ASK:
            self.played(m, now)
        else:
            raise XoboError("the lesson is done: ok goes on")

    def show_move(self, now):
        """The hint button: the lesson's move in light (the computer's, playing out)."""
        app = self.app
        if self.phase == PLAY:
            app.controls.do_hint(now)
            return
        m = self.expected_move()
        if m < 0:
            app.emit((E.SAY, self.say()))
            return
        app.show_hint(m, now)

    def expected_move(self):
        """The lesson's first move, -1 when there is none to show (done)."""
        if self.phase != ASK:
            return -1
        return self.cond.first_move(self.work)

    def step_mode(self, now):
        app = self.app
        if app.game is not self.game or app.pos is not self.pos:
            # the host loaded, started or switched a game: that game is played now
            self.host_took_over = True
            if app.saved is not None:  # another game's saved game (set game resumed it)
                self.saved = app.saved
            self.leave(now)
            return
        if app.inf.state == I.MATCH:
            self.ready = True
        if self.phase == PLAY:
            ply = app.pos.ply
            app.step_mode(now)  # as in play: commits, the computer's turn
            if app.pos.ply != ply and app.pos.is_terminal():
                self.finish(now)
            return
        inf = app.inf
        m = inf.poll(now)
        if m < 0 and self.phase == ASK and inf.state == I.RESTORE and self.ready \
                and inf.version != self.seen_version:
            # after a try taken back: the pieces may already show another move from the
            # lesson's position (the lesson's, put while the last try is taken off)
            self.seen_version = inf.version
            m = self.move_on_board()
            if m == self.tried:  # the try itself, still on the board: it is said already
                m = -1
        if m >= 0 and self.phase == ASK:
            self.played(m, now)
        if app.state_seen():
            if inf.state == I.MATCH and self.phase == ASK and app.listeners:
                app.emit((E.SAY, self.say()))
            elif inf.state == I.FIX and app.listeners:
                app.emit(guide.fix_event(app))

    def played(self, m, now):
        """A complete legal move of the pieces: the lesson's (played, explained) or another
        (explained, taken back: the board shows what to put back)."""
        app = self.app
        pos = app.pos
        text = pos.move_text(m)
        if self.is_lesson_move(m):
            self.told = self.cond.fill(self.lesson[WELL], self.work, moved=m)
            app.commit(m, now)
            self.phase = DONE
            self.light_look("")
        else:
            self.told = "%s: %s" % (text, self.cond.fill(self.lesson[OTHER], self.work,
                                                        moved=m))
            self.tried = m
            app.light.flash_move(pos, m, now)
            app.show_position(pos, now)
        app.emit((E.SAY, self.say()))

    def is_lesson_move(self, m):
        """The engine's verdict: ``m`` (legal in the lesson's position) meets the lesson's
        condition, or is one of its moves."""
        return self.cond.meets(self.work, m)

    def paint(self, now):
        return self.app.paint(now)

    # ------------------------------------------------------------ words

    def say(self):
        """What the board says now: the lesson, what the last try did, what to fix."""
        app = self.app
        n = len(self.lessons) if self.lessons else 0
        if self.phase == OVER:
            return "Course complete. ok: back to your game (or ok held)."
        lesson = self.lesson
        head = "Lesson %d/%d, %s. " % (self.k + 1, n, lesson[TITLE])
        inf = app.inf
        if inf.state in (I.RESTORE, I.FIX) and self.phase != DONE and not self.told:
            if not self.ready:
                return head + "Set up the lesson: " + self.setup_words()
            # the pieces went wrong during the try: the game's words for it, else the cells
            words = guide.guide_text(app) if inf.state == I.FIX else ""
            return head + self.ask + " " + (words or "Put the pieces back as lit: " +
                                            self.setup_words(plain=True))
        if self.phase == DONE:
            return head + self.told + " ok: next lesson."
        if self.phase == PLAY:
            if app.pos.is_terminal():
                return head + "The game is over: %s. ok: finish." % app.result_text()
            words = guide.guide_text(app)
            return head + self.ask + ((" " + words) if words else "")
        out = head
        if self.told:
            out += self.told + " "
        elif self.swaps and inf.state == I.MATCH:  # the switches cannot see a colour: say it
            out += "Check the pieces: %s. " % self.swaps
        out += self.ask
        if self.told and inf.state == I.RESTORE:  # the try to take back first: say how
            return out + " First put the lesson back: " + self.setup_words()
        words = self.lesson_move_words() or guide.guide_text(app)
        if words and inf.state != I.MATCH:
            out += " " + words
        return out

    def move_on_board(self):
        """While the lesson's position is being put back: the one legal move whose footprint
        is exactly what differs on the board (the cells to fill its lifted cells, the cells
        to clear its added ones), -1 when none or several. No allocation but the result."""
        inf = self.app.inf
        n = self.app.n
        n_fill = 0
        n_clear = 0
        for c in range(n):
            n_fill += inf.fill[c]
            n_clear += inf.clear[c]
        if not n_fill and not n_clear:
            return -1
        found = -1
        fp = inf.fp
        for i in range(inf.n_moves):
            if inf.n_l[i] != n_fill or inf.n_a[i] != n_clear:
                continue
            base = i * fp
            same = True
            for k in range(inf.n_l[i]):
                if not inf.fill[inf.fp_l[base + k]]:
                    same = False
            for k in range(inf.n_a[i]):
                if not inf.clear[inf.fp_a[base + k]]:
                    same = False
            if same:
                if found >= 0:
                    return -1  # several moves look the same: the board cannot tell
                found = inf.moves[i]
        return found

    def lesson_move_words(self):
        """While the pieces could still make several moves, one of them the lesson's: that
        move in words ('' otherwise: the board's list of the moves it sees)."""
        app = self.app
        inf = app.inf
        if inf.state != I.PROGRESS or inf.n_cand < 2 or self.phase != ASK or inf.touch >= 0 \
                or inf.ambiguous:
            return ""
        for j in range(inf.n_cand):
            i = inf.cand[j]
            if self.is_lesson_move(inf.moves[i]):
                return "this lesson's move: " + app.layers.move_words(app.pos, inf.moves[i])
        return ""

    def setup_words(self, plain=False):
        """The pieces to put and take for the lesson's position, in words; ``plain``: the
        pieces a try moved, back where they were (the learner's hands had them: no colour,
        no piece to change)."""
        app = self.app
        inf = app.inf
        piece = app.layers.PIECE
        parts = []
        clear = [app.cell_name(c) for c in range(app.n) if inf.clear[c]]
        if clear:
            parts.append("take the %s%s off %s" % (piece, "s" if len(clear) > 1 else "",
                                                    " ".join(clear)))
        words_of = None if plain else self.piece_words
        if words_of is None:  # the pieces are all alike (XoBo's cubes), or back in place
            fill = guide.fill_words(app)
            if fill:
                parts.append("put a %s on %s" % (piece, " ".join(fill)))
        else:  # the pieces differ: which goes where
            kinds = []
            cells = []
            for c in range(app.n):
                if inf.fill[c]:
                    w = words_of(app.pos, c)
                    if w in kinds:
                        cells[kinds.index(w)].append(app.cell_name(c))
                    else:
                        kinds.append(w)
                        cells.append([app.cell_name(c)])
            for k in range(len(kinds)):  # 'put a red piece on a1', 'put the master on h8'
                w = kinds[k]
                parts.append("put %s%s on %s" % ("" if w.startswith("the ") else "a ", w,
                                                 " ".join(cells[k])))
        height = guide.height_words(app)
        if height and words_of is None:
            parts.append("make these stacks this tall: %s" % " ".join(height))
        if self.swaps and not plain:
            parts.append("change " + self.swaps)
        if not parts:
            return "put the %ss as lit." % piece
        return "; ".join(parts) + " (lit)."

    def state_field(self):
        """The serial state's field: 'learn 2/7' ('learn done' at the end)."""
        if self.phase == OVER:
            return "learn done"
        return "learn %d/%d" % (self.k + 1, len(self.lessons))
