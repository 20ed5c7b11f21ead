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

    from xobo.drivers.virtual import make_virtual_drivers
    from xobo.runtime.app import App
    d = make_virtual_drivers()
    app = App(d)
    app.subscribe(print)            # typed events: ('move', 'e5', '')
    app.step(d.clock.ticks_ms())    # one cycle
    # on the device: xobo.runtime.device.run() (firmware/main.py)
"""

from array import array

from xobo import games
from xobo.compat import (
    IS_MICROPYTHON,
    NATIVE_CODE_UNLOADS,
    collect,
    const,
    forget_module,
    is_frozen,
    mem_free,
    ticks_diff,
    ticks_us,
)
from xobo.errors import XoboError
from xobo.numbers import parse_uint
from xobo.runtime import events as E
from xobo.runtime import inference as I
from xobo.runtime.gestures import gesture_of
from xobo.runtime.topology import NONE, cell_name, from_boarddef

CYCLE_MS = const(10)
_SETTLE_POLL_MS = const(4)  # the search's scans while a switch settles (search_poll)
ERROR_REPEAT_MS = const(1000)  # a repeated out-of-memory error is announced once a second
AI_TIME_MS = const(1800)  # the search's bound: a move or hint within 2 s on a Pico
# with the computer's code frozen into the image (in flash), the budget is 1.5 s (issue 19):
# the search's bound, with the clone, the setup and the reply around it
_AI_TIME_MS_IMAGE = const(1300)

# the device keeps the AI's code between moves while this much heap stays free (the device
# issue's floor, 100 KB, and a margin: with less free the search spends its time in the
# collector, measured on the emulated Pico: hints of 0.9-1.3 s took 1.1-2.1 s at 100 KB)
AI_KEEP_FREE = const(104000)

# the board's own settings; each game adds its own (its SETTINGS), and the computer's
# `opponent` and `level`, stored per game as "<game>.<key>"
BOARD_KEYS = ("game", "brightness", "settle", "hints", "name")
GAME_AI_KEYS = ("opponent", "level")
DEFAULTS = {"game": "xobo", "brightness": 60, "settle": 1000, "hints": "on", "name": "-"}
CHOICES = {"hints": ("on", "off")}
RANGES = {"brightness": (0, 100), "settle": (200, 5000)}
_NAME_MAX = const(16)  # the table's name (a café's host knows the board by it): '-' unnamed


def _to_int(value):
    """An int setting's value: an int, or ASCII digits (a saved or typed '+800', '８00' or
    '1_000' is refused, as the protocol refuses them); None otherwise."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        v = parse_uint(value)
        return v if v >= 0 else None
    return None


def _check(key, value, choices, ranges, keys):
    if key == "name":
        v = str(value)
        if not 0 < len(v) <= _NAME_MAX or not all(
                "a" <= c <= "z" or "A" <= c <= "Z" or "0" <= c <= "9" or c in "-_." for c in v):
            raise ValueError("name must be 1-16 letters, digits, '-', '_' or '.', not '%s'"
                             % v[:24])
        return v
    if key in choices:
        v = str(value).lower()
        if v not in choices[key]:
            raise ValueError("%s must be one of %s, not '%s'" % (key, "|".join(choices[key]),
                                                                  value))
        return v
    if key in ranges:
        lo, hi = ranges[key]
        v = _to_int(value)
        if v is None:
            raise ValueError("%s must be a whole number %d-%d, not '%s'" % (key, lo, hi, value))
        if v < lo or v > hi:
            raise ValueError("%s must be %d-%d, not %d" % (key, lo, hi, v))
        return v
    raise ValueError("unknown setting '%s' (settings: %s)" % (key, ", ".join(keys)))


def opponent_choices(game):
    """'off', each player's name, and for three players each pair ('red+green')."""
    names = game.PLAYER_NAMES
    out = ["off"]
    out.extend(names)
    if len(names) > 2:
        for i in range(len(names)):
            for j in range(i + 1, len(names)):
                out.append(names[i] + "+" + names[j])
    return tuple(out)


def game_rules(game):
    """The game's settings' checks: (choices, ranges, defaults) with opponent and level."""
    choices = {}
    ranges = {}
    for k in game.SETTINGS:
        v = game.SETTINGS[k]
        if len(v) == 2 and isinstance(v[0], int):
            ranges[k] = v
        else:
            choices[k] = v
    choices["opponent"] = opponent_choices(game)
    choices["level"] = game.LEVELS
    defaults = dict(game.DEFAULTS)
    defaults["opponent"] = "off"
    defaults["level"] = game.DEFAULT_LEVEL
    return choices, ranges, defaults


def _count(t, k, us):
    """Add one timing of ``us`` microseconds at ``t[k]`` (count, total, max)."""
    if t[k + 1] > 0x3FFFFFFF - us:  # a long run: halve, the mean stays (no overflow)
        t[k] >>= 1
        t[k + 1] >>= 1
    t[k] += 1
    t[k + 1] += us
    if us > t[k + 2]:
        t[k + 2] = us


def _is_power_cut(exc):
    return exc.__class__.__name__ == "PowerCut"


class App:
    """The board's application over a ``xobo.drivers.Drivers`` (real or virtual)."""

    def __init__(self, drivers, settings=None, now=None, listener=None, inference=None,
                 resume=True):
        self.d = drivers
        self.resume_at_boot = resume  # False: the saved game stays on the flash, unread
        self.topo = from_boarddef(drivers.boarddef)
        self.raw = bytearray(self.topo.n_cells)
        self.ev = drivers.debouncer.new_event()
        self.bev = drivers.buttons.new_event()
        self.gestures = gesture_of(drivers.boarddef)
        self.listeners = [listener] if listener is not None else []
        self.follow = False
        self.note = ""
        self.pending = -1  # host/computer move waiting for the pieces
        self.pending_from = ""
        self.ai_failed_ply = -1
        self.ai_time_ms = AI_TIME_MS  # bound of the computer's search (watchdog: 8 s)
        self.hint_move = -1
        self.release_ai = False  # the device drops the AI's buffers after each search
        # a game switch that restarts the board (``switches_by_restart``), once the reply is out
        self.restart_requested = False
        self.lean = False  # the device unloads what play does not need (the loading code)
        self.polled_at = 0  # the last board cycle run from inside a search (search_poll)
        self.polls = 0  # board cycles run from inside searches
        self._poll = self.search_poll  # one bound method, made once
        self._ai_frozen = None  # the game's AI is frozen into the image (known once it is loaded)
        self.mode = self  # the board's mode: the game (this App), or the self-test's
        self.selftest = None  # the SelfTest while its mode runs
        self.observes = True  # the play mode gives the switches to the inference
        self.resumed = False
        self.last_state = -1
        self.shown_at = 0
        self.force_show = True
        self.first = 0
        self.start = ""  # the position notation of a loaded start position, "" for the start
        self.saved = None
        self.store = None
        self.unsaved = False  # the position changed and was not saved yet
        # cycle timings for the serial `timing` command (microseconds; no allocation):
        # [scans, scan total, scan max, renders, render total, render max, LED writes,
        #  write total, write max]
        self.timing = array("i", [0] * 9)
        self.mem_errors = 0  # MemoryErrors caught in a cycle (recover_memory)
        self.unrecovered = False  # a recovery could not rebuild the board: the next cycle will
        self.mem_error_at = 0
        self.stored = dict(DEFAULTS)  # every setting as stored (other games' as "x.size")
        self.settings = {}  # the board's settings and the current game's (a view)
        self.params = {}  # the parameters of the game in progress (its save's header)
        self._loading().storage_init(self)  # the settings on flash
        # the saved game setting's game, or XoBo with a note saying why not (it does not
        # fit this board, does not import, is no game): a setting never stops the boot; then
        # the settings given by the caller (simulator, tests), kept on flash like a `set`
        self._loading().start_game(self, self.stored.get("game", "xobo"), inference, settings)
        if now is None:
            now = drivers.clock.ticks_ms()
        self.boot(now)

    # ------------------------------------------------------------ the game

    def _set_position(self, pos):
        """The game's grid on the board for ``pos`` (its size may be a game setting)."""
        self.pos = pos
        self.n_width = pos.width
        p = self.place
        if p is None or p.width != pos.width or p.height != pos.height:
            used = getattr(pos, "used", None)
            self.place = self.topo.place(pos.width, pos.height, used)
            self.light.dark = True

    def _view(self, name):
        """``settings``: the board's settings and game ``name``'s (its keys without the
        game's prefix), from ``stored``."""
        s = {}
        for k in BOARD_KEYS:
            s[k] = self.stored.get(k, DEFAULTS[k])
        s["game"] = name
        s.update(self.game_settings(name, (self.choices, self.ranges, self.game_defaults)))
        self.settings = s

    def game_settings(self, name, rules=None):
        """Game ``name``'s own settings as stored (each checked; its default where not):
        what its next new game uses. ``rules``: its ``game_rules`` when known."""
        choices, ranges, defaults = rules or game_rules(games.load(name))
        s = {}
        for k in defaults:
            v = self.stored.get(name + "." + k)
            if v is None and name == "xobo":
                v = self.stored.get(k)  # saved before the games: "variant xobo"
            try:
                s[k] = _check(k, v, choices, ranges, ()) if v is not None else defaults[k]
            except ValueError:
                s[k] = defaults[k]
        return s

    def _store(self, key, v):
        self.settings[key] = v
        if key in BOARD_KEYS:
            self.stored[key] = v
        else:
            self.stored[self.settings["game"] + "." + key] = v

    def setting_keys(self):
        """Every setting of the board and of the current game, in the order they are listed."""
        # (in the game's NEW_GAME_SETTINGS order: a dict's order is not MicroPython's)
        game = self.game
        own = tuple(game.NEW_GAME_SETTINGS) + tuple(
            k for k in sorted(game.SETTINGS) if k not in game.NEW_GAME_SETTINGS)
        return ("game",) + own + BOARD_KEYS[1:] + GAME_AI_KEYS

    def setting_ranges(self):
        """{key: (lo, hi)} of the whole-number settings (the board's and the game's)."""
        r = dict(RANGES)
        r.update(self.ranges)
        return r

    def cell_name(self, c):
        """The name of the game's cell ``c`` in the game's own notation ('e5' is XoBo's
        centre also on the 15 x 15 board, where it is the board's h8): the moves, the
        cells to fix and the words all speak the game's notation; only ``event switch``
        names the board's cells."""
        return cell_name(c, self.n_width)

    def check_setting(self, key, value):
        """The setting's value (str or int) or raise ValueError saying what is wrong."""
        if key == "game":
            v = str(value).lower()
            ok = games.available()
            if v not in ok:
                raise ValueError("game must be one of %s, not '%s'" % ("|".join(ok), value))
            return v
        if key in BOARD_KEYS:
            return _check(key, value, CHOICES, RANGES, self.setting_keys())
        return self._check_game(key, value)

    def _check_game(self, key, value):
        return _check(key, value, self.choices, self.ranges, self.setting_keys())

    def game_params(self):
        """The parameters of the game in progress (its save's header: X's size, XoBo's
        variant...): a setting changed during the game is for the next new game."""
        return self.params

    def start_params(self):
        """A game starts now: its parameters are the settings' (the first player apart)."""
        s = self.settings
        self.params = {k: s[k] for k in self.game.SETTINGS if k != "first"}

    # ------------------------------------------------------------ storage

    def _saved_game(self):
        """The A/B save slots of the current game (XoBo's keep their old name, 'game')."""
        if self.store is None:
            return None
        from xobo.runtime.storage import save_limit

        name = self.settings["game"]
        rules = self.rules
        return self.saved_class(self.d.flash, "game" if name == "xobo" else "game-" + name,
                                save_limit(rules.MAX_PLIES, rules.SAVED_MOVE_CHARS))

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
                            moves)
            self.unsaved = False
        except (OSError, ValueError) as exc:
            self.emit((E.ERROR, "the game could not be saved: %s" % exc))

    def save_settings(self):
        if self.store is None:
            return
        try:
            self.store.save(self.stored)
        except (OSError, ValueError) as exc:
            self.emit((E.ERROR, "the settings could not be saved: %s" % exc))

    # ------------------------------------------------------------ power-up

    def boot(self, now):
        """Power-up: settings, the saved game (resumed, cells that differ shown), self-test if
        both buttons are held (``xobo.runtime.loading.boot``)."""
        self._loading().boot(self, now)
        self._loaded()

    # ------------------------------------------------------------ events

    def subscribe(self, callback):
        """callback(event) for every event: a tuple (``xobo.runtime.events``)."""
        self.listeners.append(callback)

    def unsubscribe(self, callback):
        if callback in self.listeners:
            self.listeners.remove(callback)

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
            self._position_changed(now, restore=self.inf.restoring)
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
            if _is_power_cut(exc):
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

    def _observe(self, now):
        """The debounced occupancy of the game's cells to the inference (the board's cells
        outside the game are not looked at). No allocation."""
        stable = self.d.debouncer.stable
        occ = self.occ
        to_board = self.place.to_board
        for c in range(self.n):
            b = to_board[c]
            occ[c] = stable[b] if b != NONE else 0
        self.inf.observe(occ, now)

    def _read_switches(self, now):
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
                self._observe(now)

    def _scan(self, now):
        d = self.d
        self._read_switches(now)
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
            self._computer_turn(now)

    def render(self, now):
        """Render the light; the LEDs are written only when a colour changed: a WS2812 write
        masks interrupts for ~3.5 ms."""
        t0 = ticks_us()
        try:
            self._render(now)
        except MemoryError:
            self.recover_memory(now, "light")
        _count(self.timing, 3, ticks_diff(ticks_us(), t0))

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
            self.emit(self.fix_event())
        elif st == I.OFFER:  # left after a fix: ask, in words, rather than commit by time
            self.emit((E.SAY, self.guide_text()))
        elif st == I.MATCH and prev in (I.RESTORE, I.FIX):
            self.emit((E.MATCH,))

    # what the board asks for, in words (xobo.runtime.guide: imported at the first fix, the
    # first `state` or an ok with nothing to commit; the light says the same without it)

    def set_regauge(self, before, after):
        """Mark the cells occupied before and after whose height differs (None: none)."""
        for c in range(self.n):
            a = before[c] if before is not None else 0
            b = after[c] if before is not None else 0
            self.regauge[c] = 1 if (a and b and a != b) else 0

    def fill_words(self):
        from xobo.runtime import guide

        return guide.fill_words(self)

    def height_words(self):
        from xobo.runtime import guide

        return guide.height_words(self)

    def fix_event(self):
        from xobo.runtime import guide

        return guide.fix_event(self)

    def fix_text(self):
        from xobo.runtime import guide

        return guide.fix_text(self)

    def ambiguous_cells(self):
        from xobo.runtime import guide

        return guide.ambiguous_cells(self)

    def guide_text(self):
        say = getattr(self.mode, "say", None)  # the learn mode says its lesson
        if say is not None:
            return say()
        from xobo.runtime import guide

        return guide.guide_text(self)

    # ------------------------------------------------------------ game changes

    def full(self):
        """True when the game has reached the longest game the board keeps (the game's
        MAX_PLIES): it ends there, as if over (docs/firmware.md, "The longest games")."""
        return self.pos.ply >= self.rules.MAX_PLIES

    def full_text(self):
        return "the game has reached %d moves, the longest this board keeps: undo, or " \
            "start a new game" % self.rules.MAX_PLIES

    def _position_changed(self, now, restore=False):
        # after the end the pieces may be moved freely: nothing to restore or fix
        self.inf.set_position(self.pos, restore, self.pos.is_terminal() or self.full())
        self.light.set_position(self.pos)
        self.light.show_hint(self.pos, -1, now)
        self.hint_move = -1
        self.pending = -1
        self.pending_from = ""
        self.inf.changed_at = now  # the settle time counts from the position change

    def commit(self, m, now):
        """Play move m (inferred from the pieces, or a host/computer move they completed)."""
        pos = self.pos
        text = pos.move_text(m)
        self.resumed = False
        self.light.flash_move(pos, m, now)
        self.unsaved = True
        pos.apply(m)
        self.light.show_adjust(None, None, now)  # no stack heights to adjust any more
        self.set_regauge(None, None)
        self._position_changed(now)
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

    def undo(self, now):
        """Take back the last move; returns its notation or raises XoboError."""
        pos = self.pos
        if pos.ply == 0:
            raise XoboError("nothing to undo: this is the start of the game")
        before = bytes(pos.heights)
        text = pos.move_text(pos.last_move())
        self.resumed = False  # a long press on undo is an undo from now on
        self.unsaved = True
        pos.undo()
        self.light.show_adjust(before, pos.heights, now)
        self.set_regauge(before, pos.heights)
        self._position_changed(now, restore=True)
        self.ai_failed_ply = -1
        self.save_game()
        self.emit((E.UNDO, text))
        return text

    def new_game(self, now):
        self.resumed = False
        self.unsaved = True
        w, h = self.game.area(self.settings)
        if w * h != self.n:
            self._resize_game()
        self.light.show_adjust(None, None, now)
        self.set_regauge(None, None)
        self._set_position(self.game.new_position(self.settings))
        self.start_params()
        self.first = self.pos.side
        self.start = ""
        self.ai_failed_ply = -1
        self._position_changed(now, restore=True)
        self.save_game()
        self.emit((E.NEW, self.settings["game"], self.params_text(), self.names[self.first]))

    def _resize_game(self):
        """A setting of the game's size (X's size, Chain Reaction's field) takes effect at
        this new game: the game's per-cell buffers are made again at the new size
        (``xobo.runtime.loading.resize_game``)."""
        self._loading().resize_game(self)
        self._loaded()

    def params_text(self):
        """The game's parameters in words: 'variant=kv' ('' when it has none)."""
        p = self.game_params()
        return " ".join("%s=%s" % (k, p[k]) for k in sorted(p))

    def load_position(self, text, now):
        """Start a game from a position in the game's notation (raises PositionError); the
        board shows the cells to fix until the pieces match (``xobo.runtime.loading``)."""
        try:
            self._loading().load_position(self, text, now)
        finally:
            self._loaded()

    def show_position(self, pos, now):
        """Make ``pos`` the position (a load, a lesson): the board shows the cells to fill,
        clear and adjust until the pieces match. Nothing is saved or announced
        (``xobo.runtime.loading``)."""
        try:
            self._loading().show_position(self, pos, now)
        finally:
            self._loaded()

    def set_game(self, name, now):
        """Play game ``name`` from now on: its saved game is resumed (each game keeps its
        own), else a new game starts (``xobo.runtime.loading.set_game``)."""
        note = self._loading().set_game(self, name, now)
        self._loaded()
        return note

    def next_game(self, now):
        """The game gesture: the next installed game (``xobo.runtime.loading``)."""
        note = self._loading().next_game(self, now)
        self._loaded()
        return note

    def _loading(self):
        """The module that loads games (the saved game at boot, ``set game``): imported when
        needed and, on the device (``lean``), unloaded after (it is not needed in play)."""
        from xobo.runtime import loading

        return loading

    def _loaded(self):
        if self.lean:  # (and the code that reads saves, imported by the storage to load)
            forget_module("xobo.runtime.loading")
            forget_module("xobo.runtime.saveread")

    def expect_move(self, m, source, now):
        """A host or computer move: shown in light; the pieces commit it."""
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
        takes back the last move. Returns what was done ('e4', 'e4 (cancelled the expected
        move e5)', or at the start of the game 'cancelled the expected move e5'); raises
        XoboError when there is nothing to undo or cancel."""
        cancelled = self.cancel_pending(now)
        if self.pos.ply == 0 and cancelled:
            return "cancelled the expected move %s" % cancelled
        text = self.undo(now)
        if cancelled:
            text += " (cancelled the expected move %s)" % cancelled
        return text

    def show_hint(self, now):
        """Ask the AI for a move and show it; returns the move. While a host or computer move
        waits for the pieces, that move is the one to play: it is shown again (no search)."""
        pos = self.pos
        if self.pending >= 0:
            m = self.pending
            self.hint_move = m
            self.light.show_hint(pos, m, now)
            self.emit((E.HINT, pos.move_text(m)))
            return m
        if self.settings["hints"] != "on":
            raise XoboError("hints are off (set hints on)")
        if pos.is_terminal():
            raise XoboError("the game is over: no hint")
        if self.full():
            raise XoboError(self.full_text())
        ai = self.load_ai()
        if ai is None:
            raise XoboError("no hints: the computer player of %s is not installed"
                            % self.settings["game"])
        self.light.thinking = pos.side
        try:
            m = ai.choose_move(pos.clone(), level=ai.HINT_LEVEL, seed=pos.ply,
                               time_ms=self.ai_time_ms, poll=self._poll)
        except ai.SearchCancelled:
            raise XoboError("no hint: the board changed while the computer was thinking "
                            "(ask again)") from None
        finally:
            self.light.thinking = -1
            self._ai_done(ai)
        now = self.d.clock.ticks_ms()
        self.hint_move = m
        self.light.show_hint(pos, m, now)
        self.emit((E.HINT, pos.move_text(m)))
        return m

    def computer_plays(self, player):
        """True when the computer plays ``player`` (the opponent setting)."""
        v = self.settings["opponent"]
        if v == "off":
            return False
        name = self.names[player]
        return v == name or v.startswith(name + "+") or v.endswith("+" + name)

    def _computer_turn(self, now):
        pos = self.pos
        if not self.computer_plays(pos.side) or pos.is_terminal() or self.full():
            return
        ai = self.load_ai()
        if ai is None:
            self.ai_failed_ply = pos.ply
            self.emit((E.ERROR, "the computer cannot play: the computer player of %s is not "
                       "installed" % self.settings["game"]))
            return
        self.light.thinking = pos.side
        self.search_poll()  # (a switch that changed while the computer's code loaded)
        try:
            self.d.watchdog.feed()  # the search polls the board: bounded by ai_time_ms too
            m = ai.choose_move(pos.clone(), level=self.settings["level"], seed=pos.ply,
                               time_ms=self.ai_time_ms, poll=self._poll)
        except ai.SearchCancelled:
            return  # a button was pressed: the cycle handles it, then the computer thinks again
        except MemoryError:
            raise  # the cycle's recovery (recover_memory)
        except Exception as exc:  # an AI bug must not stop the board
            if _is_power_cut(exc):
                raise
            self.ai_failed_ply = pos.ply
            self.emit((E.ERROR, "the computer cannot play: %s" % exc))
            return
        finally:
            self.light.thinking = -1
            self._ai_done(ai)
        try:
            self.expect_move(m, "computer", self.d.clock.ticks_ms())
        except XoboError as exc:
            self.ai_failed_ply = pos.ply
            self.emit((E.ERROR, "the computer cannot play: %s" % exc))

    def load_ai(self):
        """The game's AI module, imported now if it is not yet (after a collection: it is the
        largest import), or None when it is not installed. The board calls it when the
        computer opponent is switched on (or is on at boot), because the import takes 0.33 s
        on a Pico without scanning: better then than at the computer's first turn, while a
        player may be moving pieces; else the first hint imports it."""
        import sys

        # (already imported, as it is between searches with the image: no collection, which
        # would hold the board's scan 11-16 ms on a Pico at every computer's turn)
        if games.package_name(self.settings["game"]) + ".ai" not in sys.modules:
            collect()
        try:
            ai = self.game.computer()
        except ImportError:
            return None
        if self.release_ai and self._ai_frozen is None:  # (the device: known once)
            # frozen, or native code on a port that cannot unload it (a soak on the unix
            # port): kept after a search, as importing it again would free nothing
            self._ai_frozen = is_frozen(ai) or (
                not NATIVE_CODE_UNLOADS and getattr(ai, "NATIVE", False))
            if is_frozen(ai):
                self.ai_time_ms = _AI_TIME_MS_IMAGE
        return ai

    def _ai_done(self, ai):
        """After a search, on the device (``release_ai``): the AI's buffers are dropped, and
        its code too when it came from a file (a stock firmware: the .mpy's bytecode is in the
        heap) and the heap would otherwise have less than AI_KEEP_FREE bytes free (the next
        search then imports it again: 0.37 s on a Pico, without scanning). Frozen into the
        firmware image (``make firmware``) its code is in flash: kept, it costs only its
        module's globals, and unloading it would save nothing."""
        if not self.release_ai:
            return
        ai.release()
        collect()
        if not self._ai_frozen and mem_free() < AI_KEEP_FREE:
            for name in getattr(ai, "MODULES", (ai.__name__,)):
                forget_module(name)
            collect()

    def search_poll(self):
        """Called by the AI's search, often: every CYCLE_MS it runs the board's scan
        (switches, debounce, inference, buttons, watchdog) and light, so the board answers
        while the computer thinks. Nothing is committed here; returns True (the search stops)
        when a button was pressed: the board's own cycle then handles it (and the computer
        thinks again). Pieces moved meanwhile are shown as they are and never committed: the
        computer's move, once found, is the only move the board then accepts."""
        d = self.d
        now = d.clock.ticks_ms()
        # while a switch settles, a scan every _SETTLE_POLL_MS and no light: its event goes
        # out as soon as the debounce allows (issue 19: <= 50 ms while the computer thinks;
        # a 15x15 render with its LED write takes ~10 ms on a Pico)
        settling = d.debouncer.settling()
        if ticks_diff(now, self.polled_at) < (_SETTLE_POLL_MS if settling else CYCLE_MS):
            return False
        self.polled_at = now
        self._read_switches(now)
        d.buttons.update(now)
        d.watchdog.feed()
        self.polls += 1
        # the light every 40 ms: it blinks at 1 Hz while it thinks
        if not self.polls & 3 and not d.debouncer.settling():
            self.render(now)
        return d.buttons.pending() > 0

    # ------------------------------------------------------------ buttons

    def button(self, kind, name, now):
        """A button event from the drivers (kind SHORT=1, LONG=2, BOTH=3): the board
        definition's gestures say what it does (``xobo.runtime.gestures``)."""
        if self.listeners:
            self.emit((E.BUTTON, name, ("", "short", "long", "both")[kind]))
        action = self.gestures.get((name, kind))
        if action is None and kind == 2:
            action = self.gestures.get((name, 1))  # a long press of a button with no long
        if action is None:
            return
        # the game may give a gesture another meaning now (Brochs: ok held on a drop
        # declares the master, ok held with nothing on the way passes)
        action = self.layers.gesture(action, self.pos, self.inf)
        if action.startswith("press:"):
            try:
                self.press(action[6:], now)
            except XoboError as exc:
                self.emit((E.ERROR, str(exc)))
            return
        getattr(self, "do_" + action.replace("-", "_"))(now)

    def _button_move(self):
        """The complete move the pressed button picked (the master drop), or -1."""
        inf = self.inf
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
        layers = self.layers
        if name not in layers.BUTTON_NAMES:
            raise XoboError("%s has no button '%s'%s" % (
                self.settings["game"], name, (" (its buttons: %s)" % " ".join(
                    layers.BUTTON_NAMES)) if layers.BUTTON_NAMES else ""))
        pos = self.pos
        if pos.is_terminal():
            raise XoboError("the game is over: %s does nothing" % name)
        inf = self.inf
        if self.pending < 0 and not inf.restoring and name in inf.buttons:
            if inf.pressed() != name or self._button_move() < 0:
                inf.press(name)  # pressed again with its move on the board: that move
            m = self._button_move()
            if m >= 0:
                text = pos.move_text(m)
                self._play_pressed(m, now)
                return "played %s" % text
            words = layers.pressed_words(name, inf.armed != 0)
            self.emit((E.SAY, words))
            return words
        m = layers.button_move(pos, name)
        if m < 0:
            raise XoboError("%s does nothing now" % name)
        if self.pending >= 0:
            raise XoboError("the %s move %s waits for the %ss (undo cancels it)" % (
                self.pending_from, pos.move_text(self.pending), layers.PIECE))
        if inf.state != I.MATCH:
            raise XoboError("%s: first put the %ss back as they were" % (name, layers.PIECE))
        text = pos.move_text(m)
        self._play_pressed(m, now)
        return "played %s" % text

    def _play_pressed(self, m, now):
        """A move a button played: committed in play; the learn mode checks it against the
        lesson first (its ``play_pressed``)."""
        mode = self.mode
        if mode is self:
            self.commit(m, now)
            return
        play = getattr(mode, "play_pressed", None)
        if play is None:
            raise XoboError("the board is busy (self-test): press when it is over")
        play(m, now)

    # the gestures' actions (xobo.runtime.gestures.ACTIONS)

    def do_new_game(self, now):
        self.new_game(now)

    def do_confirm(self, now):
        if self.layers.OK_STEPS and self.inf.step_ambiguous(now) >= 0:
            # moves the switches cannot tell apart: ok picks the next (the game asked)
            if self.listeners:
                self.emit((E.SAY, self.guide_text()))
            return
        m = self.inf.confirm()
        if m >= 0:
            self.commit(m, now)
        elif self.listeners:  # nothing to commit: say what the board waits for
            words = self.guide_text()
            if words:
                self.emit((E.SAY, words))

    def do_next(self, now):
        """ok held: after the end the next game; at the start (no move yet, nothing
        waiting) the next of the games; a move with an empty footprint (a pass) when it is
        the only one; else a confirm."""
        pos = self.pos
        if pos.is_terminal():
            self.new_game(now)
            return
        if pos.ply == 0 and self.pending < 0 and self.inf.state == I.MATCH and \
                not self.resumed:
            try:
                self.next_game(now)
            except XoboError as exc:  # (the game that was playing goes on)
                self.emit((E.ERROR, str(exc)))
            return
        m = self.unseen_move()
        if m >= 0 and self.inf.state == I.MATCH:
            self.commit(m, now)
            return
        if self.inf.stepped >= 0:  # a move picked with ok (OK_STEPS): ok held plays it
            m = self.inf.confirm()
            if m >= 0:
                self.commit(m, now)
                return
        self.do_confirm(now)

    def unseen_move(self):
        """The one legal move the switches cannot see (an empty footprint: a pass, the end
        of a turn), or -1 (none, or several)."""
        inf = self.inf
        found = -1
        for i in range(inf.n_moves):
            if inf.n_l[i] == 0 and inf.n_a[i] == 0 and inf.touch_of[i] == 0:
                if found >= 0:
                    return -1
                found = inf.moves[i]
        return found

    def do_undo(self, now):
        try:
            self.undo_request(now)
        except XoboError as exc:
            self.emit((E.ERROR, str(exc)))

    def do_undo_or_abandon(self, now):
        if self.resumed and self.pos.ply:
            self.new_game(now)  # long press right after power-up: abandon the resumed game
            return
        if self.pos.ply == 0 and self.pending < 0:  # nothing to undo: the game's lessons
            self.do_learn(now)
            return
        self.do_undo(now)

    def do_learn(self, now):
        """The game's lessons (``xobo.runtime.learn``: imported now, forgotten after)."""
        try:
            from xobo.runtime import learn

            learn.start(self, now)
        except (ImportError, XoboError) as exc:
            forget_module("xobo.runtime.learn")
            self.emit((E.ERROR, "no lessons: %s" % exc))

    def do_hint(self, now):
        try:
            self.show_hint(now)
        except XoboError as exc:
            self.emit((E.ERROR, str(exc)))

    def do_opponent(self, now):
        self.cycle_opponent(now)

    def cycle_opponent(self, now):
        """The hint button's long press: the computer opponent goes off -> the players not to
        move (you keep the player to move) -> the player to move (it moves now) -> off. Saved
        and announced like a serial ``set opponent``; the computer's edges double-flash in
        its colour (every edge dim white: off). Returns the new value."""
        cur = self.settings["opponent"]
        side = self.pos.side
        mover = self.names[side]
        others = "+".join(self.names[p] for p in range(len(self.names)) if p != side)
        if cur == "off":
            v = others
        elif cur == mover:
            v = "off"
        else:
            v = mover
        self.set_setting("opponent", v, now)
        shown = -1
        if v != "off":
            shown = side if v == mover else (side + 1) % len(self.names)
        self.light.show_opponent(shown, now)
        return v

    # ------------------------------------------------------------ settings

    def set_setting(self, key, value, now=None):
        """Validate, apply, save and announce (``event setting KEY VALUE``); returns a note
        ('' or 'from the next new game'). A computer move waiting for the pieces
        is cancelled when the computer no longer plays the player to move, or when the level
        changes before any piece of it was moved (the computer then chooses again)."""
        t = self.d.clock.ticks_ms() if now is None else now
        if key == "game":
            v = self.check_setting(key, value)
            if v == self.settings["game"]:
                self.emit((E.SETTING, key, v))
                return ""
            return self.set_game(v, t)
        v = self.check_setting(key, value)
        old = self.settings.get(key)
        self._store(key, v)
        if key == "settle":
            self.inf.set_settle(v)
        elif key == "brightness":
            self._apply_brightness()
        elif key == "hints":
            self.light.hints = v == "on"
        elif key in GAME_AI_KEYS:
            self.ai_failed_ply = -1
            if (key == "opponent" and self.pending_from == "computer"
                    and not self.computer_plays(self.pos.side)):
                self.cancel_pending(t)
            elif (key == "level" and v != old and self.pending_from == "computer"
                  and self.inf.n_lifted == 0 and self.inf.n_added == 0):
                # no piece of it moved yet: the computer chooses again at the new level
                self.cancel_pending(t)
            if key == "opponent" and v != "off":
                self.load_ai()
        self.save_settings()
        self.emit((E.SETTING, key, v))
        if key in self.game.NEW_GAME_SETTINGS:
            # the game in progress keeps its own (its save's header, its record)
            cur = self.names[self.first] if key == "first" else self.params.get(key, old)
            if cur != v:
                return "from the next new game"
        return ""

    def _apply_brightness(self):
        self.d.leds.brightness = self.settings["brightness"] * 255 // 100
        self.force_show = True
        self.light.hints = self.settings["hints"] == "on"

    # ------------------------------------------------------------ self-test

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
        self._observe(now)
        self.last_state = -1

    # ------------------------------------------------------------ state for hosts

    def side_name(self):
        return self.names[self.pos.side]

    def result_name(self):
        if not self.pos.is_terminal():
            return "*"
        w = self.pos.winner()
        return self.names[w] if w >= 0 else "draw"

    def result_text(self):
        """'*' while the game goes on, else the winner and how: 'ew blocus'."""
        return self.layers.end_text(self.pos)


# ---------------------------------------------------------------- the device's main loop


def asyncio_module():
    """The asyncio module (uasyncio on a MicroPython older than 1.21)."""
    try:
        import asyncio
    except ImportError:
        import uasyncio as asyncio
    return asyncio


def _sleep_ms(asyncio, ms):
    if hasattr(asyncio, "sleep_ms"):
        return asyncio.sleep_ms(ms)
    return asyncio.sleep(ms / 1000)


def main(boarddef=None, drivers=None, stdin=None, stdout=None):
    """Run the board (firmware/main.py calls ``main(boarddef)``): real drivers from the board
    definition, or ``drivers`` (virtual ones, for a desktop run); the serial protocol on
    stdin/stdout. Returns at the end of input (never on the device)."""
    from xobo.runtime.protocol import Protocol

    if drivers is None:
        from xobo.drivers.boarddef import default_boarddef, make_drivers

        drivers = make_drivers(boarddef or default_boarddef())
    app = App(drivers)
    serve(app, Protocol(app), stdin, stdout)
    return app


def serve(app, proto, stdin=None, stdout=None):
    """Run the board's tasks (scan, light, watchdog, serial) until the end of input (never
    on the device)."""
    asyncio_module().run(run_tasks(app, proto, stdin, stdout))


async def run_tasks(app, proto, stdin=None, stdout=None):
    """The tasks: scan+debounce+infer every 10 ms, light every 20 ms, serial, watchdog. The
    serial task reads one byte per wake-up, so a host sending junk without a newline can
    never block the scan (the protocol drops overlong lines)."""
    import sys

    asyncio = asyncio_module()
    out = stdout or sys.stdout
    src = stdin or sys.stdin
    src = getattr(src, "buffer", src)

    def write(line):
        out.write(line + "\n")
        flush = getattr(out, "flush", None)
        if flush is not None:
            flush()

    proto.writer = write
    clock = app.d.clock
    stop = [False]
    alive = [0]

    # each task sleeps what is left of its period, so the scan runs every 10 ms (not 10 ms
    # after the end of the last one: 11.5 ms measured on the emulated Pico)
    async def scan_task():
        while not stop[0]:
            if app.restart_requested:  # (a game switch: its reply has been written)
                app.d.restart()
            t0 = clock.ticks_ms()
            app.scan(t0)
            alive[0] += 1
            left = CYCLE_MS - ticks_diff(clock.ticks_ms(), t0)
            await _sleep_ms(asyncio, left if left > 0 else 0)

    async def light_task():
        while not stop[0]:
            t0 = clock.ticks_ms()
            app.render(t0)
            left = 2 * CYCLE_MS - ticks_diff(clock.ticks_ms(), t0)
            await _sleep_ms(asyncio, left if left > 0 else 0)

    async def watchdog_task():
        # the scan feeds the watchdog each cycle; this task only keeps feeding while the
        # scan task makes progress (a hung scan then resets the board)
        seen = -1
        while not stop[0]:
            if alive[0] != seen:
                seen = alive[0]
                app.d.watchdog.feed()
            await _sleep_ms(asyncio, 1000)

    async def serial_task():
        if IS_MICROPYTHON:
            reader = asyncio.StreamReader(src)
            read = reader.read
        else:  # CPython (desktop runs): a blocking read in a worker thread
            loop = asyncio.get_running_loop()
            raw = getattr(src, "read1", None) or src.read

            async def read(n):
                return await loop.run_in_executor(None, raw, 256)

        while True:
            if app.restart_requested:  # what follows is for the board after its restart
                await _sleep_ms(asyncio, CYCLE_MS)
                continue
            data = await read(1)
            if not data:
                stop[0] = True  # end of input (desktop runs only)
                return
            if isinstance(data, str):
                data = data.encode()
            proto.feed(data)

    await asyncio.gather(scan_task(), light_task(), watchdog_task(), serial_task())
