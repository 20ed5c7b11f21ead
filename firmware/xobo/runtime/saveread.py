"""Reading the records ``xobo.runtime.storage`` writes: a slot's bytes checked (size, end line,
checksum, every line's length), the damaged slots' reasons, and the lines parsed into a saved
game or settings.

Only needed when a record is read (at power-up, when another game is loaded): on the device
(``App.lean``) the app unloads this module with the loading code after use, to keep the heap
for the computer's search; storage imports it again the next time it reads.

Usage (storage's)::

    >>> from xobo.runtime import saveread
    >>> from xobo.runtime.storage import SavedGame
    >>> from xobo.drivers.virtual import VirtualFlash
    >>> saved = SavedGame(VirtualFlash())
    >>> saved.save("tiny", {}, 0, "", ["b2", "a1"])
    1
    >>> found = saveread.read_all(saved.file)   # [(seq, body_lines, slot)], newest first
    >>> [(seq, slot) for seq, lines, slot in found]
    [(1, 'game.b')]
    >>> games = saveread.games(found)          # [{"game", "params", ...}]
    >>> games[0]["game"], games[0]["moves"]
    ('tiny', Words(2 moves))
"""

from xobo.runtime.storage import MAGIC, adler32

# the largest sequence number a save may have: a small int on the Pico (a save a second for
# 34 years); a larger one was not written by this board
SEQ_MAX = 0x3FFFFFFF


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


def check(record, data):
    """(seq, body_lines) of a slot's bytes for ``record`` (a ``storage.RecordFile``: its
    bounds), or raise ValueError saying what is wrong. A body line is a string, or ``Words``
    for the ``moves`` line."""
    if data is None:
        raise ValueError("missing")
    if not data:
        raise ValueError("empty")
    if len(data) > record.max_bytes:
        raise ValueError(_too_large(len(data), record.max_bytes))
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
    max_line = record.max_line
    while i < n:
        j = data.find(b"\n", i, n)
        if data.startswith(b"moves ", i) or j == i + 5 and data.startswith(b"moves", i):
            lines.append(Words(data, i + 6, j))  # ("moves" alone: a game of no move yet)
        elif j - i > max_line:
            raise ValueError("line %d is %d characters long, more than any save has (%d)"
                             % (len(lines) + 1, j - i, max_line))
        else:
            lines.append(data[i:j].decode())
        i = j + 1
    if not lines or lines[0] != MAGIC:
        raise ValueError("not a %s file" % MAGIC)
    if len(lines) < 2 or not isinstance(lines[1], str) or not lines[1].startswith("seq ") \
            or not _digits(lines[1][4:]):
        raise ValueError("no sequence number")
    seq = _seq_value(lines[1][4:])
    if seq < 0:
        raise ValueError("a sequence number of %d digits, larger than any this board writes"
                         % (len(lines[1]) - 4))
    return seq, lines[2:]


def _seq_value(digits):
    """The sequence number written ``digits`` (ASCII digits), or -1 when it is larger than
    ``SEQ_MAX`` (never made into a large integer: it is not a number this board writes)."""
    digits = digits.lstrip("0") or "0"
    if len(digits) > 10:
        return -1
    n = int(digits)
    return n if n <= SEQ_MAX else -1


def _read_slot(record, slot):
    """A slot's bytes (None when missing); ValueError for a slot too large to be ours,
    refused before it is read (it would not fit the heap)."""
    flash = record.flash
    try:
        size = flash.size(slot)
    except OSError as exc:  # there, but not a file or not readable: never taken for missing
        raise ValueError("unreadable: %s" % os_reason(exc)) from None
    if size < 0:
        return None
    if size > record.max_bytes:
        raise ValueError(_too_large(size, record.max_bytes))
    try:
        return flash.read(slot)
    except MemoryError:
        raise ValueError("%d bytes: too large for the free memory" % size) from None
    except OSError as exc:
        raise ValueError("unreadable: %s" % os_reason(exc)) from None


def os_reason(exc):
    """An OSError in words: its text, else its number (MicroPython's has no text)."""
    a = exc.args
    return a[1] if len(a) > 1 else "[Errno %s]" % (a[0] if a else "?")


def read_all(record):
    """Every valid slot of ``record`` as ``(seq, body_lines, slot)``, newest first (the
    caller may fall back to an older one when the newest does not make sense); sets the
    record's ``note`` (what was found), ``damaged`` (what was wrong with the newer slot when
    an older one is used) and ``seq`` (the newest sequence number seen: the next write
    follows it)."""
    found = []
    notes = []
    bad = []  # (slot, what is wrong, its sequence number if it still says it, else -1)
    for slot in record.slots():
        data = None
        try:
            data = _read_slot(record, slot)
            seq, lines = check(record, data)
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
    record.damaged = ""
    # every slot that is there and could not be used, and why (the boot's note says it
    # whenever one was: a fallback is never silent)
    record.problems = "; ".join("%s: %s" % (b[0], b[1]) for b in bad)
    if found and bad:
        slot, why, claimed = bad[0]
        if claimed > found[0][0]:
            record.damaged = "the newest save was damaged: %s; one move lost" % why
        elif claimed >= 0:
            record.damaged = "the older save was damaged: %s; nothing lost" % why
        else:
            record.damaged = "the other save was damaged: %s; the last move may be lost" % why
    for slot in record.slots():
        try:
            tmp = record.flash.size(slot + ".tmp") >= 0
        except OSError:
            tmp = True
        if tmp:
            notes.append("%s.tmp: an interrupted write, ignored" % slot)
    if not found:
        record.seq = 0
        notes.append("no saved %s" % record.name if not notes else "nothing usable")
        record.note = "; ".join(notes)
        return found
    record.seq = found[0][0]
    if notes:
        notes.append("resumed %s seq %d" % (found[0][2], found[0][0]))
    else:
        notes.append("%s seq %d" % (found[0][2], found[0][0]))
    record.note = "; ".join(notes)
    return found


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
    return _seq_value(text) if _digits(text) else -1


def games(found):
    """The saved games of ``found`` (``read_all``'s) as dicts, newest first. The fields are
    as stored: the caller checks that they make a game."""
    out = []
    for seq, lines, slot in found:
        # (no game line: a save from before the games, the file's game: loading.resume)
        # (no moves line: None, which the caller refuses: every save this board writes has
        # one, so a save without it is not whole)
        g = {"game": None, "params": {}, "first": 0, "start": "", "moves": None,
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
            elif key == "resigned":
                g["resigned"] = rest
            elif key == "gameid" and 3 < len(rest) < 17 \
                    and not rest.strip("0123456789abcdef"):
                # a game's id as a board writes it (xobo.runtime.gameid: 4-16 lowercase hex
                # digits); else none, and the loader draws one
                g["gameid"] = rest
            elif key == "set":
                k, v = _split(rest)
                g["settings"][k] = _parse_value(v)
        out.append(g)
    return out


def settings(lines, defaults):
    """The settings of a record's body ``lines`` (or None) over ``defaults`` (a new dict)."""
    out = dict(defaults or {})
    for line in lines or ():
        if not isinstance(line, str):
            continue
        key, rest = _split(line)
        if key == "set":
            k, v = _split(rest)
            out[k] = _parse_value(v)
    return out
