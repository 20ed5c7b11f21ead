"""The board application: scan, debounce, infer, commit, save, light, buttons, serial.

The core is the synchronous :meth:`App.step` (one scan-debounce-infer-render cycle at a given
time), which the asyncio tasks of :func:`main` call on the device and which the tests and the
simulator drive with virtual time. In steady state (no switch change, no commit) a cycle
allocates nothing (tests/boardapp/test_heap.py runs it under ``micropython.heap_lock()``).

What happens when (docs/firmware.md has the full story):

- a complete move is committed after the settle time (or at once on ``ok``), saved to flash,
  flashed in white, and announced as ``event move e5 (v)``;
- ``undo`` (button, short or long press, or serial) takes back the last move; the board then
  shows what to restore and waits until the cubes match;
- ``ok`` + ``undo`` held together start a new game; a long press on ``undo`` abandons the
  resumed game for a new one only right after power-up (until the first move or undo since
  the boot): otherwise it is an undo like a short press, so nothing is ever lost by it; a
  long press on ``ok`` after the end of a game starts the next one;
- ``hint`` (button or serial, with hints on) shows the AI's suggested move; a long press on
  ``hint`` cycles the computer opponent: off -> the side not to move -> the side to move -> off
  (saved like ``set opponent``, ``event setting opponent ew``, the computer's edges flash);
- with ``opponent`` set, the computer's moves are shown in light and wait for the cubes.

Usage::

    from xobo.drivers.virtual import make_virtual_drivers
    from xobo.runtime.app import App
    d = make_virtual_drivers()
    app = App(d)
    app.subscribe(print)            # event lines
    app.step(d.clock.ticks_ms())    # one cycle
    # on the device: xobo.runtime.app.main(boarddef) (firmware/main.py)
"""

from array import array

from xobo.compat import (
    IS_MICROPYTHON,
    collect,
    const,
    forget_module,
    mem_free,
    ticks_diff,
    ticks_us,
)
from xobo.errors import XoboError
from xobo.games.xobo.rules.geometry import NS, cell_name, ray
from xobo.games.xobo.rules.notation import format_move, parse_move
from xobo.games.xobo.rules.position import Position
from xobo.numbers import parse_uint
from xobo.runtime import inference as I
from xobo.runtime.inference import Inference
from xobo.runtime.light import Light

CYCLE_MS = const(10)
ERROR_REPEAT_MS = const(1000)  # a repeated out-of-memory error is announced once a second
AI_TIME_MS = const(1800)  # the search's bound: a move or hint within 2 s on a Pico

AI_MODULES = ("xobo.games.xobo.ai", "xobo.games.xobo.ai.search", "xobo.games.xobo.ai.evaluate",
              "xobo.games.xobo.ai.rng")
AI_KEEP_FREE = const(104000)  # the device keeps the AI's code between moves above this
SETTING_KEYS = ("variant", "first", "brightness", "settle", "hints", "opponent", "level")
DEFAULTS = {
    "variant": "xobo",
    "first": "ns",
    "brightness": 60,
    "settle": 1000,
    "hints": "on",
    "opponent": "off",
    "level": "pico",
}
CHOICES = {
    "variant": ("xobo", "kv"),
    "first": ("ns", "ew"),
    "hints": ("on", "off"),
    "opponent": ("off", "ns", "ew"),
    "level": ("random", "greedy", "beginner", "pico", "strong"),
}
RANGES = {"brightness": (0, 100), "settle": (200, 5000)}
NEW_GAME_KEYS = ("variant", "first")
SIDE_NAMES = ("ns", "ew")


def check_setting(key, value):
    """The setting's value (str or int) or raise ValueError saying what is wrong."""
    if key in CHOICES:
        v = str(value).lower()
        if v not in CHOICES[key]:
            raise ValueError("%s must be one of %s, not '%s'" % (key, "|".join(CHOICES[key]),
                                                                  value))
        return v
    if key in RANGES:
        lo, hi = RANGES[key]
        v = _to_int(value)
        if v is None:
            raise ValueError("%s must be a whole number %d-%d, not '%s'" % (key, lo, hi, value))
        if v < lo or v > hi:
            raise ValueError("%s must be %d-%d, not %d" % (key, lo, hi, v))
        return v
    raise ValueError("unknown setting '%s' (settings: %s)" % (key, ", ".join(SETTING_KEYS)))


def _to_int(value):
    """An int setting's value: an int, or ASCII digits (a saved or typed '+800', '８00' or
    '1_000' is refused, as the protocol refuses them); None otherwise."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        v = parse_uint(value)
        return v if v >= 0 else None
    return None


def result_reason(pos):
    """How the game was won (rules E2-E4), '' while it goes on. The last mover P is the
    opponent of the side to move Q: 'blocus' (E2: Q wins, P's move connected both pairs of
    edges), 'connected-opponent' (E2: P's move connected only Q's edges), 'connected' (E3: P
    connected its own edges), 'exhaustion' (E4: Q cannot move, kv: has no cubes left)."""
    w = pos.winner()
    if w < 0:
        return ""
    if w == pos.side:
        return "blocus" if pos.connected(w ^ 1) else "connected-opponent"
    return "connected" if pos.connected(w) else "exhaustion"


def move_words(m):
    """Move m in plain words for a player: 'put a cube on b3', 'spread e5 towards d4',
    'regroup a4, b4 onto c4' (the cubes of the other cells go onto the stack cell)."""
    kind = m & 3
    c = (m >> 2) & 127
    if kind == 0:
        return "put a cube on %s" % cell_name(c)
    r = ray(c, (m >> 9) & 7)
    if kind == 2:
        return "spread %s towards %s" % (cell_name(c), cell_name(r[0]))
    n = (m >> 12) - 1
    others = [cell_name(r[k]) for k in range(n - 1, -1, -1)]  # the far end first, as N1
    return "regroup %s onto %s" % (", ".join(others), cell_name(c))


def _join_or(words):
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


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

    def __init__(self, drivers, settings=None, now=None, listener=None, inference=None):
        self.d = drivers
        self.raw = bytearray(81)
        self.ev = drivers.debouncer.new_event()
        self.bev = drivers.buttons.new_event()
        # the device makes the Inference (the largest buffers) first: xobo.runtime.device
        self.inf = inference if inference is not None else Inference()
        self.light = Light(self.inf)
        self.listeners = [listener] if listener is not None else []
        self.follow = False
        self.note = ""
        self.pending = -1  # host/computer move waiting for the cubes
        self.pending_from = ""
        self.ai_failed_ply = -1
        self.ai_time_ms = AI_TIME_MS  # bound of the computer's search (watchdog: 8 s)
        self.hint_move = -1
        self.release_ai = False  # the device drops the AI's buffers after each search
        self.polled_at = 0  # the last board cycle run from inside a search (search_poll)
        self.polls = 0  # board cycles run from inside searches
        self._poll = self.search_poll  # one bound method, made once
        # occupied cells whose stack height must change while restoring (after an undo or a
        # load: the switch stays closed, so the text says the height: `height a5=1`)
        self.regauge = bytearray(81)
        self.selftest = None
        self.resumed = False
        self.last_state = -1
        self.shown_at = 0
        self.force_show = True
        self.first = NS
        self.start = ""  # N3 of a loaded start position, "" for the empty board
        self.saved = None
        self.store = None
        self.unsaved = False  # the position changed and was not saved yet
        # cycle timings for the serial `timing` command (microseconds; no allocation):
        # [scans, scan total, scan max, renders, render total, render max, LED writes,
        #  write total, write max]
        self.timing = array("i", [0] * 9)
        self.mem_errors = 0  # MemoryErrors caught in a cycle (recover_memory)
        self.mem_error_at = 0
        self.settings = dict(DEFAULTS)
        self._storage_init()
        if settings:  # given by the caller (simulator, tests): kept on flash like a `set`
            changed = False
            for k in settings:
                v = check_setting(k, settings[k])
                if self.settings.get(k) != v:
                    self.settings[k] = v
                    changed = True
            if changed:
                self.save_settings()
        if now is None:
            now = drivers.clock.ticks_ms()
        self.boot(now)

    # ------------------------------------------------------------ storage

    def _storage_init(self):
        try:
            from xobo.runtime.storage import SavedGame, Settings
        except ImportError:  # storage not built yet: play without saving
            return
        self.saved = SavedGame(self.d.flash)
        self.store = Settings(self.d.flash)
        try:
            loaded = self.store.load(DEFAULTS)
        except (OSError, ValueError) as exc:
            self.note = "settings not loaded: %s" % exc
            return
        for k in SETTING_KEYS:
            try:
                self.settings[k] = check_setting(k, loaded.get(k, DEFAULTS[k]))
            except ValueError:
                self.settings[k] = DEFAULTS[k]

    def save_game(self):
        """Save the game (after every commit, undo, new game, load). PowerCut propagates."""
        if self.saved is None:
            return
        pos = self.pos
        moves = [format_move(m) for m in pos.history()]
        try:
            self.saved.save(pos.variant, self.first, self.start, moves)
            self.unsaved = False
        except (OSError, ValueError) as exc:
            self.emit("event error the game could not be saved: %s" % exc)

    def save_settings(self):
        if self.store is None:
            return
        try:
            self.store.save(self.settings)
        except (OSError, ValueError) as exc:
            self.emit("event error the settings could not be saved: %s" % exc)

    # ------------------------------------------------------------ power-up

    def boot(self, now):
        """Power-up: settings, the saved game (resumed, cells that differ shown), self-test if
        both buttons are held."""
        d = self.d
        self.inf.set_settle(self.settings["settle"])
        self._apply_brightness()
        d.matrix.scan_into(self.raw)
        d.debouncer.prime(self.raw)
        self.inf.observe(d.debouncer.stable, now)
        resumed = False
        if self.saved is not None:
            try:
                saves = self.saved.load_all()
            except (OSError, ValueError) as exc:
                saves = ()
                self.note = "saved game not read: %s" % exc
            refused = []
            for g in saves:  # newest first: a save that makes no game falls back to the other
                why = self._resume(g)
                if not why:
                    resumed = True
                    break
                refused.append("%s (seq %d) %s" % (g["slot"], g["seq"], why))
            if refused:
                self.note = "saved game not resumed: %s; %s" % (
                    "; ".join(refused), self.note if resumed else "new game")
        self.resumed = resumed  # a long press on undo abandons it until the next move/undo
        if not resumed:
            self.pos = Position(self.settings["variant"], self._first_setting())
            self.first = self.pos.side
            self.start = ""
        self._position_changed(now, restore=True)
        self.emit("event boot %s" % (self.note or "new game"))
        both = False
        b = d.buttons
        if "ok" in b.names and "undo" in b.names:
            b.update(now)
            b.update(now + b.stable_ms + 1)
            both = b.held("ok") and b.held("undo")
        if both:
            self.start_selftest(now)

    def _first_setting(self):
        return 0 if self.settings["first"] == "ns" else 1

    def _resume(self, g):
        """Resume the saved game ``g`` (a dict from ``SavedGame.load_all``): '' when it was
        resumed, else what is wrong with it (the position is then unchanged). Every field
        is checked: a checksum only proves the bytes are the ones written."""
        variant = g.get("variant")
        if variant not in CHOICES["variant"]:
            return "has an unknown variant %r" % (variant,)
        first = g.get("first")
        if first not in (0, 1) or not isinstance(first, int):
            return "has first %r: it must be 0 (ns) or 1 (ew)" % (first,)
        start = g.get("start") or ""
        moves = g.get("moves")
        if not isinstance(start, str) or not isinstance(moves, list):
            return "has no start position or no move list"
        try:
            pos = Position.parse(start, variant) if start else Position(variant, first)
            for k in range(len(moves)):
                text = moves[k]
                try:
                    pos.apply(parse_move(text, pos))
                except (XoboError, ValueError) as exc:
                    return "move %d '%s' is not legal there: %s" % (k + 1, text, exc)
        except (XoboError, ValueError, KeyError, TypeError, IndexError) as exc:
            return "start position not valid: %s" % exc
        self.pos = pos
        self.first = first if not start else pos.side
        if start:
            first_pos = pos.clone()
            while first_pos.ply:
                first_pos.undo()
            self.first = first_pos.side
        self.start = start
        self.note = "resumed game: %d moves" % pos.ply
        return ""

    # ------------------------------------------------------------ events

    def subscribe(self, callback):
        self.listeners.append(callback)

    def unsubscribe(self, callback):
        if callback in self.listeners:
            self.listeners.remove(callback)

    def emit(self, line):
        for cb in self.listeners:
            cb(line)

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
            self._scan(now)
        except MemoryError:
            self.recover_memory(now, "scan")
        _count(self.timing, 0, ticks_diff(ticks_us(), t0))

    def recover_memory(self, now, where):
        """After a MemoryError in ``where``: collect, announce ``event error out of memory
        ...``, and make the board consistent with the position again (the light and the
        inference are rebuilt from it, and it is saved again: a commit or undo cut short
        may not have reached the flash). The saved game itself is never harmed: a save is
        written whole to the other slot or not at all."""
        collect()
        try:
            self._position_changed(now, restore=self.inf.restoring)
            self.last_state = self.inf.state
            self.force_show = True
            if self.unsaved:
                self.save_game()
            if self.mem_errors == 0 or ticks_diff(now, self.mem_error_at) >= ERROR_REPEAT_MS:
                self.emit("event error out of memory in the %s: collected (%d bytes free), "
                          "going on" % (where, mem_free()))
                self.mem_error_at = now
            self.mem_errors += 1
        except MemoryError:  # still nothing: the next cycle tries again
            collect()

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
                    self.emit("event switch %s %s" % (cell_name(ev[0]), "on" if ev[1] else "off"))
            if self.selftest is None:
                self.inf.observe(d.debouncer.stable, now)

    def _scan(self, now):
        d = self.d
        raw = self.raw
        self._read_switches(now)
        d.buttons.update(now)
        bev = self.bev
        while d.buttons.get_into(bev):
            self.button(bev[0], bev[1], now)
        d.watchdog.feed()
        if self.selftest is not None:
            self.selftest.step(now, raw, d.debouncer.stable)
            if self.selftest.done:
                self._end_selftest(now)
            return
        inf = self.inf
        m = inf.poll(now)
        if m >= 0:
            self.commit(m, now)
        if inf.state != self.last_state:
            self._state_changed(now)
        if (self.settings["opponent"] != "off" and self.pending < 0 and inf.state == I.MATCH
                and self.ai_failed_ply != self.pos.ply):
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
        leds = self.d.leds
        if self.selftest is not None:
            self.selftest.render(leds.set_cell, leds.set_edge)
        elif self.light.render(now) or self.force_show:  # written only when it changed
            self.light.output(leds)
        else:
            return
        self.force_show = False
        self.shown_at = now
        t0 = ticks_us()
        leds.show()
        _count(self.timing, 6, ticks_diff(ticks_us(), t0))

    def _state_changed(self, now):
        inf = self.inf
        prev = self.last_state
        self.last_state = inf.state
        if not self.listeners:
            return
        st = inf.state
        if st == I.FIX or (st == I.RESTORE and prev != I.RESTORE):
            self.emit("event " + self.fix_text())
        elif st == I.OFFER:  # left after a fix: ask, in words, rather than commit by time
            self.emit("event say " + self.guide_text())
        elif st == I.MATCH and prev in (I.RESTORE, I.FIX):
            self.emit("event match")

    def fill_words(self):
        """The cells to fill, a stack with its height: ['c5=3', 'd5']."""
        inf = self.inf
        out = []
        for c in range(81):
            if inf.fill[c]:
                h = inf.heights[c]
                out.append("%s=%d" % (cell_name(c), h) if h >= 2 else cell_name(c))
        return out

    def height_words(self):
        """While restoring, the occupied cells whose height must change (their switch stays
        closed), with the height they must have: ['a5=1', 'e3=3']."""
        inf = self.inf
        if inf.state != I.RESTORE:
            return []
        return ["%s=%d" % (cell_name(c), inf.heights[c]) for c in range(81)
                if self.regauge[c] and inf.heights[c]]

    def set_regauge(self, before, after):
        """Mark the cells occupied before and after whose height differs (None: none)."""
        for c in range(81):
            a = before[c] if before is not None else 0
            b = after[c] if before is not None else 0
            self.regauge[c] = 1 if (a and b and a != b) else 0

    def fix_text(self):
        """'fix fill c5=3 d4 clear c3' (cells to fill, a stack with the height it must have,
        and cells to clear), 'restore fill b5 c5 d5 height a5=1' (after an undo or a load:
        occupied cells whose height must change), or 'fix none'."""
        inf = self.inf
        fill = self.fill_words()
        clear = [cell_name(c) for c in range(81) if inf.clear[c]]
        height = self.height_words()
        kind = "restore" if inf.state == I.RESTORE else "fix"
        if not fill and not clear and not height:
            return kind + " none"
        out = kind
        if fill:
            out += " fill " + " ".join(fill)
        if clear:
            out += " clear " + " ".join(clear)
        if height:
            out += " height " + " ".join(height)
        return out

    def remaining_words(self, i):
        """What is left to do of candidate move index i: 'put a cube on d4, c3; take the
        pair off e4' ('' when its cubes are all where they go)."""
        inf = self.inf
        m = inf.moves[i]
        kind = m & 3
        src = (m >> 2) & 127
        base = i * I.FP
        puts = []
        takes = []
        moves = []
        lift = ""
        for k in range(inf.n_a[i]):
            c = inf.fp_a[base + k]
            if not inf.added[c]:
                puts.append(cell_name(c))
        if kind == 2:  # a stack on the way gets a cube the switches cannot see
            r = ray(src, (m >> 9) & 7)
            for k in range(m >> 12):
                if inf.heights[r[k]] >= 2:
                    puts.append("%s (a stack)" % cell_name(r[k]))
        for k in range(inf.n_l[i]):
            c = inf.fp_l[base + k]
            if inf.lifted[c]:
                continue
            if kind == 1:
                moves.append(cell_name(c))
            elif c == src:
                lift = "lift the stack on %s" % cell_name(c)
            else:
                takes.append(cell_name(c))
        out = []
        if lift:
            out.append(lift)
        if moves:
            out.append("move the cube%s on %s onto %s" % ("s" if len(moves) > 1 else "",
                                                          ", ".join(moves), cell_name(src)))
        if puts:
            out.append("put a cube on " + ", ".join(puts))
        if takes:
            out.append("take the pair%s off %s" % ("s" if len(takes) > 1 else "",
                                                    ", ".join(takes)))
        return "; ".join(out)

    def ambiguous_cells(self):
        """The stack cells of a regroup the switches cannot tell apart: ['c2', 'f2'] (the
        inference marks them, ``amb_stack``)."""
        inf = self.inf
        if not inf.ambiguous:
            return []
        return [cell_name(c) for c in range(81) if inf.amb_stack[c]]

    def guide_text(self):
        """What the player is asked to do now, in plain words ('' when nothing is asked):
        the board's light says the same, this is for the page, serial ``state`` and an
        ``ok`` that has nothing to commit (``event say ...``)."""
        inf = self.inf
        st = inf.state
        who = ""
        if self.pending >= 0:
            who = "the %s plays %s" % (self.pending_from, format_move(self.pending))
        if st == I.OFFER:
            m = inf.complete_move()
            undo = "taking the cube off" if m & 3 == 0 else "putting the cubes back"
            return "%s is a legal move: press ok to play it, %s cancels" % (format_move(m),
                                                                             undo)
        if st == I.MATCH:
            if self.pending >= 0:
                return "%s: %s" % (who, move_words(self.pending))
            return ""
        if st not in (I.PROGRESS, I.COMPLETE, I.WAIT_LONGER, I.UNKNOWN):
            return ""
        if inf.touch >= 0:
            return "put %s back: the regroup goes onto it" % cell_name(inf.touch)
        if st == I.UNKNOWN:
            return ""
        amb = self.ambiguous_cells()
        if amb:
            return "%s? lift the stack you chose and put it back" % _join_or(amb)
        if st == I.WAIT_LONGER:
            return "%s is complete: press ok, or wait (it could still grow)" % format_move(
                inf.complete_move())
        if st == I.COMPLETE:
            return "%s is complete: it is played when the cubes stay still (or press ok)" \
                % format_move(inf.complete_move())
        out = ""
        if inf.n_cand == 1:
            out = self.remaining_words(inf.cand[0])
        else:
            words = []
            for j in range(inf.n_cand):
                w = move_words(inf.moves[inf.cand[j]])
                if w not in words:
                    words.append(w)
            out = _join_or(words[:4]) + (" or another" if len(words) > 4 else "")
        if who:
            return "%s: %s" % (who, out) if out else who
        return out

    # ------------------------------------------------------------ game changes

    def _position_changed(self, now, restore=False):
        # after the end the cubes may be moved freely: nothing to restore or fix
        self.inf.set_position(self.pos, restore, self.pos.is_terminal())
        self.light.set_position(self.pos)
        self.light.show_hint(-1, now)
        self.hint_move = -1
        self.pending = -1
        self.pending_from = ""
        self.inf.changed_at = now  # the settle time counts from the position change

    def commit(self, m, now):
        """Play move m (inferred from the cubes, or a host/computer move they completed)."""
        pos = self.pos
        text = format_move(m)
        self.resumed = False
        self.light.flash_move(pos, m, now)
        self.unsaved = True
        pos.apply(m)
        voina = pos.declared_voina()
        self.light.show_adjust(None, None, now)  # no stack heights to adjust any more
        self.set_regauge(None, None)
        self._position_changed(now)
        self.last_state = self.inf.state
        self.save_game()
        self.emit("event move %s%s" % (text, " (v)" if voina else ""))
        if voina and self.listeners:
            cells = [cell_name(c) for c in range(81) if self.light.voina[c]]
            self.emit("event voina %s threatens %s" % (SIDE_NAMES[pos.side ^ 1],
                                                       " ".join(cells) or "a spread"))
        w = pos.winner()
        if w >= 0:
            self.emit("event result %s %s" % (SIDE_NAMES[w], result_reason(pos)))

    def undo(self, now):
        """Take back the last move; returns its notation or raises XoboError."""
        pos = self.pos
        if pos.ply == 0:
            raise XoboError("nothing to undo: this is the start of the game")
        before = bytes(pos.heights)
        text = format_move(pos.last_move())
        self.resumed = False  # a long press on undo is an undo from now on
        self.unsaved = True
        pos.undo()
        self.light.show_adjust(before, pos.heights, now)
        self.set_regauge(before, pos.heights)
        self._position_changed(now, restore=True)
        self.ai_failed_ply = -1
        self.save_game()
        self.emit("event undo %s" % text)
        return text

    def new_game(self, now):
        self.resumed = False
        self.unsaved = True
        self.light.show_adjust(None, None, now)
        self.set_regauge(None, None)
        self.pos = Position(self.settings["variant"], self._first_setting())
        self.first = self.pos.side
        self.start = ""
        self.ai_failed_ply = -1
        self._position_changed(now, restore=True)
        self.save_game()
        self.emit("event new %s %s" % (self.pos.variant, SIDE_NAMES[self.first]))

    def load_position(self, text, now):
        """Start a game from N3 ``text`` (raises PositionError); the board shows the cells to
        fix until the cubes match."""
        pos = Position.parse(text, self.settings["variant"])
        self.resumed = False
        self.unsaved = True
        self.light.show_adjust(self.pos.heights, pos.heights, now)
        self.set_regauge(self.pos.heights, pos.heights)
        self.pos = pos
        self.first = pos.side
        self.start = pos.to_string()
        self.ai_failed_ply = -1
        self._position_changed(now, restore=True)
        self.save_game()
        self.emit("event load %s" % self.start)

    def expect_move(self, m, source, now):
        """A host or computer move: shown in light; the cubes commit it."""
        if not self.inf.set_target(m):
            raise XoboError("%s is not legal now" % format_move(m))
        self.pending = m
        self.pending_from = source
        self.emit("event expect %s %s" % (source, format_move(m)))

    def cancel_pending(self, now):
        """Forget the host/computer move waiting for the cubes; returns its notation ('' if
        none) and sends ``event cancel host|computer e5``."""
        if self.pending < 0:
            return ""
        text = format_move(self.pending)
        source = self.pending_from
        self.inf.changed_at = now
        self.pending = -1
        self.pending_from = ""
        self.inf.clear_target()
        self.emit("event cancel %s %s" % (source, text))
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
        waits for the cubes, that move is the one to play: it is shown again (no search)."""
        if self.pending >= 0:
            m = self.pending
            self.hint_move = m
            self.light.show_hint(m, now)
            self.emit("event hint %s" % format_move(m))
            return m
        if self.settings["hints"] != "on":
            raise XoboError("hints are off (set hints on)")
        if self.pos.is_terminal():
            raise XoboError("the game is over: no hint")
        ai = self.load_ai()
        if ai is None:
            raise XoboError("no hints: its AI is not installed")
        self.light.thinking = self.pos.side
        try:
            m = ai.choose_move(self.pos.clone(), level=ai.HINT_LEVEL, seed=0,
                               time_ms=self.ai_time_ms, poll=self._poll)
        except ai.SearchCancelled:
            raise XoboError("no hint: the board changed while the computer was thinking "
                            "(ask again)") from None
        finally:
            self.light.thinking = -1
            self._ai_done(ai)
        now = self.d.clock.ticks_ms()
        self.hint_move = m
        self.light.show_hint(m, now)
        self.emit("event hint %s" % format_move(m))
        return m

    def _computer_turn(self, now):
        pos = self.pos
        if SIDE_NAMES[pos.side] != self.settings["opponent"] or pos.is_terminal():
            return
        ai = self.load_ai()
        if ai is None:
            self.ai_failed_ply = pos.ply
            self.emit("event error the computer cannot play: its AI is not installed")
            return
        self.light.thinking = pos.side
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
            self.emit("event error the computer cannot play: %s" % exc)
            return
        finally:
            self.light.thinking = -1
            self._ai_done(ai)
        try:
            self.expect_move(m, "computer", self.d.clock.ticks_ms())
        except XoboError as exc:
            self.ai_failed_ply = pos.ply
            self.emit("event error the computer cannot play: %s" % exc)

    def load_ai(self):
        """The AI package, imported now if it is not yet (after a collection: it is the
        largest import), or None when it is not installed. The board calls it when the
        computer opponent is switched on (or is on at boot), because the import takes 0.33 s
        on a Pico without scanning: better then than at the computer's first turn, while a
        player may be moving cubes; else the first hint imports it."""
        collect()
        try:
            import xobo.games.xobo.ai as ai
        except ImportError:
            return None
        return ai

    def _ai_done(self, ai):
        """After a search, on the device (``release_ai``): the AI's buffers are dropped, and
        its code too when the heap would otherwise have less than AI_KEEP_FREE bytes free
        (the next search then imports it again: 0.33 s on a Pico, without scanning)."""
        if not self.release_ai:
            return
        ai.release()
        collect()
        if mem_free() < AI_KEEP_FREE:
            for name in AI_MODULES:
                forget_module(name)
            collect()

    def search_poll(self):
        """Called by the AI's search, often: every CYCLE_MS it runs the board's scan
        (switches, debounce, inference, buttons, watchdog) and light, so the board answers
        while the computer thinks. Nothing is committed here; returns True (the search stops)
        when a button was pressed: the board's own cycle then handles it (and the computer
        thinks again). Cubes moved meanwhile are shown as they are and never committed: the
        computer's move, once found, is the only move the board then accepts."""
        d = self.d
        now = d.clock.ticks_ms()
        if ticks_diff(now, self.polled_at) < CYCLE_MS:
            return False
        self.polled_at = now
        self._read_switches(now)
        d.buttons.update(now)
        d.watchdog.feed()
        self.polls += 1
        if not self.polls & 3:  # the light every 40 ms: it blinks at 1 Hz while it thinks
            self.render(now)
        return d.buttons.pending() > 0

    # ------------------------------------------------------------ buttons

    def button(self, kind, name, now):
        """A button event from the drivers (kind SHORT=1, LONG=2, BOTH=3)."""
        if self.selftest is not None:
            if kind != 3:
                self.selftest.button(name)
            return
        if self.listeners:
            self.emit("event button %s %s" % (name, ("", "short", "long", "both")[kind]))
        if kind == 3:  # ok + undo held together
            self.new_game(now)
            return
        if name == "ok":
            if kind == 2 and self.light.winner >= 0:
                self.new_game(now)  # long press on ok after the end: the next game
                return
            m = self.inf.confirm()
            if m >= 0:
                self.commit(m, now)
            elif self.listeners:  # nothing to commit: say what the board waits for
                words = self.guide_text()
                if words:
                    self.emit("event say " + words)
        elif name == "undo":
            if kind == 2 and self.resumed:
                self.new_game(now)  # long press right after power-up: abandon the resumed game
                return
            try:
                self.undo_request(now)
            except XoboError as exc:
                self.emit("event error %s" % exc)
        elif name == "hint":
            if kind == 2:  # long press: the computer opponent, off -> other side -> mover
                self.cycle_opponent(now)
                return
            try:
                self.show_hint(now)
            except XoboError as exc:
                self.emit("event error %s" % exc)

    def cycle_opponent(self, now):
        """The hint button's long press: the computer opponent goes off -> the side not to
        move (you keep the side to move) -> the side to move (it moves now) -> off. Saved and
        announced like a serial ``set opponent``; the computer's edges double-flash in its
        colour (every edge dim white: off). Returns the new value."""
        cur = self.settings["opponent"]
        mover = SIDE_NAMES[self.pos.side]
        if cur == "off":
            v = SIDE_NAMES[self.pos.side ^ 1]
        elif cur == mover:
            v = "off"
        else:
            v = mover
        self.set_setting("opponent", v, now)
        self.light.show_opponent(-1 if v == "off" else SIDE_NAMES.index(v), now)
        return v

    # ------------------------------------------------------------ settings

    def set_setting(self, key, value, now=None):
        """Validate, apply, save and announce (``event setting KEY VALUE``); returns a note
        ('' or 'takes effect at the next new game'). A computer move waiting for the cubes
        is cancelled when the computer no longer plays the side to move, or when the level
        changes before any cube of it was moved (the computer then chooses again)."""
        v = check_setting(key, value)
        old = self.settings.get(key)
        self.settings[key] = v
        if key == "settle":
            self.inf.set_settle(v)
        elif key == "brightness":
            self._apply_brightness()
        elif key == "hints":
            self.light.hints = v == "on"
        elif key in ("opponent", "level"):
            self.ai_failed_ply = -1
            t = self.d.clock.ticks_ms() if now is None else now
            if (key == "opponent" and self.pending_from == "computer"
                    and v != SIDE_NAMES[self.pos.side]):
                self.cancel_pending(t)
            elif (key == "level" and v != old and self.pending_from == "computer"
                  and self.inf.n_lifted == 0 and self.inf.n_added == 0):
                # no cube of it moved yet: the computer chooses again at the new level
                self.cancel_pending(t)
            if key == "opponent" and v != "off":
                self.load_ai()
        self.save_settings()
        self.emit("event setting %s %s" % (key, v))
        if key in NEW_GAME_KEYS:
            cur = self.pos.variant if key == "variant" else SIDE_NAMES[self.first]
            if cur != v:
                return "takes effect at the next new game"
        return ""

    def _apply_brightness(self):
        self.d.leds.brightness = self.settings["brightness"] * 255 // 100
        self.force_show = True
        self.light.hints = self.settings["hints"] == "on"

    # ------------------------------------------------------------ self-test

    def start_selftest(self, now):
        try:
            from xobo.runtime.selftest import SelfTest
        except ImportError:
            raise XoboError("self-test is not available (xobo.runtime.selftest missing)") from None
        bd = self.d.boarddef
        st = SelfTest(cell_of_key=getattr(bd, "cell_of_key", None))
        st.start(now)
        self.selftest = st
        self.emit("event selftest start")

    def _end_selftest(self, now):
        st = self.selftest
        self.selftest = None
        self.force_show = True
        for line in st.report_lines():
            self.emit("event " + line)
        self.inf.observe(self.d.debouncer.stable, now)
        self.last_state = -1

    # ------------------------------------------------------------ state for hosts

    def side_name(self):
        return SIDE_NAMES[self.pos.side]

    def result_name(self):
        w = self.pos.winner()
        return SIDE_NAMES[w] if w >= 0 else "*"

    def result_text(self):
        """'*' while the game goes on, else the winner and how: 'ew blocus'."""
        w = self.pos.winner()
        if w < 0:
            return "*"
        return "%s %s" % (SIDE_NAMES[w], result_reason(self.pos))


# ---------------------------------------------------------------- the device's main loop


def _asyncio():
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
        from xobo.runtime.boarddef import default_boarddef, make_drivers

        drivers = make_drivers(boarddef or default_boarddef())
    app = App(drivers)
    serve(app, Protocol(app), stdin, stdout)
    return app


def serve(app, proto, stdin=None, stdout=None):
    """Run the board's tasks (scan, light, watchdog, serial) until the end of input (never
    on the device)."""
    _asyncio().run(run_tasks(app, proto, stdin, stdout))


async def run_tasks(app, proto, stdin=None, stdout=None):
    """The tasks: scan+debounce+infer every 10 ms, light every 20 ms, serial, watchdog. The
    serial task reads one byte per wake-up, so a host sending junk without a newline can
    never block the scan (the protocol drops overlong lines)."""
    import sys

    asyncio = _asyncio()
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
            data = await read(1)
            if not data:
                stop[0] = True  # end of input (desktop runs only)
                return
            if isinstance(data, str):
                data = data.encode()
            proto.feed(data)

    await asyncio.gather(scan_task(), light_task(), watchdog_task(), serial_task())
