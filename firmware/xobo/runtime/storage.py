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
# every line of a save but its moves: the longest position notation (Brochs, ~250 characters),
# a parameter or a setting
MAX_LINE = 512
HEADER_BYTES = 4096  # a save's lines other than its moves, at most (settings included)
MAX_BYTES = 64 * 1024  # a record of unknown bound (the settings); a game's save is smaller


def adler32(data):
    """Adler-32 of ``data`` (bytes), small-int arithmetic only."""
    a, b = _adler_update(1, 0, data)
    return "%04x%04x" % (b, a)


def _adler_update(a, b, data):
    """The Adler-32 sums (a, b) after ``data``, from (a, b) before it (a save is written in
    pieces)."""
    for x in data:
        a += x
        if a >= _MOD:
            a -= _MOD
        b += a
        if b >= _MOD:
            b -= _MOD
    return a, b


class Words:
    """The moves of a save, read from its ``moves`` line one at a time: a long game's save
    never becomes one string per move at once (thousands of small objects on the Pico's
    heap). Iterable, sized, and equal to the list of the same words."""

    def __init__(self, data, start, end):
        self._data = data
        self._start = start
        self._end = end
        n = 0
        i = start
        while i < end:
            j = data.find(b" ", i, end)
            if j < 0:
                j = end
            if j > i:
                n += 1
            i = j + 1
        self._n = n

    def __len__(self):
        return self._n

    def __iter__(self):
        data = self._data
        end = self._end
        i = self._start
        while i < end:
            j = data.find(b" ", i, end)
            if j < 0:
                j = end
            if j > i:
                yield data[i:j].decode()
            i = j + 1

    def __eq__(self, other):
        return list(self) == list(other)

    def __repr__(self):
        return "Words(%d moves)" % self._n


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
    """Two-slot, checksummed, atomically written text record ``NAME.a`` / ``NAME.b``.

    ``max_bytes`` bounds a slot (a larger one is refused before it is read: it could not be
    a record this board wrote), ``max_line`` every line but the ``moves`` one (bounded by the
    slot's size)."""

    def __init__(self, flash, name, max_bytes=MAX_BYTES, max_line=MAX_LINE):
        self.flash = flash
        self.name = name
        self.max_bytes = max_bytes
        self.max_line = max_line
        self.seq = 0  # of the last record read or written
        self.note = ""
        self.damaged = ""  # what was wrong with the newer slot when an older one is used
        self._read_once = False

    def slots(self):
        return (self.name + ".a", self.name + ".b")

    def write(self, body_lines):
        """Write ``body_lines`` (without magic/seq/end) as the next record; returns its seq.
        A line may be a string or an iterable of strings (its pieces: a long game's moves
        are written one at a time, never joined into one block)."""
        if not self._read_once:
            self.read()  # continue after the newest slot on flash, whatever it is
        seq = self.seq + 1
        self.flash.write_parts(self.slots()[seq & 1], self._parts(seq, body_lines))
        self.seq = seq
        return seq

    def _parts(self, seq, body_lines):
        """The record's bytes, piece by piece, the end line (length, checksum) last."""
        n = 0
        a = 1
        b = 0
        for line in [MAGIC, "seq %d" % seq] + list(body_lines):
            pieces = (line,) if isinstance(line, str) else line
            for piece in pieces:
                data = piece.encode()
                n += len(data)
                a, b = _adler_update(a, b, data)
                yield data
            n += 1
            a, b = _adler_update(a, b, b"\n")
            yield b"\n"
        yield ("end %d %04x%04x\n" % (n, b, a)).encode()

    def check(self, data):
        """(seq, body_lines) of a slot's bytes, or raise ValueError saying what is wrong. A
        body line is a string, or ``Words`` for the ``moves`` line."""
        if data is None:
            raise ValueError("missing")
        if not data:
            raise ValueError("empty")
        if len(data) > self.max_bytes:
            raise ValueError(_too_large(len(data), self.max_bytes))
        if not data.endswith(b"\n"):
            raise ValueError("cut short (no end line)")
        k = data.rfind(b"\n", 0, len(data) - 1)
        last = data[k + 1:-1].decode()
        if not last.startswith("end "):
            raise ValueError("cut short (no end line)")
        parts = last.split()
        n = k + 1  # the body: data[:n] (not copied: a long game's save is read once)
        if len(parts) != 3 or not _digits(parts[1]) or int(parts[1]) != n:
            raise ValueError("length does not match its end line")
        if adler32(memoryview(data)[:n]) != parts[2]:
            raise ValueError("bad checksum")
        lines = []
        i = 0
        while i < n:
            j = data.find(b"\n", i, n)
            if data.startswith(b"moves ", i):
                lines.append(Words(data, i + 6, j))
            elif j - i > self.max_line:
                raise ValueError("line %d is %d characters long, more than any save has (%d)"
                                 % (len(lines) + 1, j - i, self.max_line))
            else:
                lines.append(data[i:j].decode())
            i = j + 1
        if not lines or lines[0] != MAGIC:
            raise ValueError("not a %s file" % MAGIC)
        if len(lines) < 2 or not isinstance(lines[1], str) or not lines[1].startswith("seq ") \
                or not _digits(lines[1][4:]):
            raise ValueError("no sequence number")
        return int(lines[1][4:]), lines[2:]

    def _read_slot(self, slot):
        """A slot's bytes (None when missing); ValueError for a slot too large to be ours,
        refused before it is read (it would not fit the heap)."""
        size = self.flash.size(slot)
        if size < 0:
            return None
        if size > self.max_bytes:
            raise ValueError(_too_large(size, self.max_bytes))
        try:
            return self.flash.read(slot)
        except MemoryError:
            raise ValueError("%d bytes: too large for the free memory" % size) from None

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
        bad = []  # (slot, what is wrong, its sequence number if it still says it, else -1)
        for slot in self.slots():
            data = None
            try:
                data = self._read_slot(slot)
                seq, lines = self.check(data)
            except ValueError as exc:
                if str(exc) != "missing":
                    notes.append("%s: %s" % (slot, exc))
                    bad.append((slot, str(exc), _claimed_seq(data)))
                continue
            except UnicodeError:
                notes.append("%s: not text" % slot)
                bad.append((slot, "not text", _claimed_seq(data)))
                continue
            except MemoryError:  # the heap could not hold it: as good as damaged
                data = None
                notes.append("%s: too large for the free memory" % slot)
                bad.append((slot, "too large for the free memory", -1))
                continue
            data = None
            found.append((seq, lines, slot))
        if len(found) == 2 and found[1][0] > found[0][0]:
            found.reverse()
        self.damaged = ""
        if found and bad:
            slot, why, claimed = bad[0]
            if claimed > found[0][0]:
                self.damaged = "the newest save was damaged: %s; one move lost" % why
            elif claimed >= 0:
                self.damaged = "the older save was damaged: %s; nothing lost" % why
            else:
                self.damaged = "the other save was damaged: %s; the last move may be lost" % why
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


def _too_large(size, limit):
    return "too large: %d bytes, more than the longest game this board keeps (%d)" % (
        size, limit)


def _claimed_seq(data):
    """The sequence number a damaged slot still says it has (its second line), else -1."""
    if not data or not data.startswith(MAGIC.encode() + b"\nseq "):
        return -1
    i = len(MAGIC) + 5
    j = data.find(b"\n", i, i + 12)
    if j < 0:
        return -1
    try:
        text = data[i:j].decode()
    except UnicodeError:
        return -1
    return int(text) if _digits(text) else -1


def save_limit(max_plies, move_chars):
    """The bytes of the largest save of a game of ``max_plies`` moves of at most
    ``move_chars`` characters each: the bound a slot is checked against before it is read."""
    return max_plies * (move_chars + 1) + HEADER_BYTES


class SavedGame:
    """The game in progress: the game and its parameters, first player, start position,
    moves, settings. Each game has its own slots (``name``)."""

    def __init__(self, flash, name="game", max_bytes=MAX_BYTES):
        self.file = RecordFile(flash, name, max_bytes)

    @property
    def note(self):
        return self.file.note

    @property
    def damaged(self):
        """What was wrong with the newer slot when the older one was loaded, else ''."""
        return self.file.damaged

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
        if isinstance(moves, (list, tuple)):  # (a generator is checked as it is written)
            for m in moves:
                if not m or " " in m or "\n" in m:
                    raise ValueError("move %r cannot be stored (empty or has a space)" % (m,))
        lines = ["game %s" % game]
        for key in sorted(params or {}):
            if not key or " " in key:
                raise ValueError("parameter name %r has a space or is empty" % (key,))
            lines.append("param %s %s" % (key, _value_text(key, params[key])))
        lines += ["first %s" % first, "start %s" % (start or ""), _moves_pieces(moves)]
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
                if isinstance(line, Words):
                    g["moves"] = line
                    continue
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
                elif key == "set":
                    k, v = _split(rest)
                    g["settings"][k] = _parse_value(v)
            out.append(g)
        return out

    def erase(self):
        self.file.erase()


def _moves_pieces(moves):
    """The ``moves`` line in pieces: ``moves``, then each move after a space."""
    yield "moves"
    for m in moves:
        if not m or " " in m or "\n" in m:
            raise ValueError("move %r cannot be stored (empty or has a space)" % (m,))
        yield " "
        yield m


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
            if not isinstance(line, str):
                continue
            key, rest = _split(line)
            if key == "set":
                k, v = _split(rest)
                out[k] = _parse_value(v)
        return out
