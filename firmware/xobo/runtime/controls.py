"""The board's controls: its buttons' gestures (``xobo.runtime.gestures``) and the game's own
buttons (``press NAME``), turned into the session's actions.

Usage (the app's)::

    >>> from xobo.runtime.virtual_board import VirtualBoard
    >>> app = VirtualBoard().app
    >>> now = app.d.clock.ticks_ms()
    >>> app.controls.button(1, "ok", now)      # a button event (kind SHORT=1, LONG=2, BOTH=3)
    >>> app.controls.do_hint(now)              # a gesture's action, as the button does it
    >>> app.controls.press("master", now)      # the game's button (serial `press master`)
    Traceback (most recent call last):
    ...
    xobo.errors.XoboError: xobo has no button 'master'
"""

from xobo.compat import forget_module
from xobo.errors import XoboError
from xobo.runtime import events as E
from xobo.runtime import inference as I


class Controls:
    """What the buttons do on the board ``app`` (an ``xobo.runtime.app.App``): the board
    definition's gestures name an action, ``do_<action>`` does it."""

    def __init__(self, app, gestures):
        self.app = app
        self.gestures = gestures  # {(button, kind): action}

    def button(self, kind, name, now):
        """A button event from the drivers (kind SHORT=1, LONG=2, BOTH=3): the board
        definition's gestures say what it does (``xobo.runtime.gestures``)."""
        app = self.app
        if app.listeners:
            app.emit((E.BUTTON, name, ("", "short", "long", "both")[kind]))
        action = self.gestures.get((name, kind))
        if action is None and kind == 2:
            action = self.gestures.get((name, 1))  # a long press of a button with no long
        if action is None:
            return
        # the game may give a gesture another meaning now (Brochs: ok held on a drop
        # declares the master, ok held with nothing on the way passes)
        action = app.layers.gesture(action, app.pos, app.inf)
        if action.startswith("press:"):
            try:
                self.press(action[6:], now)
            except XoboError as exc:
                app.emit((E.ERROR, str(exc)))
            return
        getattr(self, "do_" + action.replace("-", "_"))(now)

    def _button_move(self):
        """The complete move the pressed button picked (the master drop), or -1."""
        inf = self.app.inf
        c = inf.complete
        if inf.armed and c >= 0 and inf.btn_of[c] == inf.armed and (
                inf.state == I.COMPLETE or inf.state == I.WAIT_LONGER):
            return inf.moves[c]
        return -1

    def press(self, name, now):
        """The game's button ``name`` (serial ``press NAME``, a gesture ``press:NAME``): it
        picks the move of the pieces on the way that needs it (Brochs's master drop: before
        or after the piece is put), or plays the move it stands for now (a pass, a question).
        Returns what was done; raises XoboError saying why it does nothing."""
        app = self.app
        layers = app.layers
        if name not in layers.BUTTON_NAMES:
            raise XoboError("%s has no button '%s'%s" % (
                app.settings["game"], name, (" (its buttons: %s)" % " ".join(
                    layers.BUTTON_NAMES)) if layers.BUTTON_NAMES else ""))
        pos = app.pos
        app.playing()  # (the game is over: no button does anything)
        app.room()  # (the longest game the board keeps: nor at its limit)
        inf = app.inf
        if app.pending < 0 and not inf.restoring and name in inf.buttons:
            if inf.pressed() != name or self._button_move() < 0:
                inf.press(name)  # pressed again with its move on the board: that move
            m = self._button_move()
            if m >= 0:
                text = pos.move_text(m)
                self._play_pressed(m, now)
                return "played %s" % text
            words = layers.pressed_words(name, inf.armed != 0)
            app.emit((E.SAY, words))
            return words
        m = layers.button_move(pos, name)
        if m < 0:
            raise XoboError("%s does nothing now" % name)
        if app.pending >= 0:
            raise XoboError("the %s move %s waits for the %ss (undo cancels it)" % (
                app.pending_from, pos.move_text(app.pending), layers.PIECE))
        if inf.state != I.MATCH:
            raise XoboError("%s: first put the %ss back as they were" % (name, layers.PIECE))
        text = pos.move_text(m)
        self._play_pressed(m, now)
        return "played %s" % text

    def _play_pressed(self, m, now):
        """A move a button played: committed in play; the learn mode checks it against the
        lesson first (its ``play_pressed``)."""
        app = self.app
        mode = app.mode
        if mode is app:
            app.commit(m, now)
            return
        play = getattr(mode, "play_pressed", None)
        if play is None:
            raise XoboError("the board is busy (self-test): press when it is over")
        play(m, now)

    def unseen_move(self):
        """The one legal move the switches cannot see (an empty footprint: a pass, the end
        of a turn), or -1 (none, or several)."""
        inf = self.app.inf
        found = -1
        for i in range(inf.n_moves):
            if inf.n_l[i] == 0 and inf.n_a[i] == 0 and inf.touch_of[i] == 0:
                if found >= 0:
                    return -1
                found = inf.moves[i]
        return found

    # the gestures' actions (xobo.runtime.gestures.ACTIONS)

    def do_new_game(self, now):
        self.app.new_game(now)

    def do_confirm(self, now):
        app = self.app
        if app.layers.OK_STEPS and app.inf.step_ambiguous(now) >= 0:
            # moves the switches cannot tell apart: ok picks the next (the game asked)
            if app.listeners:
                app.emit((E.SAY, app.guide_text()))
            return
        m = app.inf.confirm()
        if m >= 0:
            app.commit(m, now)
        elif app.listeners:  # nothing to commit: say what the board waits for
            words = app.guide_text()
            if words:
                app.emit((E.SAY, words))

    def do_next(self, now):
        """ok held: after the end the next game; at the start (no move yet, nothing
        waiting) the next of the games; a move with an empty footprint (a pass) when it is
        the only one; else a confirm."""
        app = self.app
        pos = app.pos
        if app.ended():
            app.new_game(now)
            return
        if app.full():  # kept as it is: undo, or ok + undo for a new game
            app.emit((E.SAY, app.full_text()))
            return
        if pos.ply == 0 and app.pending < 0 and app.inf.state == I.MATCH and \
                not app.resumed:
            try:
                app.next_game(now)
            except XoboError as exc:  # (the game that was playing goes on)
                app.emit((E.ERROR, str(exc)))
            return
        m = self.unseen_move()
        if m >= 0 and app.inf.state == I.MATCH:
            app.commit(m, now)
            return
        if app.inf.stepped >= 0:  # a move picked with ok (OK_STEPS): ok held plays it
            m = app.inf.confirm()
            if m >= 0:
                app.commit(m, now)
                return
        self.do_confirm(now)

    def do_undo(self, now):
        try:
            self.app.undo_request(now)
        except XoboError as exc:
            self.app.emit((E.ERROR, str(exc)))

    def do_undo_or_abandon(self, now):
        app = self.app
        if app.resumed and app.pos.ply:
            app.new_game(now)  # long press right after power-up: abandon the resumed game
            return
        if app.pos.ply == 0 and app.pending < 0:  # nothing to undo: the game's lessons
            self.do_learn(now)
            return
        self.do_undo(now)

    def do_learn(self, now):
        """The game's lessons (``xobo.runtime.learn``: imported now, forgotten after)."""
        try:
            from xobo.runtime import learn

            learn.start(self.app, now)
        except (ImportError, XoboError) as exc:
            forget_module("xobo.runtime.learn")
            self.app.emit((E.ERROR, "no lessons: %s" % exc))

    def do_hint(self, now):
        try:
            self.app.computer_player().show_hint(now)
        except XoboError as exc:
            self.app.emit((E.ERROR, str(exc)))

    def do_opponent(self, now):
        """The hint button's long press: the computer opponent goes off -> the players not to
        move (you keep the player to move) -> the player to move (it moves now) -> off. Saved
        and announced like a serial ``set opponent``; the computer's edges double-flash in
        its colour (every edge dim white: off). Returns the new value."""
        app = self.app
        names = app.names
        cur = app.settings["opponent"]
        side = app.pos.side
        mover = names[side]
        others = "+".join(names[p] for p in range(len(names)) if p != side)
        if cur == "off":
            v = others
        elif cur == mover:
            v = "off"
        else:
            v = mover
        app.set_setting("opponent", v, now)
        shown = -1
        if v != "off":
            shown = side if v == mover else (side + 1) % len(names)
        app.light.show_opponent(shown, now)
        return v
