"""A real board over USB serial, mirrored in the simulator's page and recorded in a database.

``SerialLink`` speaks the board's line protocol (docs/protocol.md): a command gets one reply
line starting with ``ok`` or ``error``; ``record``, ``settings`` and ``help`` answer with
several ``ok ...`` lines closed by ``ok end``; ``event ...`` lines (after ``follow on``) can
arrive at any time and go to a callback. ``MonitorBackend`` sends ``follow on``, reads the
settings (which game, its parameters), the position, the record and the LEDs whenever the
board reports something (and every few seconds), and offers the page the same snapshot as the
simulator (read-only: the page cannot move cubes), for whichever game the board plays: the
game's own package reads the position, its board layer and the simulator's drawing hooks say
what to draw, its record module records it (``xobo_host.records.gamerecords``).

Usage::

    >>> from xobo_host.records.gamesdb import GamesDB, Recorder
    >>> from xobo_host.sim.monitor import MonitorBackend, SerialLink
    >>> from xobo_host.sim.ptyboard import PtyBoard
    >>> board = PtyBoard("flash-t1", hands_clock=True).plug()   # a stand-in board on a pty
    >>> link = SerialLink.open(board.device)      # a Pico: SerialLink.open("/dev/ttyACM0")
    >>> link.command("version")
    ['ok xobo-board ... protocol ...']
    >>> backend = MonitorBackend(link, recorder=Recorder(GamesDB("games.sqlite"), board.device))
    >>> backend = backend.start()                 # follows the board, records its games
    >>> snap = backend.snapshot()
    >>> for hand in ("put e5", "wait 1200"):      # a player's move, then the settle time
    ...     _ = board.play(hand)
    >>> for _ in range(50):                       # until the mirror has read the move
    ...     if snap["state"]["ply"] == 1: break
    ...     snap = backend.wait_change(snap["version"], 1.0)
    >>> snap["state"]["game"], snap["state"]["ply"], snap["state"]["side"]
    ('xobo', 1, 'ew')
    >>> backend.stop(); link.close(); board.unplug()
"""

import contextlib
import math
import queue
import threading
import time

from xobo import games
from xobo.errors import XoboError
from xobo.games import part
from xobo.runtime import colours
from xobo.runtime.topology import Topology
from xobo_host.records.gamerecords import GameRecordError, has_records
from xobo_host.records.gamesdb import GamesDBError
from xobo_host.sim.backend import ActionError, game_drawing
from xobo_host.sim.feed import PageFeed

MULTI_LINE = ("record", "settings", "help", "games")
# the events after which the board's settings are as they were (a move played, lit, taken
# back, a switch): the mirror reads the game again, not the settings
CHANGE_ONLY_THE_GAME = ("switch", "move", "expect", "cancel", "undo", "voina", "result",
                        "hint", "fix", "restore", "match", "say", "offer")
# the events after which the board's position and record are as they were (a move lit, a
# hint, the pieces out of place or back in place, words for people): its light and state
# are read again, not those
KEEP_THE_GAME = ("switch", "expect", "cancel", "hint", "fix", "restore", "match", "say",
                   "button")
READER_WAKE_S = 30.0
# the commands after which the board's ``record`` is another game's (``set game X``: the
# other game's own): ``SerialLink.before_game_change`` is called before they are sent
GAME_CHANGES = ("new", "load")
EDGES = ("N", "S", "E", "W")  # the order of the edges in the 'leds' reply
SMALLEST_BOARD = 9  # a board whose LEDs are not known: the 9 x 9, or the game's own size


class LinkError(IOError):
    """The board does not answer, or the serial line failed."""


def _line_reader(link):
    """pyserial's ``LineReader`` for the board's lines, handing them to ``link``."""
    import serial.threaded

    class BoardLines(serial.threaded.LineReader):
        TERMINATOR = b"\n"
        ENCODING = "utf-8"
        UNICODE_HANDLING = "replace"

        def handle_line(self, line):
            link.line_read(line)

        def connection_lost(self, exc):
            link.line_lost(exc)

    return BoardLines


def serial_port_class():
    """pyserial's ``Serial`` whose ``in_waiting`` says a port that went away (a board
    unplugged: EIO from the ioctl) as the ``SerialException`` its reader thread ends on;
    pyserial's own raises ``OSError`` there, which killed the reader thread without
    ``connection_lost``, and the table stayed online."""
    import serial

    class Port(serial.Serial):
        @property
        def in_waiting(self):
            try:
                return serial.Serial.in_waiting.fget(self)
            except OSError as exc:
                raise serial.SerialException("the port went away: %s" % exc) from None

    return Port


class SerialLink:
    """One serial connection to a board: commands with replies, events to a callback. The
    lines are read by pyserial's own reader thread (``serial.threaded.ReaderThread`` with a
    ``LineReader``).

    Every command goes out with a request id (``#17 state``, docs/protocol.md) and only the
    lines that start with it are its reply: a reply to a line someone typed on the link, or
    a late reply to a command given up, starts with no id or another one and is set aside
    (``stray_lines`` counts them), never taken for the answer to another command."""

    def __init__(self, port, on_event=None):
        import serial.threaded

        self.port = port  # a pyserial Serial
        self.on_event = on_event
        self.replies = queue.Queue()  # (request id or "", line without it, events before)
        self.events_read = 0  # event lines read so far (written by the reader thread only)
        self.cmd_lock = threading.Lock()
        self.closed = False
        self.error = ""
        # called (with no argument, in the caller's thread, before the command is sent)
        # before a command that makes the board play another game: the mirror reads the
        # record of the game being left first (``MonitorBackend.record_now``)
        self.before_game_change = None
        self.next_id = 1  # the request id of the next command (the command lock held)
        # reply lines that answered no command of ours (typed on the link, or the late reply
        # of a command given up): set aside, counted
        self.stray_lines = 0
        # replies given up (not come in time): their lines, if they come, are stray
        self.replies_given_up = 0
        # a board that answered a request id with "unknown command '#...'": a firmware from
        # before request ids (flash the board: xobo flash)
        self.ids_refused = False
        self._reader = serial.threaded.ReaderThread(port, _line_reader(self))
        self._reader.name = "xobo-serial"
        self._reader.start()

    @classmethod
    def open(cls, device, baudrate=115200, on_event=None):
        import serial  # pyserial

        try:
            # (the reader returns what arrives at once; the timeout is only how often an idle
            # reader thread wakes: a host following a hundred boards has a hundred of them,
            # and pyserial's reader is stopped by cancel_read, not by its timeout)
            port = serial_port_class()(device, baudrate=baudrate, timeout=READER_WAKE_S)
        except (serial.SerialException, OSError) as exc:
            raise LinkError("cannot open %s: %s" % (device, exc)) from None
        return cls(port, on_event)

    def line_read(self, line):
        """The reader thread's line: an event to ``on_event``, a reply to ``replies``."""
        line = line.strip("\r").strip()
        if not line:
            return
        if line.startswith("event "):
            self.events_read += 1
            if self.on_event:
                self.on_event(line)
            return
        tag = ""
        if line.startswith("#"):
            tag, _, line = line.partition(" ")
        if line.startswith("ok") or line.startswith("error"):
            if not tag and line.startswith("error unknown command '#"):
                self.ids_refused = True
            self.replies.put((tag, line, self.events_read))
        # anything else (a boot banner, a traceback) is not for us

    def line_lost(self, exc):
        """The reader ended: a board unplugged (pyserial raises SerialException), or closed."""
        if not self.closed:
            self.error = "serial line lost: %s" % (exc or "the port closed")
            self.closed = True
            self.replies.put((None, None, self.events_read))

    def command(self, line, timeout=3.0):
        """Send one command line; returns its reply lines (``ok end`` included), without
        their request id."""
        return self.command_in_order(line, timeout)[0]

    def command_in_order(self, line, timeout=3.0):
        """``command``, and how many event lines the board sent before its reply ended: the
        serial line keeps the board's order, so an event counted here happened before the
        reply was written (an event a thread sees later may have come after it)."""
        return self.commands_in_order([line], timeout)[0]

    def commands_in_order(self, lines, timeout=3.0):
        """Several commands sent in one write (the board answers them one after the other,
        in order: one round trip, not one each): (reply lines, events sent before the reply
        ended) of each, in order."""
        asked = []
        for line in lines:
            words = line.split(None, 2)
            name = words[0].lower() if words else ""
            hook = self.before_game_change
            if hook is not None and (name in GAME_CHANGES or name == "set" and len(words) > 1
                                     and words[1].lower() == "game"):
                hook()
            # (unix-port script lines ('!put e5') are no protocol command: they take no id
            # and answer 'ok ...' lines, then 'ok')
            asked.append((line.strip(), name in MULTI_LINE, name.startswith("!")))
        with self.cmd_lock:
            if self.closed:
                raise LinkError(self.error or "the serial line is closed")
            while not self.replies.empty():  # (lines that answer nothing asked now)
                tag, reply, _ = self.replies.get_nowait()
                if reply is None:
                    raise LinkError(self.error or "the serial line is closed")
                self.stray_lines += 1
            out = []
            tagged = []
            for line, multi, script in asked:
                tag = "" if script else "#%d" % self.next_id
                self.next_id = self.next_id % 99999999 + 1
                tagged.append((tag, line, multi, script))
                out.append(line + "\n" if script else "%s %s\n" % (tag, line))
            self.port.write("".join(out).encode("ascii", "replace"))
            self.port.flush()
            deadline = time.monotonic() + timeout
            out = []
            for k, (tag, line, multi, script) in enumerate(tagged):
                try:
                    out.append(self._reply(tag, line, multi, script, deadline, timeout))
                except LinkError:
                    self.replies_given_up += len(tagged) - k
                    raise
            return out

    def _reply(self, want, line, multi, script, deadline, timeout):
        """(the command lock held) The reply lines of one command sent, its request id
        ``want`` ('' for a script line): lines with another id, or none, are set aside."""
        out = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                if self.ids_refused:
                    raise LinkError("the board refuses request ids ('#1 version'): its "
                                    "firmware is older than this host's protocol, update it "
                                    "(xobo flash)")
                raise LinkError("the board did not answer %r within %.1f s" % (line, timeout))
            try:
                tag, reply, events_before = self.replies.get(timeout=left)
            except queue.Empty:
                continue
            if reply is None:
                raise LinkError(self.error or "the serial line is closed")
            if tag != want:
                self.stray_lines += 1
                continue
            out.append(reply)
            if reply.startswith("error"):
                return out, events_before
            if script:
                if reply == "ok":
                    return out, events_before
            elif not multi or reply == "ok end":
                return out, events_before

    def close(self):
        self.closed = True
        try:
            self._reader.close()  # stops pyserial's reader thread, closes the port
        except Exception:
            pass


def ended_text(words):
    """A board's end of game in words: 'ew ns-resigned' -> 'ew wins: ns resigned'."""
    winner, _, how = words.partition(" ")
    if words == "draw" or winner == "draw":
        return "draw"
    if how.endswith("-resigned"):
        loser = how[:-len("-resigned")]
        return "%s resigned" % loser if winner == "none" else "%s wins: %s resigned" % (
            winner, loser)
    return "%s wins%s" % (winner, " (%s)" % how if how else "")


def _strip_ok(lines):
    out = []
    for line in lines:
        if line == "ok end":
            break
        out.append(line[3:] if line.startswith("ok ") else line[2:].lstrip())
    return out


def _continued(game, record, moves):
    """The record of ``game`` that continues ``record`` with ``moves`` (their texts, as the
    board's events give them; None: an undo), every move checked by the rules; None when it
    cannot be made (a game without records, a move the rules refuse)."""
    from xobo_host.records.gamerecords import read_record, write_record

    try:
        rec = read_record(game, record)
        texts = list(rec.moves)
        for move in moves:
            if move is None:
                if texts:
                    texts.pop()
            else:
                texts.append(move)
        # (the board's id of the game kept: the record of the game it names)
        return write_record(game, rec.tags, rec.start, texts,
                            [("GameId", rec.gameid)] if rec.gameid else (), rec.ending)
    except GameRecordError:
        return None


def _record_text(lines):
    """The record's lines as N2 text: the protocol drops the blank line after the tags."""
    out = []
    for line in lines:
        if out and out[-1].startswith("[") and not line.startswith("["):
            out.append("")
        out.append(line)
    return "\n".join(out) + "\n"


class _Mirror:
    """What the simulator's drawing hooks (each game's host module, ``xobo.hostkit``) and the
    page read of the firmware's App, made from the board's replies: the game, its settings and
    position, the board's topology, the game's placement on it and its board layer."""

    def __init__(self, name, settings, position, topo):
        self.game = games.load(name)
        self.settings = dict(settings, game=name)
        self.pos = self.game.parse_position(position, self.settings)
        self.names = self.game.PLAYER_NAMES
        self.topo = topo
        pos = self.pos
        self.place = topo.place(pos.width, pos.height, getattr(pos, "used", None))
        self.layers = part(self.game, "board").Layers(pos.n_cells, self.game, topo.edges,
                                                     self.cell_name)

    def cell_name(self, g):
        return self.topo.cell_name(self.place.to_board[g])

    def state(self):
        """The page's state, as ``VirtualBoard.state`` gives it for the same game."""
        pos = self.pos
        w = pos.winner() if pos.is_terminal() else -1
        out = {
            "game": self.settings["game"], "title": self.game.TITLE,
            "players": list(self.names),
            "board": {"width": self.topo.width, "height": self.topo.height,
                      "edges": list(self.topo.edges)},
            "area": {"width": pos.width, "height": pos.height, "x": self.place.ox,
                     "y": self.place.oy,
                     "cells": [self.topo.cell_name(b) for b in self.place.board_cells()]},
            "position": pos.to_string(), "side": self.names[pos.side],
            "result": "*" if not pos.is_terminal() else (self.names[w] if w >= 0 else "draw"),
            "result_text": self.layers.end_text(pos), "ply": pos.ply,
            "settings": dict(self.settings),
        }
        extra = getattr(self.layers, "state_extra", None)
        if extra is not None:
            out.update(extra(pos))
        return out

    def counts(self):
        """The pieces on each board cell (the game's heights, placed on the board)."""
        counts = [0] * self.topo.n_cells
        to_board = self.place.to_board
        for g in range(self.pos.n_cells):
            b = to_board[g]
            if b != 255:
                counts[b] = self.pos.heights[g]
        return counts

    def colours(self):
        return ["%06x" % colours.RGB[self.layers.PLAYER_CODES[k]] for k in range(len(self.names))]


def _typed_settings(name, reply):
    """The game's settings from the ``settings`` reply, whole numbers as ints."""
    pkg = games.load(name)
    out = {}
    for key, value in reply.items():
        choices = pkg.SETTINGS.get(key)
        if choices is not None and len(choices) == 2 and isinstance(choices[0], int):
            try:
                value = int(value)
            except ValueError:
                continue
        out[key] = value
    return out


def _topology(n_leds, area):
    """The board: a square of the cells the 'leds' reply has (it then lists the four edges),
    else the smallest board that holds the game's area."""
    if n_leds > len(EDGES):
        side = math.isqrt(n_leds - len(EDGES))
        if side * side == n_leds - len(EDGES):
            return Topology(side, side, EDGES)
    side = max(SMALLEST_BOARD, area[0], area[1])
    return Topology(side, side, EDGES)


class MonitorBackend(PageFeed):
    """The page's view of a real board: position, record, events (read-only mirror)."""

    mode = "monitor"

    def __init__(self, link, recorder=None, device="", poll_s=2.0, max_events=200,
                 settle_s=0.0):
        PageFeed.__init__(self, max_events)
        self.link = link
        self.recorder = recorder
        self.device = device
        self.poll_s = poll_s
        # the board's record is read (its longest reply, made by the board's rules) and
        # given to the recorder (replayed with the rules: most of a café host's work) once
        # the board has had no event for this long, or this long after the first of them at
        # most 4 times this long, and before a command of the host that makes the board
        # play another game (``SerialLink.before_game_change``); 0: at every reading. The
        # position, the LEDs and the state (what the floor shows, what a match needs) are
        # read at once all the same.
        self.settle_s = settle_s
        self._record_since = None  # (time.monotonic) the first event since the record's read
        self._record_stale = True  # an event since the record's read that may change it
        self._position_stale = True  # ... since the position's read
        self._last_position = None  # the position as last read
        self._last_record = ""  # the record as last read
        # the moves and undos the board reported since that read ((event number, the move's
        # text, None for an undo)), and the games left (a new game, a load) before their
        # record was read again: (game, the record last read, those moves, the event's
        # number), recorded from them (a new game begun by the players at once, before the
        # board rested: the last moves of the game left are recorded all the same)
        self._unread = []
        self._left_games = []
        # reading the record and recording it: the mirror's thread, or a host's thread about
        # to make the board play another game
        self._record_lock = threading.Lock()
        self.hand = 0
        self.game_id = None
        self.error = ""
        self.recording = ""  # why the current game is not recorded, when it is not
        self._wake = threading.Event()
        # called (no argument) by the mirror's thread before it reads the board: a café host
        # makes the mirror wait there while its matches relay a move (docs/remote.md)
        self.before_read = None
        self._running = False
        self._thread = None
        self._has_leds = None
        self._has_settings = None
        self._has_state = None
        self._has_boot = None
        # what the board's last power-up did (serial ``boot``): {"fallback": bool, "note":
        # str}, read with the settings (a boot is an event that reads them again)
        self._boot_read = {}
        # the settings (and 'follow on') are read again only when they may have changed:
        # an event that says so, a command of the host, the periodic poll; a move's events
        # read the position, the record, the LEDs and the state (four commands, not six)
        self._full = True
        self._settings_read = {}
        self._last_view = None  # (what the board said, the game's view of it): _game_view
        self._snap = self._make_snap("", {}, "", "", [], {})
        link.on_event = self._on_event
        if settle_s:
            link.before_game_change = self.record_now

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

    def refresh_soon(self):
        """Read the board again now (after a command the host sent it), not at the next poll."""
        self._full = True
        self._wake.set()

    def _run(self):
        while self._running:
            due = self._record_since is not None
            woke = self._wake.wait(self.settle_s if due else self.poll_s)
            if not self._running:
                break
            try:
                if self.before_read is not None:
                    self.before_read()
                if not woke and due:  # quiet for settle_s: the record now (unless an event
                    if not self._full:  # came meanwhile that may change the game: read first)
                        self.record_now(ask_game=False)
                    continue
                if not woke:
                    self._full = True  # the periodic poll reads everything
                self._wake.clear()
                self.refresh(full=self._full, defer=True)
                since = self._record_since
                if since is not None and time.monotonic() - since > 4 * self.settle_s:
                    self.record_now(ask_game=False)  # (a board that never rests is recorded)
            except LinkError as exc:
                self._set_error(str(exc))
                if self.link.closed:
                    break
            except Exception as exc:  # a board's odd reply must not end the polling silently
                self._set_error("cannot read the board's reply: %s: %s"
                                % (type(exc).__name__, exc))
        try:  # (stopped: the game's last moves are recorded all the same, when they can be)
            self.record_now()
        except Exception:  # noqa: S110 (the line or the file closed first: the board keeps it)
            pass

    def record_now(self, ask_game=True):
        """Read the board's record and record it, if the board had an event since it was
        last read (the mirror's thread once the board rests; a host's thread before it
        makes the board play another game, so that the last moves of the game left are
        recorded). ``ask_game``: the board's game asked first (``_read_record``). A board
        that cannot be read is said in the mirror's error."""
        with self._record_lock:
            if self._record_since is None and not self._record_stale and \
                    not self._left_games:
                return
            self._record_since = None  # (an event from now on: read again)
            self._record_stale = False
            try:
                game, record, events_before = self._read_record(ask_game)
            except LinkError as exc:
                self._set_error(str(exc))
                return
            left = self._note_record(record, events_before)
            self._keep_record(record)
            self._record_all(left, game, record, events_before)

    def _read_record(self, ask_game=False):
        """(game, record text, events the board sent before its reply). ``ask_game``: the
        board's game asked first (not the one of the last reading: a host's thread may come
        between an event and the mirror's reading)."""
        game = self._settings_read.get("game") or games.GAMES[0]
        if ask_game and self._has_settings is not False:
            game = self._settings().get("game") or game
        reply, events_before = self.link.command_in_order("record")
        record = "" if reply[0].startswith("error") else _record_text(_strip_ok(reply))
        return game, record, events_before

    def _follow_moves(self, kind, words):
        """(the reader's thread, the mirror's lock held) The moves and undos since the
        record was read; a game left before it was read again."""
        at = self.link.events_read
        if kind == "move":
            self._unread.append((at, " ".join(words[2:])))
        elif kind == "undo":
            self._unread.append((at, None))
        elif kind in ("new", "load"):
            if self._unread and self._last_record:
                game = self._settings_read.get("game") or games.GAMES[0]
                self._left_games.append((game, self._last_record,
                                         [move for _, move in self._unread], at))
            self._unread = []

    def _note_record(self, record, events_before):
        """The record just read is the last one (the moves reported before it are in it);
        returns the games left before it was read."""
        with self.lock:
            self._last_record = record
            self._unread = [e for e in self._unread if e[0] > events_before]
            left, self._left_games = self._left_games, []
        return left

    def _record_all(self, left, game, record, events_before):
        """(the record's lock held) The games left before ``record`` was read, each its last
        record read and the moves reported since; then ``record``, unless it was read before
        such a game was left (those games hold its moves and more)."""
        if self.recorder is None:
            return
        covered = 0
        for left_game, base, moves, at in left:
            text = _continued(left_game, base, moves)
            if text is not None:
                self._record(left_game, text, at - 1)
                covered = at
        if events_before is None or events_before >= covered:
            self._record(game, record, events_before)

    def _keep_record(self, record):
        """The record just read into the page's snapshot."""
        with self.lock:
            state = self._snap.get("state", {})
            changed = state.get("record") != record
            if changed:
                self._snap = dict(self._snap, state=dict(state, record=record))
        if changed:
            self._bump()

    def _on_event(self, line):
        # a real board's events come as serial lines, 'event KIND FIELDS' (the protocol)
        words = line.split()
        kind = words[1] if len(words) > 1 else ""
        with self.lock:
            self._add_event(line, kind)
            if self.recorder is not None and len(words) > 1 and words[1] in ("new", "load"):
                # (this event's number on the line: a record that a poll read before it is
                # the old game's, however late the poll hands it to the recorder)
                self.recorder.mark_new_game(at_event=self.link.events_read)
            if self.settle_s:
                self._follow_moves(kind, words)
        if kind not in KEEP_THE_GAME:
            self._record_stale = True
            self._position_stale = True
        if kind not in CHANGE_ONLY_THE_GAME:
            self._full = True  # (a setting, another game, a boot: the settings again)
        if not line.startswith("event switch"):
            self._wake.set()  # read the position and the record again
        self._bump()

    def _set_error(self, text):
        with self.lock:
            self.error = text
            self._snap = dict(self._snap, last_error=text)
        self._bump()

    # -- reading the board --------------------------------------------------------------------
    def refresh(self, full=True, defer=False):
        """Ask the board for its settings, position, record (and LEDs if it can tell); update
        the database. ``full``: the settings too (else those last read). ``defer``: the
        record is read and recorded later (``settle_s``: ``record_now``)."""
        if full or not self._settings_read:
            self._full = False
            # events again: a board that restarted (a game switch on a stock firmware, its
            # watchdog) has forgotten that it was followed
            self.link.command("follow on")
            self._settings_read = self._settings()
            self._boot_read = self._boot()
        settings = dict(self._settings_read)
        # (a board that does not say: its first game, the one it starts with)
        game = settings.pop("game", None) or games.GAMES[0]
        position = self._last_position  # (read again only after an event that may change it)
        if full or self._position_stale or position is None:
            self._position_stale = False
            try:
                pos_reply = self.link.command("position")
            except LinkError:
                self._position_stale = True
                raise
            if not pos_reply or not pos_reply[0].startswith("ok "):
                self._position_stale = True
                raise LinkError("position: %s" % " ".join(pos_reply))
            position = self._last_position = pos_reply[0][3:].strip()
        deferred = defer and self.settle_s
        # (read and recorded under the record's lock: a record read by another thread
        # meanwhile is not recorded before this older one)
        with contextlib.nullcontext() if deferred else self._record_lock:
            if deferred:
                if self._record_since is None and (self._record_stale or full):
                    self._record_since = time.monotonic()
            else:
                self._record_since = None
                self._record_stale = False
                _, record, events_before = self._read_record()
                left = self._note_record(record, events_before)
            leds = self._leds()
            seen = self._board_state()
            self.recording = "" if has_records(game) else (
                "%s has no record notation: its games are not recorded" % game)
            ended = seen.pop("ended", None)
            with self.lock:
                snap = self._make_snap(game, settings, position, self._last_record, leds,
                                       {"boot": self._boot_read})
                snap["state"].update(seen)
                if ended is not None and ended != "*" and \
                        snap["state"].get("result", "*") == "*":
                    # the board's word on the end (a resignation: no end of the rules)
                    snap["state"]["result"] = ended.split()[0]
                    snap["state"]["result_text"] = ended_text(ended)
                changed = snap != self._snap
                self._snap = snap
            if changed:
                self._bump()
            if not deferred:
                self._record_all(left, game, record, events_before)
        if ended is not None and self.recorder is not None and not self.recording:
            with self._record_lock:
                try:
                    self.recorder.end_said(game, seen.get("ply"), ended)
                except GamesDBError as exc:
                    self._set_error("cannot record the game: %s" % exc)

    def _record(self, game, record, events_before=None):
        if self.recording or not record:
            return
        try:
            game_id = self.recorder.observe(record, game, events_seen=events_before)
        except GameRecordError as exc:
            self._set_error("the board's record cannot be read: %s" % exc)
            return
        except GamesDBError as exc:  # locked, read-only, damaged: the mirror goes on
            self._set_error("cannot record the game: %s" % exc)
            return
        if self.error.startswith("cannot record the game"):
            self._set_error("")
        if game_id != self.game_id:
            with self.lock:
                self.game_id = game_id
                self._snap = dict(self._snap, game_id=game_id)
            self._bump()

    def _boot(self):
        """What the board's last power-up did (``boot``: ``ok boot normal|fallback NOTE``):
        {"fallback": bool, "note": str}; {} from a board that has no such command."""
        if self._has_boot is False:
            return {}
        reply = self.link.command("boot")
        words = reply[0].split(None, 3) if reply else []
        if len(words) < 3 or words[:2] != ["ok", "boot"] or words[2] not in ("normal",
                                                                            "fallback"):
            if reply and reply[0].startswith("error unknown command"):
                self._has_boot = False
                return {}
            raise LinkError("the board's reply to 'boot' was %r" % " ".join(reply)[:80])
        self._has_boot = True
        return {"fallback": words[2] == "fallback", "note": words[3] if len(words) > 3 else ""}

    def _settings(self):
        """The board's settings (``settings``: ``game`` and the game's own); {} from a board
        that has no such command."""
        if self._has_settings is False:
            return {}
        reply = self.link.command("settings")
        if not reply or not reply[0].startswith("ok"):
            if reply and reply[0].startswith("error unknown command"):
                self._has_settings = False
                return {}
            raise LinkError("the board's reply to 'settings' was %r" % " ".join(reply)[:80])
        self._has_settings = True
        out = {}
        for line in _strip_ok(reply):
            key, _, value = line.partition(" ")
            out[key] = value.strip()
        return out

    def _board_state(self):
        """What the board sees (``state``): the inference's state and the moves played since
        the start (a position string starts every game again at ply 0); {} when it cannot
        tell."""
        if self._has_state is False:
            return {}
        reply = self.link.command("state")
        words = reply[0].split() if reply else []
        if len(words) < 3 or words[:2] != ["ok", "state"]:
            if reply and reply[0].startswith("error unknown command"):
                self._has_state = False  # (a board without it: only then never asked again)
                return {}
            raise LinkError("the board's reply to 'state' was %r" % " ".join(reply)[:80])
        self._has_state = True
        out = {"inference": words[2]}
        if "ply" in words[:-1]:
            ply = words[words.index("ply") + 1]
            if ply.isdigit() and ply.isascii():
                out["ply"] = int(ply)
            if "result" in words[:words.index("ply")]:
                # 'result WINNER [REASON]' runs to the ply field
                k = words.index("result")
                out["ended"] = " ".join(words[k + 1:words.index("ply")]) or "*"
        return out

    def _leds(self):
        """LED colours from the ``leds`` command: the board's cells, then edges N S E W."""
        if self._has_leds is False:
            return []
        reply = self.link.command("leds", timeout=1.0)
        if not reply or not reply[0].startswith("ok"):
            if reply and reply[0].startswith("error unknown command"):
                self._has_leds = False
                return []
            raise LinkError("the board's reply to 'leds' was %r" % " ".join(reply)[:80])
        self._has_leds = True
        return reply[0].split()[1:]

    def _mirror(self, game, settings, position, n_leds):
        """The game's view of what the board said, or None when it cannot be read."""
        if not position or game not in games.GAMES:
            return None
        try:
            typed = _typed_settings(game, settings)
            area = games.load(game).area(dict(games.load(game).DEFAULTS, **typed))
            return _Mirror(game, typed, position, _topology(n_leds, area))
        except (XoboError, ValueError, ImportError):
            return None

    def _game_view(self, game, settings, position, n_leds):
        """(topology, the game's state for the page, counts, colours, drawing) of what the
        board said; the last one again when the board said the same (its light changed, a
        move lit: the position is the same, and reading it with the rules is most of a
        snapshot's work)."""
        key = (game, sorted(settings.items()), position, n_leds)
        last = self._last_view
        if last is not None and last[0] == key:
            return last[1]
        mirror = self._mirror(game, settings, position, n_leds)
        if mirror is None:
            view = (_topology(n_leds, (0, 0)), None, None, [], {})
        else:
            view = (mirror.topo, mirror.state(), mirror.counts(), mirror.colours(),
                    game_drawing(mirror))
        self._last_view = (key, view)
        return view

    def _make_snap(self, game, settings, position, record, leds, extra):
        hexes = [x.lower() for x in leds if len(x) == 6]
        topo, game_state, counts, colours_, draw = self._game_view(game, settings, position,
                                                                   len(hexes))
        n = topo.n_cells
        state = {"position": position, "record": record}
        if game_state is not None:
            state.update(game_state)
            state["record"] = record
        elif game:
            state["game"] = game
        cells = ["000000"] * n
        edges = {e: "000000" for e in EDGES}
        leds_known = len(hexes) >= n
        if leds_known:
            cells = hexes[:n]
            for e, h in zip(EDGES, hexes[n:n + len(EDGES)], strict=False):
                edges[e] = h
        snap = {
            "mode": self.mode, "device": self.device, "cells": cells, "edges": edges,
            "counts": counts if counts is not None else [0] * n, "hand": 0,
            "state": state, "event_seq": self.event_seq, "game_id": self.game_id,
            "leds_known": leds_known, "errors": 1 if self.error else 0,
            "last_error": self.error, "recording": self.recording,
            "colours": colours_, "draw": draw,
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
