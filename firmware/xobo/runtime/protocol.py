"""The USB serial line protocol (docs/protocol.md): one command per line, replies and events.

Every reply line starts with ``ok`` or ``error <what is wrong>``; a command answers with one
line, except ``help``, ``settings``, ``record`` and ``selftest``-reports which answer with
several ``ok ...`` lines closed by the terminator line ``ok end``. A command line may start
with a request id, ``#`` and 1-8 letters or digits (``#17 state``): every line of its reply
then starts with it (``#17 ok state ...``), so that a host tells its replies from the replies
to lines someone else typed on the link. Events (with ``follow on``)
are lines starting with ``event ``. Input is bytes: lines end with LF (CR is ignored); a line
longer than ``MAX_LINE`` characters, with bytes outside printable ASCII, an unknown command or
bad arguments gets one ``error`` line and changes nothing.

Usage::

    >>> from xobo.runtime.protocol import Protocol
    >>> from xobo.runtime.virtual_board import VirtualBoard
    >>> app = VirtualBoard().app
    >>> proto = Protocol(app, writer=print)     # writer(line) sends one line to the host
    >>> proto.feed(b"set settle 900\\n")        # a line from the host: the reply to writer
    ok settle 900
    ['ok settle 900']
    >>> proto.handle("set settle 800")          # the replies (also sent to writer)
    ok settle 800
    ['ok settle 800']
    >>> proto.handle("#7 id")                   # a request's id: its replies carry it
    #7 ok id ...
    ['#7 ok id ...']
"""

from xobo import VERSION
from xobo.compat import collect, forget_module, mem_alloc, mem_free
from xobo.errors import XoboError
from xobo.numbers import parse_uint
from xobo.runtime.events import ERROR, SELFTEST, format_event

# the longest line a host needs: `load` and the longest position of any game (Brochs: 225
# squares, 14 slashes, side, reserves, submission and pick: at most 262 characters with
# "load "), with room to spare; a longer line is refused, its bytes never stored (the buffer is
# preallocated: docs/protocol.md)
MAX_LINE = 320
ID_MAX = 8  # characters of a request id after its '#'
ID_USAGE = "error usage: #ID COMMAND (a request id: '#' and 1-%d letters or digits)" % ID_MAX
MOVE_USAGE = "usage: move NOTATION (one move in the game's notation, like e5, a4->c4 or g6xf5 " \
    "in XoBo; a trailing (v) is accepted)"



def _request_id(tag):
    """Whether ``tag`` is a request id: '#' and 1-ID_MAX ASCII letters or digits."""
    n = len(tag)
    if n < 2 or n > ID_MAX + 1:
        return False
    for k in range(1, n):
        o = ord(tag[k])
        if not (48 <= o <= 57 or 65 <= o <= 90 or 97 <= o <= 122):
            return False
    return True


class Protocol:
    """Parses host lines and runs them on an :class:`xobo.runtime.app.App`."""

    def __init__(self, app, writer=None):
        self.app = app
        self.writer = writer
        self.follow = False  # every event is sent (``follow on``)
        self._buf = bytearray(MAX_LINE + 1)
        self._n = 0
        self._overflow = False
        self._board_id = None  # (read from the chip or the flash at the first 'id')
        self._event_cb = self._on_event
        app.subscribe(self._event_cb)
        self.commands = {
            "help": self.cmd_help,
            "version": self.cmd_version,
            "id": self.cmd_id,
            "position": self.cmd_position,
            "record": self.cmd_record,
            "settings": self.cmd_settings,
            "games": self.cmd_games,
            "set": self.cmd_set,
            "new": self.cmd_new,
            "undo": self.cmd_undo,
            "move": self.cmd_move,
            "resign": self.cmd_resign,
            "load": self.cmd_load,
            "follow": self.cmd_follow,
            "hint": self.cmd_hint,
            "press": self.cmd_press,
            "state": self.cmd_state,
            "boot": self.cmd_boot,
            "leds": self.cmd_leds,
            "mem": self.cmd_mem,
            "timing": self.cmd_timing,
            "selftest": self.cmd_selftest,
            "learn": self.cmd_learn,
        }

    # ------------------------------------------------------------ output

    def _send(self, line):
        if self.writer is not None:
            self.writer(line)

    def _on_event(self, ev):
        # self-test reports and errors go out even without follow
        if self.follow or ev[0] == SELFTEST or ev[0] == ERROR:
            self._send(format_event(ev))

    # ------------------------------------------------------------ input bytes -> lines

    def feed(self, data):
        """Take bytes from the host; complete lines are handled, replies sent to writer.
        Returns the reply lines (all lines completed by this data)."""
        out = []
        for b in data:
            if b == 10:  # LF: end of line
                if self._overflow:
                    self._overflow = False
                    self._n = 0
                    r = ["error line too long (more than %d characters): ignored" % MAX_LINE]
                    for line in r:
                        self._send(line)
                    out.extend(r)
                    continue
                raw = bytes(self._buf[:self._n])
                self._n = 0
                out.extend(self._handle_raw(raw))
            elif b == 13:
                continue
            elif self._overflow:
                continue
            elif self._n >= MAX_LINE:
                self._overflow = True
            else:
                self._buf[self._n] = b
                self._n += 1
        return out

    def _handle_raw(self, raw):
        for b in raw:
            if b < 32 or b > 126:  # a tab too: words are separated by spaces
                r = ["error line has a byte that is not printable ASCII (0x%02x): ignored" % b]
                self._send(r[0])
                return r
        return self.handle(raw.decode())

    # ------------------------------------------------------------ lines

    def handle(self, line):
        """Run one command line; returns the reply lines (also sent to writer). A line that
        starts with a request id (``#17 state``) gets every reply line prefixed with it."""
        tag = ""
        if line[:1] == "#":
            sp = line.find(" ")
            tag = line[:sp] if sp > 0 else line
            if not _request_id(tag):
                replies = [ID_USAGE]
                self._send(replies[0])
                return replies
            line = line[sp + 1:] if sp > 0 else ""
            if not line.strip():
                replies = [tag + " error usage: #ID COMMAND (the command is missing)"]
                self._send(replies[0])
                return replies
        replies = self._run(line)
        if tag:
            for k in range(len(replies)):
                replies[k] = tag + " " + replies[k]
        for r in replies:
            self._send(r)
        return replies

    def _run(self, line):
        if len(line) > MAX_LINE:
            return ["error line too long (more than %d characters): ignored" % MAX_LINE]
        for ch in line:
            o = ord(ch)
            if o < 32 or o > 126:
                return ["error line has a character that is not printable ASCII: ignored"]
        text = line.strip()
        if not text:
            return []
        parts = text.split(None, 1)
        name = parts[0].lower()
        arg = parts[1].strip() if len(parts) > 1 else ""
        fn = self.commands.get(name)
        if fn is None:
            return ["error unknown command '%s' (try help)" % name[:20]]
        now = self.app.d.clock.ticks_ms()
        try:
            return fn(arg, now)
        except MemoryError:
            self.app.recover_memory(now, "command '%s'" % name)
            return ["error out of memory running '%s': collected, nothing changed but what "
                    "the board now shows (see position)" % name]
        except XoboError as exc:
            return ["error %s" % exc]
        except ValueError as exc:
            return ["error %s" % exc]
        except Exception as exc:  # nothing a host sends may crash the board
            if exc.__class__.__name__ == "PowerCut":
                raise
            return ["error internal: %s: %s" % (exc.__class__.__name__, exc)]

    # ------------------------------------------------------------ commands

    def _no_arg(self, name, arg):
        if arg:
            raise ValueError("%s takes no argument (got '%s')" % (name, arg[:20]))

    def cmd_help(self, arg, now):
        self._no_arg("help", arg)
        from xobo.runtime.help import lines

        return lines() + ["ok end"]

    def cmd_version(self, arg, now):
        self._no_arg("version", arg)
        return ["ok xobo-board %s protocol 2" % VERSION]

    def cmd_id(self, arg, now):
        """The board's own id (``xobo.runtime.boardid``): a café host knows a table by it."""
        self._no_arg("id", arg)
        if self._board_id is None:
            from xobo.runtime.boardid import board_id

            self._board_id = board_id(self.app.d.flash)
            if self.app.lean:  # (read once: its code is not kept in the Pico's heap)
                forget_module("xobo.runtime.boardid")
        return ["ok id " + self._board_id]

    def cmd_position(self, arg, now):
        self._no_arg("position", arg)
        return ["ok " + self.app.pos.to_string()]

    def cmd_record(self, arg, now):
        self._no_arg("record", arg)
        if getattr(self.app.game, "record_text", None) is None:
            raise XoboError("%s has no record notation: ask for the position" %
                            self.app.game.TITLE)
        from xobo.recordtags import app_record  # (with the game's id, a resignation)

        out = []
        for line in app_record(self.app):
            if line:
                out.append("ok " + line)
        out.append("ok end")
        return out

    def cmd_settings(self, arg, now):
        self._no_arg("settings", arg)
        s = self.app.settings
        return ["ok %s %s" % (k, s[k]) for k in self.app.config.keys()] + ["ok end"]

    def cmd_games(self, arg, now):
        self._no_arg("games", arg)
        from xobo import games

        out = []
        for name in games.available():
            g = games.load(name)
            mark = " (playing)" if name == self.app.settings["game"] else ""
            out.append("ok %s %s, %d players%s" % (name, g.TITLE, g.PLAYERS, mark))
        return out + ["ok end"]

    def cmd_set(self, arg, now):
        parts = arg.split()
        if len(parts) != 2:
            raise ValueError("usage: set KEY VALUE (e.g. set settle 800)")
        key = parts[0].lower()
        ranges = self.app.config.ranges()
        value = parts[1]
        n = parse_uint(value)
        if n >= 0:
            value = n
        elif key in ranges:  # ASCII digits only: int() would also take '+800' and '1_000'
            raise ValueError("%s must be a whole number %d-%d, not '%s'"
                             % (key, ranges[key][0], ranges[key][1], value))
        note = self.app.set_setting(key, value, now)
        v = self.app.settings[key]
        if note:
            return ["ok %s %s (%s)" % (key, v, note)]
        return ["ok %s %s" % (key, v)]

    def cmd_new(self, arg, now):
        self._no_arg("new", arg)
        app = self.app
        app.new_game(now)
        what = app.game_params().get("variant") or app.settings["game"]
        return ["ok new game %s, %s first" % (what, app.side_name())]

    def cmd_undo(self, arg, now):
        self._no_arg("undo", arg)
        return ["ok undo %s" % self.app.undo_request(now)]

    def cmd_move(self, arg, now):
        words = arg.split()
        if not words or len(words) > 2 or (len(words) == 2 and words[1].lower() != "(v)"):
            raise ValueError(MOVE_USAGE)
        app = self.app
        app.playing()
        m = app.pos.parse_move(arg)
        app.expect_move(m, "host", now)
        return ["ok move %s waiting for the %ss" % (app.pos.move_text(m), app.layers.PIECE)]

    def cmd_resign(self, arg, now):
        # the host's word that a player resigned (a match): the game is over, saved so
        app = self.app
        w = app.resign_words(arg)
        app.playing()
        app.cancel_pending(now)
        app.resign(w, now)
        return ["ok resign " + app.result_text()]

    def cmd_load(self, arg, now):
        if not arg:
            raise ValueError("usage: load POSITION (the game's notation, as 'position' "
                             "answers it)")
        self.app.load_position(arg, now)
        return ["ok load %s" % self.app.pos.to_string()]

    def cmd_follow(self, arg, now):
        v = arg.lower()
        if v not in ("on", "off"):
            raise ValueError("usage: follow on|off")
        self.follow = v == "on"
        return ["ok follow %s" % v]

    def cmd_hint(self, arg, now):
        self._no_arg("hint", arg)
        app = self.app
        m = app.computer_player().show_hint(now)
        if m == app.pending:
            return ["ok hint %s (the expected %s move)" % (app.pos.move_text(m),
                                                           app.pending_from)]
        return ["ok hint %s" % app.pos.move_text(m)]

    def cmd_press(self, arg, now):
        words = arg.split()
        if len(words) != 1:
            raise ValueError("usage: press BUTTON (the game's button, like master or pass)")
        return ["ok " + self.app.controls.press(words[0].lower(), now)]

    def cmd_state(self, arg, now):
        self._no_arg("state", arg)
        app = self.app
        inf = app.inf
        line = "ok state %s side %s result %s ply %d" % (
            inf.state_name(), app.side_name(), app.result_text(), app.pos.ply)
        if app.gameid:
            line += " gameid " + app.gameid
        if app.pending >= 0:
            line += " expect %s" % app.pos.move_text(app.pending)
        if inf.state in (5, 6):  # FIX, RESTORE
            from xobo.runtime import guide

            line += " " + guide.fix_text(app)
        elif inf.state == 8:  # OFFER: the complete move left after a fix, ok plays it
            line += " offer %s" % app.pos.move_text(inf.complete_move())
        field = getattr(app.mode, "state_field", None)
        if field is not None:  # the learn mode: 'learn 2/7'
            line += " " + field()
        words = app.guide_text()
        if words:  # always last: the rest of the line is for people
            line += " say " + words
        return [line]

    def cmd_boot(self, arg, now):
        """What the last power-up did, for a host that was not listening then (its
        ``event boot``): ``fallback`` when a save or the settings could not be used as they
        were (the note says why), else ``normal``."""
        self._no_arg("boot", arg)
        app = self.app
        return ["ok boot %s %s" % ("fallback" if app.fallback else "normal", app.boot_note)]

    def cmd_leds(self, arg, now):
        """The rendered colours (before brightness and the power limiter), for mirrors."""
        self._no_arg("leds", arg)
        app = self.app
        light = app.light
        to_game = app.place.to_game
        words = ["ok leds"]
        for c in range(app.topo.n_cells):  # the board's cells: outside the game, dark
            g = to_game[c]
            words.append(light.cell_hex(g) if g != 255 else "000000")
        e = light.edges
        for k in range(len(app.topo.edges)):  # the board's edges (N S E W)
            words.append("%02x%02x%02x" % (e[3 * k], e[3 * k + 1], e[3 * k + 2]))
        return [" ".join(words)]

    def cmd_mem(self, arg, now):
        """The heap after a collection: what is left for a hint, a record, a long game."""
        self._no_arg("mem", arg)
        collect()
        return ["ok mem free=%d alloc=%d" % (mem_free(), mem_alloc())]

    def cmd_timing(self, arg, now):
        """The board's cycle times since the last ``timing``: counts, mean and worst in
        microseconds of the scan (scan, debounce, infer, commit), the light (render, and the
        LED write when the frame changed) and the LED write alone; then starts again."""
        self._no_arg("timing", arg)
        t = self.app.timing
        words = ["ok timing"]
        for k, name in ((0, "scan"), (3, "light"), (6, "write")):
            n = t[k]
            words.append("%s=%d/%d/%d" % (name, n, t[k + 1] // n if n else 0, t[k + 2]))
        for k in range(9):
            t[k] = 0
        return [" ".join(words)]

    def cmd_selftest(self, arg, now):
        self._no_arg("selftest", arg)
        self.app.start_selftest(now)
        return ["ok selftest started (report lines follow as events when it ends)"]

    def cmd_learn(self, arg, now):
        from xobo.runtime import learn  # forgotten again when not learning

        return [learn.command(self.app, arg, now)]
