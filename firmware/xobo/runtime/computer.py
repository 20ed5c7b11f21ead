"""The computer player: its AI module (loaded, released, unloaded), its turn, the hints, and
the board's cycle while it thinks.

Imported by the app when the computer is first needed (a hint, the ``opponent`` setting
switched on, or on at boot): a board that is only refereed never loads it.

Usage (the app's)::

    >>> from xobo.runtime.virtual_board import VirtualBoard
    >>> vb = VirtualBoard(settings={"game": "tiny", "opponent": "o"})
    >>> app = vb.app
    >>> now = vb.clock.ticks_ms()
    >>> c = app.computer_player()         # this module's Computer, made at the first need
    >>> c.plays(1)                        # True when the opponent setting names the player (o)
    True
    >>> c.turn(now)                       # the computer's move, when it is its turn (x's now)
    >>> m = c.show_hint(now)              # the AI's move, shown in light
    >>> app.pos.move_text(m)
    'a2'
"""

from xobo.compat import (
    NATIVE_CODE_UNLOADS,
    collect,
    const,
    forget_module,
    is_frozen,
    mem_free,
    ticks_diff,
)
from xobo.errors import XoboError, is_power_cut
from xobo.games import part

_CYCLE_MS = const(10)  # (xobo.runtime.app.CYCLE_MS)
_SETTLE_POLL_MS = const(4)  # the search's scans while a switch settles (poll)
# the device keeps the AI's code between moves while this much heap stays free (the device
# issue's floor, 100 KB, and a margin: with less free the search spends its time in the
# collector, measured on the emulated Pico: hints of 0.9-1.3 s took 1.1-2.1 s at 100 KB)
_AI_KEEP_FREE = const(104000)
_AI_TIME_MS_IMAGE = const(1300)  # the search's bound when the AI is frozen into the image
_AI_TIME_MS_LEAST = const(300)  # the search's bound is never cut below this (search_ms)


class Computer:
    """The computer player of ``app`` (an ``xobo.runtime.app.App``): it reads the app's
    ``ai_time_ms`` (the search's bound) and ``release_ai`` (the device drops the AI's buffers
    after each search); its turn raises XoboError saying why it cannot play."""

    def __init__(self, app):
        self.app = app
        self.polled_at = 0  # the last board cycle run from inside a search (poll)
        self.polls = 0  # board cycles run from inside searches
        self.poll_fn = self.poll  # one bound method, made once (the search's poll)
        # the game's AI stays loaded with its buffers after a search: frozen into the image,
        # native code this port cannot unload, or a computer that says so (KEEP_LOADED);
        # known once it is loaded
        self.kept = None
        # the search's bound when the AI is frozen into the image (0: the app's ai_time_ms)
        self.ai_time_ms = 0

    def plays(self, player):
        """True when the computer plays ``player`` (the opponent setting)."""
        app = self.app
        v = app.settings["opponent"]
        if v == "off":
            return False
        name = app.names[player]
        return v == name or v.startswith(name + "+") or v.endswith("+" + name)

    def load(self):
        """The game's AI module, imported now if it is not yet (after a collection: it is the
        largest import), or None when it is not installed. The board calls it when the
        computer opponent is switched on (or is on at boot), because the import takes 0.33 s
        on a Pico without scanning: better then than at the computer's first turn, while a
        player may be moving pieces; else the first hint imports it."""
        app = self.app
        # (kept loaded, as with the image: no collection, which would hold the board's scan
        # 11-16 ms on a Pico at every computer's turn)
        if not self.kept:
            collect()
        try:
            ai = part(app.game, "computer")
        except ImportError:
            return None
        if app.release_ai and self.kept is None:  # (the device: known once)
            # frozen, or native code on a port that cannot unload it (a soak on the unix
            # port): kept after a search, as importing it again would free nothing; or a
            # small computer whose buffers are large for the heap its board leaves
            # (KEEP_LOADED: docs/games.md, "The computer")
            flash = is_frozen(ai)
            if flash:
                # in flash (the image), the budget is 1.5 s (issue 19): the search's bound,
                # with the clone, the setup and the reply around it
                self.ai_time_ms = _AI_TIME_MS_IMAGE
            self.kept = flash or getattr(ai, "KEEP_LOADED", False) or (
                not NATIVE_CODE_UNLOADS and getattr(ai, "NATIVE", False))
        return ai

    def show_hint(self, now):
        """Ask the AI for a move and show it; returns the move. While a host or computer move
        waits for the pieces, that move is the one to play: it is shown again (no search)."""
        app = self.app
        pos = app.pos
        if app.pending >= 0:
            m = app.pending
        else:
            m = self._search_hint(pos)
            now = app.d.clock.ticks_ms()
        app.show_hint(m, now)
        return m

    def _search_hint(self, pos):
        """The AI's hint for ``pos`` (XoboError when there is none to give)."""
        app = self.app
        if app.settings["hints"] != "on":
            raise XoboError("hints are off (set hints on)")
        if app.ended():  # (by its rules, or a resignation)
            raise XoboError("the game is over: no hint")
        if app.full():
            raise XoboError(app.full_text())
        t0 = app.d.clock.ticks_ms()
        ai = self.load()
        if ai is None:
            raise XoboError("no hints: the computer player of %s is not installed"
                            % app.settings["game"])
        app.light.thinking = pos.side
        try:
            m = ai.choose_move(pos.clone(), level=ai.HINT_LEVEL, seed=pos.ply,
                               time_ms=self.search_ms(t0), poll=self.poll_fn)
        except ai.SearchCancelled:
            raise XoboError("no hint: the board changed while the computer was thinking "
                            "(ask again)") from None
        finally:
            app.light.thinking = -1
            self.done(ai)
        return m

    def turn(self, now):
        """The computer's move when it plays the player to move (the play mode's cycle asks
        at each scan while the pieces match): searched, then shown in light for the pieces
        (``App.expect_move``). XoboError says why it cannot play (the app announces it once
        for the position)."""
        app = self.app
        pos = app.pos
        if app.ai_failed_ply == pos.ply or not self.plays(pos.side) or pos.is_terminal() \
                or app.full():
            return
        t0 = app.d.clock.ticks_ms()
        ai = self.load()
        if ai is None:
            raise XoboError("the computer player of %s is not installed"
                            % app.settings["game"])
        app.light.thinking = pos.side
        self.poll()  # (a switch that changed while the computer's code loaded)
        try:
            app.d.watchdog.feed()  # the search polls the board: bounded by ai_time_ms too
            m = ai.choose_move(pos.clone(), level=app.settings["level"], seed=pos.ply,
                               time_ms=self.search_ms(t0), poll=self.poll_fn)
        except ai.SearchCancelled:
            return  # a button was pressed: the cycle handles it, then the computer thinks again
        except MemoryError:
            raise  # the cycle's recovery (App.recover_memory)
        except Exception as exc:  # an AI bug must not stop the board
            if is_power_cut(exc):
                raise
            raise XoboError(str(exc)) from None
        finally:
            app.light.thinking = -1
            self.done(ai)
        app.expect_move(m, "computer", app.d.clock.ticks_ms())

    def search_ms(self, t0):
        """The search's bound for a move or hint asked at ``t0``: ``ai_time_ms`` less what
        loading the computer's code took (a stock firmware imports it again when the heap
        was short: 0.33 s on a Pico, which made XoBo's move 2,087 ms in the emulated check's
        session), never below _AI_TIME_MS_LEAST."""
        app = self.app
        bound = app.ai_time_ms
        if 0 < self.ai_time_ms < bound:  # (the image's)
            bound = self.ai_time_ms
        left = bound - ticks_diff(app.d.clock.ticks_ms(), t0)
        return left if left > _AI_TIME_MS_LEAST else _AI_TIME_MS_LEAST

    def done(self, ai):
        """After a search, on the device (``App.release_ai``): the AI's buffers are dropped,
        and its code too when it came from a file (a stock firmware: the .mpy's bytecode is in
        the heap) and the heap would otherwise have less than _AI_KEEP_FREE bytes free (the next
        search then imports it again: 0.37 s on a Pico, without scanning). Frozen into the
        firmware image (``make firmware``) its code is in flash: kept, it costs only its
        module's globals, and unloading it would save nothing. A computer that says
        ``KEEP_LOADED`` keeps its code and its buffers. With a file's AI this module goes too
        (``App.computer_player`` makes the next Computer)."""
        if not self.app.release_ai:
            return
        if getattr(ai, "KEEP_LOADED", False):
            # dropped, its buffers would be made again at the next search, each in one
            # piece, from a heap that a long game cuts into pieces meanwhile (a Brochs soak
            # ran out of memory for its 2 KB move list with 45 KB free in pieces of 3.7 KB at
            # most: the unix port, the 15x15 board's heap)
            return
        ai.release()
        collect()
        if not self.kept and mem_free() < _AI_KEEP_FREE:
            for name in getattr(ai, "MODULES", (ai.__name__,)):
                forget_module(name)
            # and this module with it: the next search imports both (this one in ~1/20 of
            # the AI's time), the board that only referees meanwhile holds neither
            self.app.computer_player(gone=True)
            forget_module(__name__)
            collect()

    def poll(self):
        """Called by the AI's search, often: every CYCLE_MS (10 ms) it runs the board's scan
        (switches, debounce, inference, buttons, watchdog) and light, so the board answers
        while the computer thinks. Nothing is committed here; returns True (the search stops)
        when a button was pressed: the board's own cycle then handles it (and the computer
        thinks again). Pieces moved meanwhile are shown as they are and never committed: the
        computer's move, once found, is the only move the board then accepts."""
        app = self.app
        d = app.d
        now = d.clock.ticks_ms()
        # while a switch settles, a scan every _SETTLE_POLL_MS and no light: its event goes
        # out as soon as the debounce allows (issue 19: <= 50 ms while the computer thinks;
        # a 15x15 render with its LED write takes ~10 ms on a Pico)
        settling = d.debouncer.settling()
        if ticks_diff(now, self.polled_at) < (_SETTLE_POLL_MS if settling else _CYCLE_MS):
            return False
        self.polled_at = now
        app.read_switches(now)
        d.buttons.update(now)
        d.watchdog.feed()
        self.polls += 1
        # the light every 40 ms: it blinks at 1 Hz while it thinks
        if not self.polls & 3 and not d.debouncer.settling():
            app.render(now)
        return d.buttons.pending() > 0
