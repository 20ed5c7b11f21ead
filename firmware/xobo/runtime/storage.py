"""The saved game and the settings on flash, safe against a power cut at any instant.

The app calls ``SavedGame.save(...)`` after every committed move (and after undo / new game);
at power-up ``load()`` returns the last complete save. A power cut while saving loses at most
the move being saved: the record is written to one of two slots (``game.a`` / ``game.b``, by the
parity of a sequence number), each slot atomically (``.tmp`` then ``os.rename``), and every
slot ends with a line ``end <length> <adler32>`` over what precedes it; ``load`` takes the valid
slot with the highest sequence number and says in ``note`` what it found (a slot cut short, a
bad checksum, a stray ``.tmp``...). Engine-agnostic: positions and moves are strings.

Each save is a whole-file write of a few hundred bytes: on the Pico that stalls both cores with
interrupts masked for some tens of ms, so save between scans (after the commit), not inside the
scan timing.

File format (text, one item per line)::

    xobo-save 1
    seq 17
    game xobo                  (the game: xobo.games; a save without it is XoBo's)
    param variant xobo         (one line per game parameter: XoBo's variant, X's size...)
    first 0                    (the first player, 0-based)
    start <the start position in the game's notation, may be empty>
    moves e5 d4 a4->c4
    set <key> <value>          (one line per setting)
    end <bytes before this line> <adler32 of them, 8 hex digits>

Values of settings are ``str`` or ``int``; a value of only digits (with an optional minus)
loads as ``int``. Strings may not contain a line break; moves may not contain spaces.

Usage::

    from xobo.runtime.storage import SavedGame, Settings
    from xobo.drivers.flash import Flash
    sg = SavedGame(Flash(""))
    sg.save("xobo", {"variant": "xobo"}, 0, "", ["e5", "d4"])
    g = sg.load()     # None, or {"game", "params", "first", "start", "moves", "seq", ...}
    print(sg.note)    # e.g. "game.b: cut short (no end line); resumed game.a seq 16"
    st = Settings(Flash("")); st.save({"brightness": 128}); st.load() -> {"brightness": 128}
"""

MAGIC = "xobo-save 1"
_MOD = 65521


def adler32(data):
    """Adler-32 of ``data`` (bytes), small-int arithmetic only."""
    a = 1
    b = 0
    for x in data:
        a += x
        if a >= _MOD:
            a -= _MOD
        b += a
        if b >= _MOD:
            b -= _MOD
    return "%04x%04x" % (b, a)


def _value_text(key, v):
    s = str(v)
    if "\n" in s or "\r" in s:
        raise ValueError("setting %s: a value may not contain a line break" % key)
    return s


def _split(line):
    """``"key rest of line"`` -> ("key", "rest of line"); no str.partition on small ports."""
    i = line.find(" ")
    if i < 0:
        return line, ""
    return line[:i], line[i + 1:]


def _digits(s):
    """True for a non-empty run of ASCII digits (str.isdigit also accepts '²' or '٣', which
    int() then refuses)."""
    if not s:
        return False
    for ch in s:
        if ch < "0" or ch > "9":
            return False
    return True


def _parse_value(s):
    t = s[1:] if s.startswith("-") else s
    if _digits(t):
        return int(s)
    return s


class RecordFile:
    """Two-slot, checksummed, atomically written text record ``NAME.a`` / ``NAME.b``."""

    def __init__(self, flash, name):
        self.flash = flash
        self.name = name
        self.seq = 0  # of the last record read or written
        self.note = ""
        self._read_once = False

    def slots(self):
        return (self.name + ".a", self.name + ".b")

    def write(self, body_lines):
        """Write ``body_lines`` (without magic/seq/end) as the next record; returns its seq."""
        if not self._read_once:
            self.read()  # continue after the newest slot on flash, whatever it is
        seq = self.seq + 1
        text = MAGIC + "\nseq %d\n" % seq + "".join(line + "\n" for line in body_lines)
        data = text.encode()
        data += ("end %d %s\n" % (len(data), adler32(data))).encode()
        self.flash.write_atomic(self.slots()[seq & 1], data)
        self.seq = seq
        return seq

    def check(self, data):
        """(seq, body_lines) of a slot's bytes, or raise ValueError saying what is wrong."""
        if data is None:
            raise ValueError("missing")
        if not data:
            raise ValueError("empty")
        if not data.endswith(b"\n"):
            raise ValueError("cut short (no end line)")
        k = data.rfind(b"\n", 0, len(data) - 1)
        last = data[k + 1:-1].decode()
        if not last.startswith("end "):
            raise ValueError("cut short (no end line)")
        parts = last.split()
        body = data[:k + 1]
        if len(parts) != 3 or not _digits(parts[1]) or int(parts[1]) != len(body):
            raise ValueError("length does not match its end line")
        if adler32(body) != parts[2]:
            raise ValueError("bad checksum")
        lines = body.decode().split("\n")[:-1]
        if not lines or lines[0] != MAGIC:
            raise ValueError("not a %s file" % MAGIC)
        if len(lines) < 2 or not lines[1].startswith("seq ") or not _digits(lines[1][4:]):
            raise ValueError("no sequence number")
        return int(lines[1][4:]), lines[2:]

    def read(self):
        """The body lines of the newest valid slot, or None; ``note`` tells what was found."""
        found = self.read_all()
        if not found:
            return None
        self.seq = found[0][0]
        return found[0][1]

    def read_all(self):
        """Every valid slot as ``(seq, body_lines, slot)``, newest first (the caller may fall
        back to an older one when the newest does not make sense); ``note`` tells what was
        found, and ``seq`` is the newest sequence number seen (the next write follows it)."""
        self._read_once = True
        found = []
        notes = []
        for slot in self.slots():
            try:
                seq, lines = self.check(self.flash.read(slot))
            except ValueError as exc:
                if str(exc) != "missing":
                    notes.append("%s: %s" % (slot, exc))
                continue
            except UnicodeError:
                notes.append("%s: not text" % slot)
                continue
            found.append((seq, lines, slot))
        if len(found) == 2 and found[1][0] > found[0][0]:
            found.reverse()
        for slot in self.slots():
            if self.flash.read(slot + ".tmp") is not None:
                notes.append("%s.tmp: an interrupted write, ignored" % slot)
        if not found:
            self.seq = 0
            notes.append("no saved %s" % self.name if not notes else "nothing usable")
            self.note = "; ".join(notes)
            return found
        self.seq = found[0][0]
        if notes:
            notes.append("resumed %s seq %d" % (found[0][2], found[0][0]))
        else:
            notes.append("%s seq %d" % (found[0][2], found[0][0]))
        self.note = "; ".join(notes)
        return found

    def erase(self):
        for slot in self.slots():
            self.flash.remove(slot)
            self.flash.remove(slot + ".tmp")
        self.seq = 0


class SavedGame:
    """The game in progress: the game and its parameters, first player, start position,
    moves, settings. Each game has its own slots (``name``)."""

    def __init__(self, flash, name="game"):
        self.file = RecordFile(flash, name)

    @property
    def note(self):
        return self.file.note

    @property
    def seq(self):
        return self.file.seq

    def save(self, game, params, first, start, moves, settings=None):
        """Save the whole game; returns the record's sequence number. Raises ValueError for a
        value that cannot be stored, OSError when the flash fails."""
        for what, s in (("game", game), ("first", first), ("start", start)):
            s = str(s)
            if "\n" in s or "\r" in s:
                raise ValueError("%s may not contain a line break" % what)
        if not game or " " in game:
            raise ValueError("game %r cannot be stored (empty or has a space)" % (game,))
        for m in moves:
            if not m or " " in m or "\n" in m:
                raise ValueError("move %r cannot be stored (empty or has a space)" % (m,))
        lines = ["game %s" % game]
        for key in sorted(params or {}):
            if not key or " " in key:
                raise ValueError("parameter name %r has a space or is empty" % (key,))
            lines.append("param %s %s" % (key, _value_text(key, params[key])))
        lines += ["first %s" % first, "start %s" % (start or ""), "moves " + " ".join(moves)]
        if settings:
            for key in sorted(settings):
                if not key or " " in key:
                    raise ValueError("setting name %r has a space or is empty" % (key,))
                lines.append("set %s %s" % (key, _value_text(key, settings[key])))
        return self.file.write(lines)

    def load(self):
        """The last complete save as a dict, or None (see ``note``)."""
        saves = self.load_all()
        return saves[0] if saves else None

    def load_all(self):
        """Every complete save as a dict, newest first (``note`` says what was found). The
        fields are as stored: the caller checks that they make a game (``first`` may be any
        int, a move any word) and falls back to the next save when they do not."""
        out = []
        for seq, lines, slot in self.file.read_all():
            g = {"game": "xobo", "params": {}, "first": 0, "start": "", "moves": [],
                 "settings": {}, "seq": seq, "slot": slot}
            for line in lines:
                key, rest = _split(line)
                if key == "game":
                    g["game"] = rest
                elif key == "param":
                    k, v = _split(rest)
                    g["params"][k] = _parse_value(v)
                elif key == "variant":  # a save from before the games: XoBo's variant
                    g["params"]["variant"] = rest
                elif key == "first":
                    g["first"] = _parse_value(rest)
                elif key == "start":
                    g["start"] = rest
                elif key == "moves":
                    g["moves"] = rest.split()
                elif key == "set":
                    k, v = _split(rest)
                    g["settings"][k] = _parse_value(v)
            out.append(g)
        return out

    def erase(self):
        self.file.erase()


class Settings:
    """Board settings (a flat dict of str/int), stored like the saved game."""

    def __init__(self, flash, name="settings"):
        self.file = RecordFile(flash, name)

    @property
    def note(self):
        return self.file.note

    def save(self, settings):
        lines = []
        for key in sorted(settings):
            if not key or " " in key:
                raise ValueError("setting name %r has a space or is empty" % (key,))
            lines.append("set %s %s" % (key, _value_text(key, settings[key])))
        return self.file.write(lines)

    def load(self, defaults=None):
        """The saved settings over ``defaults`` (a new dict)."""
        out = dict(defaults or {})
        lines = self.file.read()
        for line in lines or ():
            key, rest = _split(line)
            if key == "set":
                k, v = _split(rest)
                out[k] = _parse_value(v)
        return out
