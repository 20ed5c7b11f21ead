"""A real board over USB serial, mirrored in the simulator's page and recorded in a database.

``SerialLink`` speaks the board's line protocol (docs/protocol.md): a command gets one reply
line starting with ``ok`` or ``error``; ``record``, ``settings`` and ``help`` answer with
several ``ok ...`` lines closed by ``ok end``; ``event ...`` lines (after ``follow on``) can
arrive at any time and go to a callback. ``MonitorBackend`` sends ``follow on``, reads the
position and the record whenever the board reports something (and every few seconds), and
offers the page the same snapshot as the simulator (read-only: the page cannot move cubes).

Usage::

    from xobo_host.sim.monitor import SerialLink, MonitorBackend
    link = SerialLink.open("/dev/ttyACM0")
    backend = MonitorBackend(link, recorder=Recorder(GamesDB("games.sqlite"), "/dev/ttyACM0"))
    backend.start()
"""

import queue
import threading
import time

from xobo.errors import XoboError
from xobo.games.xobo.board import result_reason
from xobo.games.xobo.rules.position import Position
from xobo_host.sim.backend import ActionError
from xobo_host.sim.feed import PageFeed

MULTI_LINE = ("record", "settings", "help")
SIDES = ("ns", "ew")


class LinkError(IOError):
    """The board does not answer, or the serial line failed."""


class SerialLink:
    """One serial connection to a board: commands with replies, events to a callback."""

    def __init__(self, port, on_event=None):
        self.port = port  # a pyserial Serial (or anything with read/write/close)
        self.on_event = on_event
        self.replies = queue.Queue()
        self.cmd_lock = threading.Lock()
        self.closed = False
        self.error = ""
        self._buf = bytearray()
        self._thread = threading.Thread(target=self._reader, name="xobo-serial", daemon=True)
        self._thread.start()

    @classmethod
    def open(cls, device, baudrate=115200, on_event=None):
        import serial  # pyserial

        try:
            port = serial.Serial(device, baudrate=baudrate, timeout=0.1)
        except (serial.SerialException, OSError) as exc:
            raise LinkError("cannot open %s: %s" % (device, exc)) from None
        return cls(port, on_event)

    def _reader(self):
        while not self.closed:
            try:
                data = self.port.read(256)
            except Exception as exc:  # a board unplugged: pyserial raises SerialException
                if not self.closed:
                    self.error = "serial line lost: %s" % exc
                    self.closed = True
                    self.replies.put(None)
                return
            if not data:
                continue
            self._buf.extend(data)
            while True:
                i = self._buf.find(b"\n")
                if i < 0:
                    break
                line = bytes(self._buf[:i]).decode("utf-8", "replace").strip("\r").strip()
                del self._buf[:i + 1]
                if not line:
                    continue
                if line.startswith("event "):
                    if self.on_event:
                        self.on_event(line)
                elif line.startswith("ok") or line.startswith("error"):
                    self.replies.put(line)
                # anything else (a boot banner, a traceback) is not for us

    def command(self, line, timeout=3.0):
        """Send one command line; returns its reply lines (``ok end`` included)."""
        name = line.split(None, 1)[0].lower() if line.strip() else ""
        multi = name in MULTI_LINE
        script = name.startswith("!")  # unix-port script lines: 'ok ...' lines, then 'ok'
        with self.cmd_lock:
            if self.closed:
                raise LinkError(self.error or "the serial line is closed")
            while not self.replies.empty():  # stale replies of a timed-out command
                self.replies.get_nowait()
            self.port.write((line.strip() + "\n").encode("ascii", "replace"))
            self.port.flush()
            out = []
            deadline = time.monotonic() + timeout
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise LinkError("the board did not answer %r within %.1f s" % (line, timeout))
                try:
                    reply = self.replies.get(timeout=left)
                except queue.Empty:
                    continue
                if reply is None:
                    raise LinkError(self.error or "the serial line is closed")
                out.append(reply)
                if reply.startswith("error"):
                    return out
                if script:
                    if reply == "ok":
                        return out
                elif not multi or reply == "ok end":
                    return out

    def close(self):
        self.closed = True
        try:
            self.port.close()
        except Exception:
            pass
        self._thread.join(1)


def _strip_ok(lines):
    out = []
    for line in lines:
        if line == "ok end":
            break
        out.append(line[3:] if line.startswith("ok ") else line[2:].lstrip())
    return out


def _record_text(lines):
    """The record's lines as N2 text: the protocol drops the blank line after the tags."""
    out = []
    for line in lines:
        if out and out[-1].startswith("[") and not line.startswith("["):
            out.append("")
        out.append(line)
    return "\n".join(out) + "\n"


class MonitorBackend(PageFeed):
    """The page's view of a real board: position, record, events (read-only mirror)."""

    mode = "monitor"

    def __init__(self, link, recorder=None, device="", poll_s=2.0, max_events=200):
        PageFeed.__init__(self, max_events)
        self.link = link
        self.recorder = recorder
        self.device = device
        self.poll_s = poll_s
        self.hand = 0
        self.game_id = None
        self.error = ""
        self._wake = threading.Event()
        self._running = False
        self._thread = None
        self._has_leds = None
        self._snap = self._make_snap("", "", [], {})
        link.on_event = self._on_event

    # -- lifecycle ----------------------------------------------------------------------------
    def start(self, first_timeout=10.0):
        # a board may still be booting when its port opens: wait longer for the first reply
        reply = self.link.command("follow on", timeout=first_timeout)
        if not reply or not reply[0].startswith("ok"):
            raise LinkError("the board refused 'follow on': %s" % " ".join(reply))
        self.refresh()
        self._running = True
        self._thread = threading.Thread(target=self._run, name="xobo-monitor", daemon=True)
        self._thread.start()
        return self

    def stop(self):
        self._running = False
        self._wake.set()
        if self._thread is not None:
            self._thread.join(2)
        self._wake_listeners()

    def _run(self):
        while self._running:
            self._wake.wait(self.poll_s)
            self._wake.clear()
            if not self._running:
                break
            try:
                self.refresh()
            except LinkError as exc:
                self._set_error(str(exc))
                if self.link.closed:
                    break
            except Exception as exc:  # a board's odd reply must not end the polling silently
                self._set_error("cannot read the board's reply: %s: %s"
                                % (type(exc).__name__, exc))

    def _on_event(self, line):
        # a real board's events come as serial lines, 'event KIND FIELDS' (the protocol)
        words = line.split()
        kind = words[1] if len(words) > 1 else ""
        with self.lock:
            self._add_event(line, kind)
            if self.recorder is not None and len(words) > 1 and words[1] in ("new", "load"):
                self.recorder.mark_new_game()
        if not line.startswith("event switch"):
            self._wake.set()  # read the position and the record again
        self._bump()

    def _set_error(self, text):
        with self.lock:
            self.error = text
            self._snap = dict(self._snap, last_error=text)
        self._bump()

    # -- reading the board --------------------------------------------------------------------
    def refresh(self):
        """Ask the board for its position, record (and LEDs if it can tell); update the DB."""
        pos_reply = self.link.command("position")
        if not pos_reply or not pos_reply[0].startswith("ok "):
            raise LinkError("position: %s" % " ".join(pos_reply))
        position = pos_reply[0][3:].strip()
        record = _record_text(_strip_ok(self.link.command("record")))
        leds = self._leds()
        with self.lock:
            snap = self._make_snap(position, record, leds, {})
            changed = snap != self._snap
            self._snap = snap
        if changed:
            self._bump()
        if self.recorder is not None:
            try:
                game_id = self.recorder.observe(record)
            except XoboError as exc:
                self._set_error("the board's record cannot be read: %s" % exc)
                return
            if game_id != self.game_id:
                with self.lock:
                    self.game_id = game_id
                    self._snap = dict(self._snap, game_id=game_id)
                self._bump()

    def _leds(self):
        """LED colours from the ``leds`` command: 81 cells, then edges N S E W ("rrggbb")."""
        if self._has_leds is False:
            return []
        try:
            reply = self.link.command("leds", timeout=1.0)
        except LinkError:
            self._has_leds = False
            return []
        if not reply or not reply[0].startswith("ok"):
            self._has_leds = False
            return []
        self._has_leds = True
        return reply[0].split()[1:]

    def _make_snap(self, position, record, leds, extra):
        state = {"position": position, "record": record}
        counts = [0] * 81
        try:
            pos = Position.parse(position) if position else None
        except XoboError:
            pos = None
        if pos is not None:
            counts = list(pos.heights)
            w = pos.winner()
            state.update({
                "side": SIDES[pos.side],
                "voina": bool(pos.under_voina()) and w < 0,
                "result": "*" if w < 0 else ("NS", "EW")[w],
                "result_reason": result_reason(pos),
                "reserves": {"common": pos.common, "ns": pos.own[0], "ew": pos.own[1]},
            })
        cells = ["000000"] * 81
        edges = {e: "000000" for e in ("N", "E", "S", "W")}
        hexes = [x for x in leds if len(x) == 6]
        if len(hexes) >= 81:
            cells = [h.lower() for h in hexes[:81]]
            for e, h in zip(("N", "S", "E", "W"), hexes[81:85], strict=False):
                edges[e] = h.lower()
        snap = {
            "mode": self.mode, "device": self.device, "cells": cells, "edges": edges,
            "counts": counts, "hand": 0, "state": state, "event_seq": self.event_seq,
            "game_id": self.game_id, "leds_known": len(hexes) >= 81,
            "errors": 1 if self.error else 0, "last_error": self.error,
        }
        snap.update(extra)
        return snap

    # -- the page's interface (PageFeed's, as SimBackend) --------------------------------------
    def snapshot(self):
        with self.lock:  # the event count as of now, not as of the last refresh
            snap = PageFeed.snapshot(self)
            snap["event_seq"] = self.event_seq
            return snap

    def action(self, req):
        raise ActionError("the monitor is a read-only mirror of the board: play on the board")
