"""The simulated board behind the web page: the firmware (VirtualBoard) stepped in real time.

A thread steps the firmware every ``step_ms`` under a lock; every action of the page (put a
cube, lift a stack into the hand, take a captured pair off, press a button, send a protocol
command, load a position or a record) runs under the same lock. The page reads a *snapshot*
(LED colours, cube counts, the hand, the firmware's state) that changes ``version`` whenever
anything it shows changes, plus the event lines the firmware sent.

Usage::

    from xobo_host.sim.backend import SimBackend, make_virtual_board
    backend = SimBackend(make_virtual_board(flash_dir="/tmp/flash"))
    backend.start()
    backend.action({"action": "put", "cell": "e5"})
    snap = backend.snapshot()          # {"cells": [...81 "rrggbb"], "counts": [...], ...}
    backend.stop()
"""

import os
import threading
import time

from xobo.compat import ticks_diff
from xobo.errors import XoboError
from xobo.games.xobo.rules.geometry import cell_name, parse_cell
from xobo.games.xobo.rules.position import Position
from xobo.games.xobo.rules.record import parse_record
from xobo_host.sim.feed import PageFeed

BUTTONS = ("ok", "undo", "hint")
# A press must stay down for this long on the board's clock, over at least MIN_PRESS_STEPS
# steps, before its release reaches the firmware: the buttons' debounce (20 ms) then always sees
# it, even when the stepping thread was starved while the page's short tap came and went.
MIN_PRESS_MS = 60
MIN_PRESS_STEPS = 3
EDGES = ("N", "E", "S", "W")
# A set has 36 cubes (rules B1): what is neither on the board nor in the hand is in the box.
CUBES = 36
# Virtual time between two hand actions when the simulator moves the cubes itself (a record's
# replay, the computer's move played for the player): long enough for the switches' debounce.
HAND_MS = 60


class ActionError(ValueError):
    """A page action that cannot be done (bad cell, empty cell, unknown action)."""


def default_flash_dir():
    """Per-user directory where the simulated Pico's flash lives between runs."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                           "share")
    return os.path.join(base, "xobo", "sim-flash")


def make_virtual_board(flash_dir=None, board="pico_gpio", settings=None):
    """The firmware's VirtualBoard facade in real time (imported lazily: it is the app's)."""
    from xobo.runtime.virtual_board import VirtualBoard

    if flash_dir:
        os.makedirs(flash_dir, exist_ok=True)
    return VirtualBoard(flash_dir=flash_dir, board=board, realtime=True, settings=settings)


def _cell(value):
    if isinstance(value, int):
        if 0 <= value < 81:
            return value
        raise ActionError("cell %d is off the board (0..80)" % value)
    if not isinstance(value, str):
        raise ActionError("an action needs a cell, like \"e5\"")
    try:
        return parse_cell(value.strip().lower())
    except XoboError as exc:
        raise ActionError(str(exc)) from None


def _is_position(text):
    """An N3 string has ranks separated by '/' and no tag lines or move numbers."""
    t = text.strip()
    return "[" not in t and "/" in t.split()[0]


class SimBackend(PageFeed):
    """The firmware in this process, stepped by a thread, shared by every page that connects."""

    mode = "sim"

    def __init__(self, board, step_ms=10, snapshot_ms=40, max_events=200, restore_cubes=True):
        PageFeed.__init__(self, max_events)
        self.board = board
        self.step_ms = step_ms
        self.snapshot_ms = snapshot_ms
        self.hand = 0
        self._thread = None
        self._running = False
        self._pressed = {}  # button -> [board ticks at press, steps since, release pending]
        self.errors = 0
        self.last_error = ""
        self.loading = None  # a record's replay: {"done": moves replayed, "total": moves}
        board.subscribe(self._on_event)
        with self.lock:
            if restore_cubes:
                # the cubes stayed on the board while the simulator was off: the resumed game
                self._sync_cubes()
                board.step()
            self._refresh()

    # -- the stepping thread ------------------------------------------------------------------
    def start(self):
        if self._thread is None:
            self._running = True
            self._thread = threading.Thread(target=self._run, name="xobo-sim-step", daemon=True)
            self._thread.start()
        return self

    def stop(self):
        self._running = False
        if self._thread is not None:
            self._thread.join(2)
            self._thread = None
        self._wake_listeners()

    def _run(self):
        next_snap = 0.0
        while self._running:
            t0 = time.monotonic()
            with self.lock:
                try:
                    self.board.step()
                    self._release_due_buttons()
                except Exception as exc:  # the firmware must never take the server down
                    self.errors += 1
                    self.last_error = "%s: %s" % (type(exc).__name__, exc)
                if t0 >= next_snap:
                    self._refresh()
                    next_snap = t0 + self.snapshot_ms / 1000.0
            left = self.step_ms / 1000.0 - (time.monotonic() - t0)
            if left > 0:
                time.sleep(left)

    # -- what the page sees -------------------------------------------------------------------
    def _on_event(self, line):
        self._add_event(line)

    def _read(self):
        b = self.board
        st = dict(b.state())
        st.pop("counts", None)
        return {
            "mode": self.mode,
            "cells": list(b.cell_colors()),
            "edges": dict(b.edge_colors()),
            "counts": list(b.switches.counts),
            "hand": self.hand,
            "box": self.box(),
            "say": b.app.guide_text() if b.powered else "",
            "loading": self.loading,
            "state": st,
            "event_seq": self.event_seq,
            "errors": self.errors,
            "last_error": self.last_error,
        }

    def box(self):
        """The cubes left in the box: the set's 36 less those on the board and in the hand."""
        return max(0, CUBES - sum(self.board.switches.counts) - self.hand)

    def _refresh(self):
        """Read the board (lock held); bump the version and wake the listeners on a change."""
        snap = self._read()
        if snap != self._snap:
            self._snap = snap
            self._bump()

    # -- what the page does -------------------------------------------------------------------
    def action(self, req):
        """Do one page action (a dict from POST /action); returns a dict for the reply."""
        if not isinstance(req, dict):
            raise ActionError("an action is a JSON object like {\"action\": \"put\", ...}")
        kind = req.get("action")
        handler = getattr(self, "_do_" + str(kind), None)
        if handler is None:
            raise ActionError(
                "unknown action %r (put, lift, take, drop, press, release, hold, command, "
                "load, new, clear, power_cut, play)" % (kind,)
            )
        with self.lock:
            out = handler(req)
            self.board.step()
            self._refresh()
        out.setdefault("ok", True)
        out["version"] = self.version
        return out

    def _do_put(self, req):
        """Put one cube on a cell: from the hand if it holds any, else from the reserve."""
        c = _cell(req.get("cell"))
        if self.hand == 0 and self.box() == 0:
            raise ActionError("no cube left in the box: the set has %d and they are all on "
                              "the board; take some off first (shift-click)" % CUBES)
        self.board.put(c)
        src = "hand" if self.hand > 0 else "box"
        if self.hand > 0:
            self.hand -= 1
        return {"cell": cell_name(c), "from": src}

    def _do_lift(self, req):
        """Lift everything off a cell into the hand (a stack about to be spread)."""
        c = _cell(req.get("cell"))
        n = self.board.switches.counts[c]
        if n == 0:
            raise ActionError("%s is empty: nothing to lift" % cell_name(c))
        self.board.lift(c)
        self.hand += n
        return {"cell": cell_name(c), "lifted": n}

    def _do_take(self, req):
        """Take cubes off a cell back into the box (a captured pair to the mover's reserve)."""
        c = _cell(req.get("cell"))
        have = self.board.switches.counts[c]
        n = req.get("n", have)
        if not isinstance(n, int) or n < 1:
            raise ActionError("take needs a number of cubes n >= 1")
        if have == 0:
            raise ActionError("%s is empty: nothing to take off" % cell_name(c))
        n = min(n, have)
        self.board.take(c, n)
        return {"cell": cell_name(c), "taken": n}

    def _do_drop(self, req):
        """Put the cubes in the hand back into the box."""
        n, self.hand = self.hand, 0
        return {"dropped": n}

    def _button(self, req):
        name = req.get("button")
        if name not in BUTTONS:
            raise ActionError("unknown button %r (ok, undo, hint)" % (name,))
        return name

    def _do_press(self, req):
        name = self._button(req)
        self.board.press(name)
        self._pressed[name] = [self.board.clock.ticks_ms(), 0, False]
        return {"button": name}

    def _do_release(self, req):
        name = self._button(req)
        held = self._pressed.get(name)
        if held is not None and self._thread is not None and not self._press_seen(held):
            held[2] = True  # the stepping thread releases it once the firmware has seen it
        else:
            self._pressed.pop(name, None)
            self.board.release(name)
        return {"button": name}

    def _press_seen(self, held):
        return (held[1] >= MIN_PRESS_STEPS
                and ticks_diff(self.board.clock.ticks_ms(), held[0]) >= MIN_PRESS_MS)

    def _release_due_buttons(self):
        """After a step: count it for held buttons, and release those whose time has come."""
        for name in list(self._pressed):
            held = self._pressed[name]
            held[1] += 1
            if held[2] and self._press_seen(held):
                del self._pressed[name]
                self.board.release(name)

    def _do_command(self, req):
        line = req.get("line")
        if not isinstance(line, str) or not line.strip():
            raise ActionError("command needs a protocol line, like \"position\"")
        reply = list(self.board.command(line.strip()))
        ok = bool(reply) and reply[0].startswith("ok")
        return {"ok": ok, "reply": reply}

    def _do_play(self, req):
        """Play the host's or the computer's move that waits for the cubes as a player would:
        one hand action at a time through the virtual switches (a spread: lift the stack,
        a cube on each cell, the pairs off; a regroup: each cube onto the stack cell). The
        firmware commits it once the cubes stay still, as any move."""
        from xobo.games.xobo.rules.geometry import ray as ray_of
        from xobo.games.xobo.rules.notation import format_move

        app = self.board.app
        m = app.pending
        if m < 0:
            raise ActionError("no move waits for the cubes: the computer's move is shown on "
                              "its turn (Play against the computer)")
        if app.inf.state_name() != "match":
            raise ActionError("the cubes are not as the position says: finish or put back "
                              "what was moved first")
        if self.hand:
            self._do_drop(req)
        kind = m & 3
        c = (m >> 2) & 127
        n = m >> 12
        ray = ray_of(c, (m >> 9) & 7)
        hand = []
        if kind == 0:
            hand.append(("put", c))
        elif kind == 1:
            for k in range(n - 1):
                hand += [("lift", ray[k]), ("put", c)]
        else:
            hand.append(("lift", c))
            pairs = []
            for k in range(n):
                hand.append(("put", ray[k]))
                if self.board.switches.counts[ray[k]] == 1:
                    pairs.append(ray[k])
            hand += [("take", t) for t in pairs]
        for what, cell in hand:
            getattr(self, "_do_" + what)({"cell": cell})
            self.board.advance(HAND_MS)
        return {"played": format_move(m)}

    def _do_power_cut(self, req):
        """Power lost and back: the firmware reboots from its flash; the cubes stay."""
        self.board.power_cut()
        return {}

    def _do_clear(self, req):
        """Sweep every cube off the board and empty the hand (physical only)."""
        self.board.switches.set_counts(bytearray(81))
        self.hand = 0
        return {}

    def _do_new(self, req):
        """A new game: the firmware's ``new`` and the board swept clean."""
        reply = list(self.board.command("new"))
        if not reply or not reply[0].startswith("ok"):
            return {"ok": False, "reply": reply, "error": _error_text(reply)}
        self._do_clear(req)
        return {"reply": reply}

    def _sync_cubes(self):
        """Set the physical cubes to the heights of the firmware's position."""
        text = self.board.state()["position"]
        pos = Position.parse(text)
        self.board.switches.set_counts(pos.heights)
        self.hand = 0

    def _do_load(self, req):
        """Load a position (N3) or a game record (N2); the cubes are then set to match."""
        text = req.get("text")
        if not isinstance(text, str) or not text.strip():
            raise ActionError("paste a position (N3) or a game record (N2) to load")
        text = text.strip()
        if _is_position(text):
            one_line = " ".join(text.split())
            try:
                Position.parse(one_line)
            except XoboError as exc:
                return {"ok": False, "error": "position: %s" % exc}
            reply = list(self.board.command("load " + one_line))
            if not reply or not reply[0].startswith("ok"):
                return {"ok": False, "reply": reply, "error": _error_text(reply)}
            self._sync_cubes()
            return {"loaded": "position", "reply": reply}
        try:
            rec = parse_record(text)
        except XoboError as exc:
            return {"ok": False, "error": "record: %s" % exc}
        return self._replay(rec)

    def _advance_until(self, done, ms):
        """Let up to ``ms`` of the board's time pass (lock held; virtual time, so a replay
        waits for no clock) until ``done()``; returns ``done()``."""
        left = ms
        while left > 0:
            if done():
                return True
            self.board.advance(10)
            left -= 10
        return done()

    def _ply(self):
        return self.board.app.pos.ply

    def _replay(self, rec):
        """Replay a record on the board as players would: the board is told each move
        (``move``), the cubes are set to the position after it and ``ok`` commits it. The
        record's variant and first player are set for the replay only: the user's settings
        (for the next new game) are restored afterwards, whatever happened."""
        settings = self.board.app.settings
        saved = (settings["variant"], settings["first"])
        try:
            return self._replay_moves(rec)
        finally:
            self.loading = None
            self._refresh()
            for key, value in zip(("variant", "first"), saved, strict=True):
                if settings[key] != value:
                    self.board.command("set %s %s" % (key, value))

    def _replay_moves(self, rec):
        from xobo.games.xobo.rules.notation import format_move

        replies = []
        first = "ns" if rec.first == 0 else "ew"
        for key, value in (("variant", rec.variant), ("first", first)):
            replies += self.board.command("set %s %s" % (key, value))
        if rec.start is not None:
            reply = list(self.board.command("load " + rec.start))
        else:
            reply = list(self.board.command("new"))
        replies += reply
        if not reply or not reply[0].startswith("ok"):
            return {"ok": False, "reply": replies, "error": _error_text(reply)}
        pos = rec.start_position()
        self.hand = 0
        self.board.switches.set_counts(pos.heights)
        inf = self.board.app.inf
        self._advance_until(lambda: inf.state_name() == "match", 2000)
        total = len(rec.moves)
        for k, m in enumerate(rec.moves):
            self.loading = {"done": k, "total": total}
            self._refresh()  # the page shows the progress (its snapshot needs no lock)
            text = format_move(m)
            reply = list(self.board.command("move " + text))
            replies += reply
            if not reply or not reply[0].startswith("ok"):
                return {"ok": False, "reply": replies,
                        "error": "move %s: %s" % (text, _error_text(reply))}
            pos.apply(m)
            self.board.switches.set_counts(pos.heights)
            want = k + 1
            if not self._advance_until(lambda want=want: inf.state_name() in
                                       ("complete", "wait-longer") or self._ply() >= want, 2000):
                return {"ok": False, "reply": replies,
                        "error": "move %s: the board did not see the cubes" % text}
            if self._ply() < want:
                self.board.press("ok")
                self._advance_until(lambda want=want: self._ply() >= want, HAND_MS)
                self.board.release("ok")
                self.board.advance(HAND_MS)
            if not self._advance_until(lambda want=want: self._ply() >= want, 3000):
                return {"ok": False, "reply": replies,
                        "error": "move %s: the board did not commit it" % text}
        return {"loaded": "record", "moves": len(rec.moves), "reply": replies}


def _error_text(reply):
    if not reply:
        return "the board did not answer"
    line = reply[0]
    return line[len("error"):].strip() if line.startswith("error") else line
