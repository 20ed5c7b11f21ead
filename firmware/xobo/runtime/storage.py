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
    gameid 9c1e07a2b4f0        (the game's own id, xobo.runtime.gameid; a save from before
                               game ids has none)
    resigned ns ew             (a resignation: the player, the winner or none)
    set <key> <value>          (one line per setting)
    end <bytes before this line> <adler32 of them, 8 hex digits>

Values of settings are ``str`` or ``int``; a value of only digits (with an optional minus)
loads as ``int``. Strings may not contain a line break; moves may not contain spaces.

Usage::

    >>> from xobo.runtime.storage import SavedGame, Settings
    >>> from xobo.drivers.flash import Flash
    >>> import tempfile
    >>> flash = Flash(tempfile.mkdtemp())    # on the device: Flash(""), its root
    >>> sg = SavedGame(flash)
    >>> sg.save("xobo", {"variant": "xobo"}, 0, "", ["e5", "d4"])
    1
    >>> g = sg.load()     # None, or {"game", "params", "first", "start", "moves", "seq", ...}
    >>> g["game"], g["params"], g["moves"]
    ('xobo', {'variant': 'xobo'}, Words(2 moves))
    >>> print(sg.note)  # what was found ("game.b: cut short (no end line); resumed game.a seq 16")
    game.b seq 1
    >>> st = Settings(flash)
    >>> st.save({"brightness": 128})
    1
    >>> st.load()
    {'brightness': 128}
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


def _value_text(key, v):
    s = str(v)
    if "\n" in s or "\r" in s:
        raise ValueError("setting %s: a value may not contain a line break" % key)
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
        self.problems = ""  # every slot there that could not be used, and why
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

    def read(self):
        """The body lines of the newest valid slot, or None; ``note`` tells what was found."""
        found = self.read_all()
        if not found:
            return None
        return found[0][1]

    def read_all(self):
        """Every valid slot as ``(seq, body_lines, slot)``, newest first (the caller may fall
        back to an older one when the newest does not make sense); ``note`` tells what was
        found, and ``seq`` is the newest sequence number seen (the next write follows it).
        The checking is ``xobo.runtime.saveread``'s (imported only to read)."""
        from xobo.runtime import saveread

        self._read_once = True
        return saveread.read_all(self)

    def erase(self):
        for slot in self.slots():
            self.flash.remove(slot)
            self.flash.remove(slot + ".tmp")
        self.seq = 0


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
    def problems(self):
        """Every slot that is there and could not be used, and why ('' when none)."""
        return self.file.problems

    @property
    def seq(self):
        return self.file.seq

    def save(self, game, params, first, start, moves, settings=None, resigned=None,
             gameid=""):
        """Save the whole game (``gameid``: its own id, '' none); returns the record's sequence
        number. Raises ValueError for a value that cannot be stored, OSError when the flash
        fails."""
        for what, s in (("game", game), ("first", first), ("start", start), ("gameid", gameid)):
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
        if gameid:  # (hex digits: xobo.runtime.gameid)
            lines.append("gameid %s" % gameid)
        if resigned:  # [PLAYER, WINNER|none]: the host's resignation ended the game
            lines.append("resigned %s %s" % tuple(resigned))
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
        from xobo.runtime import saveread

        return saveread.games(self.file.read_all())

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
        from xobo.runtime import saveread

        return saveread.settings(self.file.read(), defaults)
