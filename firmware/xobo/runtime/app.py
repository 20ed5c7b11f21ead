"""The board application: scan, debounce, infer, commit, save, light, buttons, serial.

The runtime knows nothing of any game: the game is a setting (``set game x``, the game gesture,
the simulator's menu), and its package (``xobo.games.<name>``, docs/games.md) gives the rules,
the light layers and the words. Only the selected game's modules are imported.

The core is the synchronous :meth:`App.step` (one scan-debounce-infer-render cycle at a given
time), which the asyncio tasks of :func:`main` call on the device and which the tests and the
simulator drive with virtual time. In steady state (no switch change, no commit) a cycle
allocates nothing (tests/boardapp/test_heap.py runs it under ``micropython.heap_lock()``).

The app emits typed events (``xobo.runtime.events``: ``("move", "e5", "(v)")``); the serial
protocol and the simulator format them.

The app keeps the cycle, the session (the position, commits, undo, new game, the moves that
wait for the pieces, the saved game) and the modes; its parts are their own objects:
``app.config`` the settings (``xobo.runtime.settings``), ``app.controls`` what the buttons do
(``xobo.runtime.controls``), ``app.computer_player()`` the computer (``xobo.runtime.computer``,
imported at its first need), and the asyncio tasks are ``xobo.runtime.tasks``; loading a game
is ``xobo.runtime.loading`` (imported when needed).

What happens when (docs/firmware.md has the full story; the gestures come from the board
definition, ``xobo.runtime.gestures``):

- a complete move is committed after the settle time (or at once on ``ok``), saved to flash,
  flashed in white, and announced as ``event move e5 (v)``;
- ``undo`` (button, short or long press, or serial) takes back the last move; the board then
  shows what to restore and waits until the pieces match;
- ``ok`` + ``undo`` held together start a new game; a long press on ``undo`` abandons the
  resumed game for a new one only right after power-up (until the first move or undo since
  the boot): otherwise it is an undo like a short press, so nothing is ever lost by it; a
  long press on ``ok`` after the end of a game starts the next one; at the start of a game
  (no move yet) it changes the game (the next of ``xobo.games.GAMES`` installed), and the
  new game's cells flash;
- ``hint`` (button or serial, with hints on) shows the AI's suggested move; a long press on
  ``hint`` cycles the computer opponent: off -> the players not to move -> the player to move
  -> off (saved like ``set opponent``, ``event setting opponent ew``, the computer's edges
  flash);
- with ``opponent`` set, the computer's moves are shown in light and wait for the pieces.

Usage::

    >>> from xobo.drivers.virtual import make_virtual_drivers
    >>> from xobo.runtime.app import App
    >>> d = make_virtual_drivers()
    >>> app = App(d)                    # on the device: xobo.runtime.device.run() (main.py)
    >>> app.subscribe(print)            # typed events
    >>> d.switches.put(40)              # a cube on e5
    >>> for cycle in range(120):        # 1.2 s of cycles: the settle time commits the move
    ...     now = d.clock.advance(10)
    ...     app.step(now)
    ('switch', 'e5', 'on')
    ('move', 'e5', '')
"""

from array import array

from xobo import games
from xobo.compat import (
    collect,
    const,
    forget_module,
    mem_free,
    ticks_diff,
    ticks_us,
)
from xobo.errors import XoboError, is_power_cut
from xobo.runtime import events as E
from xobo.runtime import inference as I
from xobo.runtime.controls import Controls
from xobo.runtime.gestures import gesture_of
from xobo.runtime.settings import GAME_AI_KEYS, BoardSettings
from xobo.runtime.topology import NONE, cell_name, from_boarddef

CYCLE_MS = const(10)
ERROR_REPEAT_MS = const(1000)  # a repeated out-of-memory error is announced once a second
AI_TIME_MS = const(1800)  # the search's bound: a move or hint within 2 s on a Pico


def _count(t, k, us):
    """Add one timing of ``us`` microseconds at ``t[k]`` (count, total, max)."""
    if t[k + 1] > 0x3FFFFFFF - us:  # a long run: halve, the mean stays (no overflow)
        t[k] >>= 1
        t[k + 1] >>= 1
    t[k] += 1
    t[k + 1] += us
    if us > t[k + 2]:
        t[k + 2] = us


class App:
    """The board's application over a ``xobo.drivers.Drivers`` (real or virtual)."""

    def __init__(self, drivers, settings=None, now=None, listener=None, inference=None,
                 resume=True, lean=False):
        self.d = drivers
        self.resume_at_boot = resume  # False: the saved game stays on the flash, unread
        self.topo = from_boarddef(drivers.boarddef)
        self.raw = bytearray(self.topo.n_cells)
        self.ev = drivers.debouncer.new_event()
        self.bev = drivers.buttons.new_event()
        # what the buttons do (the board definition's gestures; the game's own buttons)
        self.controls = Controls(self, gesture_of(drivers.boarddef))
        self.computer = None  # the computer player, made at its first need (computer_player)
        self.listeners = [listener] if listener is not None else []
        self.note = ""  # what the last load said (the boot's note: ``event boot``)
        # the boot (or the last game loaded) fell back: a save or the settings could not be
        # used as they were; the note says why (``event boot``, serial ``boot``, and the
        # board's words until the position changes: ``boot_words``)
        self.fallback = False
        self.boot_note = ""  # the power-up's note, kept for a host that asks later (``boot``)
        self.boot_words = ""  # a fallback's note, said with the board's words until the
        # position changes (``guide_text``: serial ``state``, the page)
        self.pending = -1  # host/computer move waiting for the pieces
        # [PLAYER, WINNER|none] of a resignation the host announced (``resign``): the game
        # is over, kept in its save; a new position clears it
        self.resigned = None
        # the game's own id (``xobo.runtime.gameid``), drawn when the game starts and kept in
        # its save: a host keeps one record a game by it ('' while no game is played)
        self.gameid = ""
        self.pending_from = ""
        self.ai_failed_ply = -1  # the computer could not play this position: not again
        self.ai_time_ms = AI_TIME_MS  # bound of the computer's search (watchdog: 8 s)
        self.hint_move = -1  # the move the hint shows, -1 none
        self.release_ai = lean  # the device drops the AI's buffers after each search
        # a game switch that restarts the board (``switches_by_restart``), once the reply is out
        self.restart_requested = False
        self.due = 0  # a game switch's writes, made after its first light (save_due)
        self.lean = lean  # the device unloads what play does not need (the loading code)
        self.mode = self  # the board's mode: the game (this App), or the self-test's
        self.selftest = None  # the SelfTest while its mode runs
        self.observes = True  # the play mode gives the switches to the inference
        self.resumed = False
        self.last_state = -1
        self.shown_at = 0
        self.force_show = True
        self.first = 0
        self.start = ""  # the position notation of a loaded start position, "" for the start
        self.saved = None  # the current game's save slots (storage.SavedGame), None: none
        self.unsaved = False  # the position changed and was not saved yet
        # cycle timings for the serial `timing` command (microseconds; no allocation):
        # [scans, scan total, scan max, renders, render total, render max, LED writes,
        #  write total, write max]
        self.timing = array("i", [0] * 9)
        self.mem_errors = 0  # MemoryErrors caught in a cycle (recover_memory)
        self.unrecovered = False  # a recovery could not rebuild the board: the next cycle will
        self.mem_error_at = 0
        # the settings (xobo.runtime.settings): ``stored`` every game's, ``settings`` the
        # board's and the current game's (a view, always the same dict)
        self.config = BoardSettings()
        self.stored = self.config.stored
        self.settings = self.config.values
        self.params = {}  # the parameters of the game in progress (its save's header)
        # the game played (``install_game``: xobo.runtime.loading makes its parts)
        self.game = None  # its package (xobo.games)
        self.rules = None  # its engine part
        self.names = ()  # its players' names
        self.n = 0  # its cells
        self.n_width = 0  # its width: the cells' names (cell_name)
        self.inf = None  # the inference over its cells (xobo.runtime.inference)
        self.occ = None  # its cells' debounced occupancy (bytearray)
        self.layers = None  # its light layers (its board part's Layers)
        self.light = None  # the light over them (xobo.runtime.light)
        self.regauge = None  # its cells whose stack height is to be set again (set_regauge)
        self.pos = None  # the position
        self.place = None  # the position's placement on the board (topology)
        self.loading().storage_init(self)  # the settings on flash
        # the saved game setting's game, or the default one with a note saying why not (it does not
        # fit this board, does not import, is no game): a setting never stops the boot; then
        # the settings given by the caller (simulator, tests), kept on flash like a `set`
        self.loading().start_game(self, self.stored.get("game", games.DEFAULT), inference,
                                  settings)
        if now is None:
            now = drivers.clock.ticks_ms()
        # the power-up: the saved game (resumed, cells that differ shown), self-test if both
        # buttons are held (``xobo.runtime.loading.boot``)
        self.loading().boot(self, now)
        self.loaded()

    # ------------------------------------------------------------ the game

    def install_game(self, parts):
        """Play what ``xobo.runtime.loading`` loaded (its ``GameParts``, once per load): the
        game's parts when the load made them (the position comes after), the game in
        progress, its save and what the load says."""
        game = parts.game
        if game is not None:
            n = parts.n
            self.game = game
            self.rules = parts.rules
            self.names = game.PLAYER_NAMES
            self.n = n
            self.n_width = parts.width
            self.inf = parts.inf
            self.occ = bytearray(n)
            self.layers = parts.layers
            light = parts.light
            light.hints = self.settings["hints"] == "on"
            self.light = light
            self.regauge = bytearray(n)
            self.pos = None
            self.place = None
            self.force_show = True  # (a new light: shown whole, its state looked at again)
            self.last_state = -1
        if parts.pos is not self.pos:
            self.set_position(parts.pos)
        self.resigned = parts.resigned
        self.gameid = parts.gameid
        self.params = parts.params
        self.first = parts.first
        self.start = parts.start
        self.saved = parts.saved
        self.resumed = parts.resumed
        self.note = parts.note
        self.fallback = parts.fallback
        self.due |= parts.due
        self.restart_requested = parts.restart

    def drop_game(self, everything=False):
        """Let the game's position, light and layers go (before another game's are made:
        the heap has room for one set); ``everything``: its inference and package too."""
        self.pos = None
        self.light = None
        self.layers = None
        if everything:
            self.inf = None
            self.game = None

    def set_position(self, pos):
        """``pos`` is the position: the game's grid on the board for it (its size may be a
        game setting). Nothing else follows it yet (``position_changed``)."""
        self.pos = pos
        self.resigned = None
        self.ai_failed_ply = -1  # (the computer may play a new position)
        self.n_width = pos.width
        p = self.place
        if p is None or p.width != pos.width or p.height != pos.height:
            used = getattr(pos, "used", None)
            self.place = self.topo.place(pos.width, pos.height, used)
            self.light.dark = True

    def cell_name(self, c):
        """The name of the game's cell ``c`` in the game's own notation ('e5' is XoBo's
        centre also on the 15 x 15 board, where it is the board's h8): the moves, the
        cells to fix and the words all speak the game's notation; only ``event switch``
        names the board's cells."""
        return cell_name(c, self.n_width)

    def game_params(self):
        """The parameters of the game in progress (its save's header: X's size, XoBo's
        variant...): a setting changed during the game is for the next new game."""
        return self.params

    def start_params(self):
        """A game starts now: its parameters are the settings' (the first player apart)."""
        s = self.settings
        return {k: s[k] for k in self.game.SETTINGS if k != "first"}

    # ------------------------------------------------------------ storage

    def save_game(self):
        """Save the game (after every commit, undo, new game, load). PowerCut propagates."""
        if self.saved is None:
            return
        pos = self.pos
        # the moves one at a time (a long game's save is never one block), in the text that
        # names a move without the position before it (Brochs: without its captures)
        text = getattr(pos, "history_text", pos.move_text)
        moves = (text(pos.move_at(i)) for i in range(pos.ply))
        try:
            self.saved.save(self.settings["game"], self.game_params(), self.first, self.start,
                            moves, resigned=self.resigned, gameid=self.gameid)
            self.unsaved = False
        except (OSError, ValueError) as exc:
            self.emit((E.ERROR, "the game could not be saved: %s" % exc))

    def save_due(self):
        """The writes a game switch puts off (``due``: 1 the settings, 2 the game) until its
        reply and its first light are out (``render``): a littlefs write took 10-27 ms of the
        switch on the emulated Pico, more when it erases a block. A power cut before then
        boots the game that was playing, as if the switch had not been asked."""
        due = self.due
        self.due = 0
        if due & 2:
            self.save_game()
        if due & 1:
            self.save_settings()

    def save_settings(self):
        """Save every setting on flash; a failure is announced (``event error``)."""
        try:
            self.config.save()
        except (OSError, ValueError) as exc:
            self.emit((E.ERROR, "the settings could not be saved: %s" % exc))

    # ------------------------------------------------------------ power-up

    def told(self, note, fallback):
        """What the power-up says (``note``; ``fallback``: it fell back, the note says why),
        kept (serial ``boot``); a fallback's is also said with the board's words until the
        game goes on (``guide_text``)."""
        self.note = note
        self.fallback = fallback
        self.boot_note = note = note or "new game"
        self.boot_words = note if fallback else ""

    # ------------------------------------------------------------ events

    def subscribe(self, callback):
        """callback(event) for every event: a tuple (``xobo.runtime.events``)."""
        self.listeners.append(callback)

    def emit(self, ev):
        for cb in self.listeners:
            cb(ev)

    # ------------------------------------------------------------ the cycle

    def step(self, now):
        """One scan-debounce-infer-render cycle at ``now`` (ms ticks)."""
        self.scan(now)
        self.render(now)

    def scan(self, now):
        """Scan, debounce, infer, commit (and the computer's turn). A MemoryError anywhere in
        it is caught: the board says so, collects and goes on (``recover_memory``)."""
        t0 = ticks_us()
        try:
            if self.unrecovered:  # the last recovery could not rebuild the board: again
                self.recover_memory(now, "scan")
            else:
                self._scan(now)
        except MemoryError:
            self.recover_memory(now, "scan")
        _count(self.timing, 0, ticks_diff(ticks_us(), t0))

    def recover_memory(self, now, where):
        """After a MemoryError in ``where``: collect, announce ``event error out of memory
        ...``, and make the board consistent with the position again (the light and the
        inference are rebuilt from it, and it is saved again: a commit or undo cut short
        may not have reached the flash). The saved game itself is never harmed: a save is
        written whole to the other slot or not at all. Never raises (but a power cut): when
        the board cannot be rebuilt yet, the next cycles try again (``unrecovered``)."""
        collect()
        self.unrecovered = True
        try:
            self.position_changed(now, restore=self.inf.restoring)
            self.last_state = self.inf.state
            self.force_show = True
            if self.unsaved:
                self.save_game()
            self.unrecovered = False
            why = ""
        except MemoryError:  # still nothing: the next cycle tries again
            collect()
            why = "still out of memory"
        except Exception as exc:  # a state half rebuilt: say so, the next cycle tries again
            if is_power_cut(exc):
                raise
            why = "then %s: %s" % (exc.__class__.__name__, exc)
        if self.mem_errors == 0 or ticks_diff(now, self.mem_error_at) >= ERROR_REPEAT_MS:
            try:
                if why:
                    self.emit((E.ERROR, "out of memory in the %s, %s (trying again)"
                               % (where, why)))
                else:
                    self.emit((E.ERROR, "out of memory in the %s: collected (%d bytes free), "
                               "going on" % (where, mem_free())))
            except MemoryError:
                collect()
            self.mem_error_at = now
        self.mem_errors += 1

    def observe(self, now):
        """The debounced occupancy of the game's cells to the inference (the board's cells
        outside the game are not looked at). No allocation."""
        stable = self.d.debouncer.stable
        occ = self.occ
        to_board = self.place.to_board
        for c in range(self.n):
            b = to_board[c]
            occ[c] = stable[b] if b != NONE else 0
        self.inf.observe(occ, now)

    def read_switches(self, now):
        """Scan the matrix and debounce: announce each change (``event switch e5 on``) and
        give the debounced occupancy to the inference (not during the self-test)."""
        d = self.d
        raw = self.raw
        d.matrix.scan_into(raw)
        if d.debouncer.update(raw, now):
            ev = self.ev
            while d.debouncer.get_into(ev):
                if self.listeners:
                    self.emit((E.SWITCH, self.topo.cell_name(ev[0]), "on" if ev[1] else "off"))
            if self.mode.observes:
                self.observe(now)

    def _scan(self, now):
        d = self.d
        self.read_switches(now)
        d.buttons.update(now)
        bev = self.bev
        while d.buttons.get_into(bev):
            self.mode.button(bev[0], bev[1], now)
        d.watchdog.feed()
        self.mode.step_mode(now)

    def step_mode(self, now):
        """The play mode's part of a scan: timers, commits, the computer's turn."""
        inf = self.inf
        m = inf.poll(now)
        if m >= 0:
            self.commit(m, now)
        if inf.state != self.last_state:
            self._state_changed(now)
        if (self.pending < 0 and inf.state == I.MATCH and self.ai_failed_ply != self.pos.ply
                and self.settings["opponent"] != "off"):
            try:
                self.computer_player().turn(now)
            except XoboError as exc:  # said once: not tried again until the position changes
                self.ai_failed_ply = self.pos.ply
                self.emit((E.ERROR, "the computer cannot play: %s" % exc))

    def render(self, now):
        """Render the light; the LEDs are written only when a colour changed: a WS2812 write
        masks interrupts for ~3.5 ms."""
        t0 = ticks_us()
        try:
            self._render(now)
        except MemoryError:
            self.recover_memory(now, "light")
        _count(self.timing, 3, ticks_diff(ticks_us(), t0))
        if self.due:  # (after the light: a game switch's writes)
            self.save_due()

    def _render(self, now):
        if not self.mode.paint(now):
            return
        leds = self.d.leds
        self.force_show = False
        self.shown_at = now
        t0 = ticks_us()
        leds.show()
        _count(self.timing, 6, ticks_diff(ticks_us(), t0))

    def paint(self, now):
        """The play mode's light: True when the LEDs are to be written (a colour changed)."""
        if self.light.render(now) or self.force_show:
            self.light.output(self.d.leds, self.place)
            return True
        return False

    def _state_changed(self, now):
        inf = self.inf
        prev = self.last_state
        self.last_state = inf.state
        if not self.listeners:
            return
        st = inf.state
        if st == I.FIX or (st == I.RESTORE and prev != I.RESTORE):
            from xobo.runtime import guide

            self.emit(guide.fix_event(self))
        elif st == I.OFFER:  # left after a fix: ask, in words, rather than commit by time
            self.emit((E.SAY, self.guide_text()))
        elif st == I.MATCH and prev in (I.RESTORE, I.FIX):
            self.emit((E.MATCH,))


    def set_regauge(self, before, after):
        """Mark the cells occupied before and after whose height differs (None: none)."""
        for c in range(self.n):
            a = before[c] if before is not None else 0
            b = after[c] if before is not None else 0
            self.regauge[c] = 1 if (a and b and a != b) else 0

    def guide_text(self):
        """What the board asks for, in words (``xobo.runtime.guide``: imported at the first
        fix, the first ``state`` or an ok with nothing to commit; the light says the same
        without it), or the learn mode's lesson."""
        say = getattr(self.mode, "say", None)  # the learn mode says its lesson
        if say is not None:
            return say()
        from xobo.runtime import guide

        words = guide.guide_text(self)
        if self.boot_words:  # what the power-up could not do, until the game goes on
            return "at power-up: %s. %s" % (self.boot_words, words) if words else \
                "at power-up: " + self.boot_words
        return words

    # ------------------------------------------------------------ game changes

    def full(self):
        """True when the game has reached the longest game the board keeps (the game's
        MAX_PLIES): it ends there, as if over (docs/firmware.md, "The longest games")."""
        return self.pos.ply >= self.rules.MAX_PLIES

    def full_text(self):
        return "the game has reached %d moves, the longest this board keeps: undo, or " \
            "start a new game" % self.rules.MAX_PLIES

    def room(self):
        """XoboError saying so when the game has reached the longest game the board keeps:
        no move more is played, by any path (the pieces, a button, serial ``move``, the
        computer), so the game stays within what its save and its history hold."""
        if self.full():
            raise XoboError(self.full_text())

    def position_changed(self, now, restore=False):
        """The position changed (a move, an undo, a load): the inference, the light and the
        waiting moves follow it; ``restore``: the pieces may differ from it (shown to fix)."""
        self.boot_words = ""  # (the game goes on: what the power-up said is said)
        # after the end the pieces may be moved freely: nothing to restore or fix
        self.inf.set_position(self.pos, restore, self.ended() or self.full())
        self.light.set_position(self.pos)
        r = self.resigned
        if r:  # the game's own light of a win (no single winner: -2, nobody's edges)
            self.layers.winner = self.names.index(r[1]) if r[1] in self.names else -2
        self.light.show_hint(self.pos, -1, now)
        self.hint_move = -1
        self.pending = -1
        self.pending_from = ""
        self.inf.changed_at = now  # the settle time counts from the position change

    def commit(self, m, now):
        """Play move m (inferred from the pieces, or a host/computer move they completed).
        Every path refuses a move past the longest game the board keeps before it gets here
        (``room``; the inference is over there: tests/boardapp/test_limits.py)."""
        pos = self.pos
        text = pos.move_text(m)
        self.changing()
        self.light.flash_move(pos, m, now)
        pos.apply(m)
        self.light.show_adjust(None, None, now)  # no stack heights to adjust any more
        self.set_regauge(None, None)
        self.position_changed(now)
        self.last_state = self.inf.state
        self.save_game()
        layers = self.layers
        self.emit((E.MOVE, text, layers.annotation(pos)))
        if self.listeners:
            for ev in layers.commit_events(pos, m):
                self.emit(ev)
        r = layers.result_event(pos)
        if r is not None:
            self.emit((E.RESULT, r[0], r[1]))
        elif self.full():
            self.emit((E.SAY, self.full_text()))

    def resign_words(self, text):
        """``PLAYER WINNER|none`` of a resignation, checked: [PLAYER, WINNER|none]."""
        w = text.split()
        n = self.names
        if len(w) != 2 or w[0] not in n or w[0] == w[1] or w[1] not in n and w[1] != "none":
            raise ValueError("usage: resign PLAYER WINNER|none")
        return w

    def resign(self, words, now):
        """The game is over by a resignation (``resign_words``, the host's): saved so, and
        announced (``event result WINNER PLAYER-resigned``)."""
        self.resigned = words
        self.position_changed(now)
        self.save_game()
        self.emit((E.RESULT, words[1], words[0] + "-resigned"))

    def ended(self):
        """The game is over: by its rules, or by a resignation (``resign``)."""
        return self.resigned or self.pos.is_terminal()

    def playing(self):
        """XoBoError, saying how it ended, when the game is over."""
        if self.ended():
            raise XoboError("the game is over (%s)" % self.result_text())

    def undo(self, now):
        """Take back the last move; returns its notation or raises XoboError."""
        pos = self.pos
        if self.resigned:  # (the host's: the match ended)
            self.playing()
        if pos.ply == 0:
            raise XoboError("nothing to undo: this is the start of the game")
        before = bytes(pos.heights)
        text = pos.move_text(pos.last_move())
        self.changing()
        pos.undo()
        self.light.show_adjust(before, pos.heights, now)
        self.set_regauge(before, pos.heights)
        self.position_changed(now, restore=True)
        self.ai_failed_ply = -1
        self.save_game()
        self.emit((E.UNDO, text))
        return text

    def changing(self):
        """The position changes (a move, an undo, a new game, a load): a long press on undo
        is an undo from now on, and the change is not saved yet."""
        self.resumed = False
        self.unsaved = True

    def new_game(self, now):
        self.changing()
        w, h = self.game.area(self.settings)
        if w * h != self.n:
            # a setting of the game's size (X's size, Chain Reaction's field) takes effect
            # now: the game's per-cell buffers are made again at the new size
            self.loading().resize_game(self)
            self.loaded()
        self.light.show_adjust(None, None, now)
        self.set_regauge(None, None)
        self.set_position(self.game.new_position(self.settings))
        self.params = self.start_params()
        from xobo.runtime.gameid import draw

        self.gameid = draw(self.d)
        self.first = self.pos.side
        self.start = ""
        self.position_changed(now, restore=True)
        self.save_game()
        self.emit((E.NEW, self.settings["game"], self.params_text(), self.names[self.first]))

    def params_text(self):
        """The game's parameters in words: 'variant=kv' ('' when it has none)."""
        p = self.game_params()
        return " ".join("%s=%s" % (k, p[k]) for k in sorted(p))

    def load_position(self, text, now):
        """Start a game from a position in the game's notation (raises PositionError); the
        board shows the cells to fix until the pieces match (``xobo.runtime.loading``)."""
        try:
            self.loading().load_position(self, text, now)
        finally:
            self.loaded()

    def show_position(self, pos, now):
        """Make ``pos`` the position (a load, a lesson): the board shows the cells to fill,
        clear and adjust until the pieces match. Nothing is saved or announced
        (``xobo.runtime.loading``)."""
        try:
            self.loading().show_position(self, pos, now)
        finally:
            self.loaded()

    def set_game(self, name, now):
        """Play game ``name`` from now on: its saved game is resumed (each game keeps its
        own), else a new game starts (``xobo.runtime.loading.set_game``)."""
        note = self.loading().set_game(self, name, now)
        self.loaded()
        return note

    def next_game(self, now):
        """The game gesture: the next installed game (``xobo.runtime.loading``)."""
        note = self.loading().next_game(self, now)
        self.loaded()
        return note

    def loading(self):
        """The module that loads games (the saved game at boot, ``set game``): imported when
        needed and, on the device (``lean``), unloaded after (it is not needed in play)."""
        from xobo.runtime import loading

        return loading

    def loaded(self):
        """After a load: on the device (``lean``) the loading code is unloaded."""
        if self.lean:  # (and the code that reads saves, imported by the storage to load)
            forget_module("xobo.runtime.loading")
            forget_module("xobo.runtime.saveread")

    def expect_move(self, m, source, now):
        """A host or computer move: shown in light; the pieces commit it. XoboError when the
        game is over or has reached the longest game the board keeps."""
        self.playing()
        self.room()
        inf = self.inf
        if not inf.set_target(m):
            raise XoboError("%s is not legal now" % self.pos.move_text(m))
        self.pending = m
        self.pending_from = source
        self.emit((E.EXPECT, source, self.pos.move_text(m)))
        i = inf.target_index
        if inf.n_l[i] == 0 and inf.n_a[i] == 0:  # no piece moves (a pass): nothing to wait for
            self.commit(m, now)

    def cancel_pending(self, now):
        """Forget the host/computer move waiting for the pieces; returns its notation ('' if
        none) and sends ``event cancel host|computer e5``."""
        if self.pending < 0:
            return ""
        text = self.pos.move_text(self.pending)
        source = self.pending_from
        self.inf.changed_at = now
        self.pending = -1
        self.pending_from = ""
        self.inf.clear_target()
        self.emit((E.CANCEL, source, text))
        return text

    def undo_request(self, now):
        """The undo button or serial ``undo``: cancels a waiting host/computer move and
        takes back the last move. A host move waiting (another table's, in a match) is the
        match's last move: undo cancels it and takes back nothing of this board's own (its
        players agreed to take that move back, or ask to: the host says which). Returns
        what was done ('e4', 'e4 (cancelled the expected move e5)', or 'cancelled the
        expected move e5'); raises XoboError when there is nothing to undo or cancel."""
        host = self.pending_from == "host"
        cancelled = self.cancel_pending(now)
        if cancelled and (host or self.pos.ply == 0):
            return "cancelled the expected move %s" % cancelled
        text = self.undo(now)
        if cancelled:
            text += " (cancelled the expected move %s)" % cancelled
        return text

    # ------------------------------------------------------------ the computer, the buttons

    def computer_player(self, gone=False):
        """The computer player (``xobo.runtime.computer.Computer``), imported and made at its
        first need (a hint, the computer's turn, the opponent switched on): a board that only
        referees never loads it. ``gone``: its code left the heap (``Computer.done``), and it
        goes too: the next need makes it again."""
        c = self.computer
        if gone:
            c = self.computer = None
        elif c is None:
            from xobo.runtime.computer import Computer

            c = self.computer = Computer(self)
        return c

    def show_hint(self, m, now):
        """Show move ``m`` as the hint (the computer's, a lesson's): in light, and announced
        (``event hint e5``)."""
        self.hint_move = m
        self.light.show_hint(self.pos, m, now)
        self.emit((E.HINT, self.pos.move_text(m)))

    def button(self, kind, name, now):
        """The play mode's button event: the controls' (``xobo.runtime.controls``)."""
        self.controls.button(kind, name, now)

    # ------------------------------------------------------------ settings

    def set_setting(self, key, value, now=None):
        """Validate, apply, save and announce (``event setting KEY VALUE``); returns a note
        ('' or 'from the next new game'). A computer move waiting for the pieces
        is cancelled when the computer no longer plays the player to move, or when the level
        changes before any piece of it was moved (the computer then chooses again)."""
        t = self.d.clock.ticks_ms() if now is None else now
        if key == "game":
            v = self.config.check(key, value)
            if v == self.settings["game"]:
                self.emit((E.SETTING, key, v))
                return ""
            return self.set_game(v, t)
        v = self.config.check(key, value)
        old = self.settings.get(key)
        self.config.put(key, v)
        if key == "settle":
            self.inf.set_settle(v)
        elif key == "brightness":
            self.apply_brightness()
        elif key == "hints":
            self.light.hints = v == "on"
        elif key in GAME_AI_KEYS:
            self.ai_failed_ply = -1
            if (key == "opponent" and self.pending_from == "computer"
                    and not self.computer_player().plays(self.pos.side)):
                self.cancel_pending(t)
            elif (key == "level" and v != old and self.pending_from == "computer"
                  and self.inf.n_lifted == 0 and self.inf.n_added == 0):
                # no piece of it moved yet: the computer chooses again at the new level
                self.cancel_pending(t)
            if key == "opponent" and v != "off":
                self.computer_player().load()
        self.save_settings()
        self.emit((E.SETTING, key, v))
        if key in self.game.NEW_GAME_SETTINGS:
            # the game in progress keeps its own (its save's header, its record)
            cur = self.names[self.first] if key == "first" else self.params.get(key, old)
            if cur != v:
                return "from the next new game"
        return ""

    def apply_brightness(self):
        """The LEDs' brightness and the hints' light as the settings say."""
        self.d.leds.brightness = self.settings["brightness"] * 255 // 100
        self.force_show = True
        self.light.hints = self.settings["hints"] == "on"

    # ------------------------------------------------------------ self-test

    def set_mode(self, mode, saved, gameid):
        """The board's mode from now on (the game: this App; the learn mode's,
        ``xobo.runtime.learn``), the game's save slots and its id meanwhile (None and '':
        nothing is saved, a lesson's position); the light is shown whole again."""
        self.mode = mode
        self.saved = saved
        self.gameid = gameid
        self.force_show = True

    def state_seen(self):
        """True once for each new state of the inference (``last_state``: the learn mode's
        cycle; the play mode's looks at the state before too)."""
        st = self.inf.state
        if st == self.last_state:
            return False
        self.last_state = st
        return True

    def start_selftest(self, now):
        """Enter the self-test mode (``xobo.runtime.selftest.SelfTestMode``): the switches
        and buttons go to it, the game waits."""
        try:
            from xobo.runtime.selftest import SelfTest, SelfTestMode
        except ImportError:
            raise XoboError("self-test is not available (xobo.runtime.selftest missing)") \
                from None
        bd = self.d.boarddef
        st = SelfTest(cell_of_key=getattr(bd, "cell_of_key", None), topology=self.topo)
        st.start(now)
        self.selftest = st
        self.mode = SelfTestMode(self, st)
        self.emit((E.SELFTEST, "start"))

    def end_selftest(self, now):
        """Back to the game's mode after the self-test: its report as events."""
        st = self.selftest
        self.selftest = None
        self.mode = self
        self.force_show = True
        self.light.dark = True
        for line in st.report_lines():
            self.emit((E.SELFTEST, line[9:] if line.startswith("selftest ") else line))
        self.observe(now)
        self.last_state = -1

    # ------------------------------------------------------------ state for hosts

    def side_name(self):
        return self.names[self.pos.side]

    def result_name(self):
        r = self.resigned
        if r:
            return r[1]
        if not self.pos.is_terminal():
            return "*"
        w = self.pos.winner()
        return self.names[w] if w >= 0 else "draw"

    def result_text(self):
        """'*' while the game goes on, else the winner and how: 'ew blocus', 'ew ns-resigned'
        ('none red-resigned': no single winner)."""
        r = self.resigned
        if r:
            return "%s %s-resigned" % (r[1], r[0])
        return self.layers.end_text(self.pos)
