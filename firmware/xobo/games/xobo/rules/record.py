"""Game records (N2): PGN-style tag lines, then the moves numbered in pairs.

Example::

    [Variant "xobo"]
    [First "NS"]
    [Result "*"]

    1. e5 (v) ; d4 2. e4

``;`` separates the two moves of a pair. A move that declares Voina carries `` (v)``; when
reading, a missing mark is accepted (players forget it) but a mark on a move that declares
nothing is an error. A game that starts from a set-up position has a ``[Position "..."]`` tag
(N3). Unknown tags (names, date, event) are kept as they are.

Usage::

    >>> from xobo.games.xobo.rules.record import parse_record, format_record, GameRecord
    >>> from xobo.games import load
    >>> game = load("xobo")
    >>> pos = game.new_position(game.DEFAULTS)
    >>> for k in range(2): pos.apply(pos.legal_actions()[0])
    >>> text = game.record_text(pos)      # serial `record`
    >>> rec = parse_record(text)          # RecordError names the move that is wrong
    >>> rec.final_position().to_string() == pos.to_string()
    True
    >>> print(format_record(rec))
    [Variant "xobo"]
    [First "NS"]
    [Result "*"]
    <BLANKLINE>
    1. a1 ; b1
"""

from xobo.errors import MoveError, PositionError, RecordError
from xobo.games.xobo.rules.geometry import EW, NS
from xobo.games.xobo.rules.notation import format_move, parse_move, strip_voina_mark
from xobo.games.xobo.rules.position import VARIANTS, Position
from xobo.numbers import parse_uint
from xobo.recordtags import TaggedRecord, read_record, tag_lines

START = "........./........./........./........./........./........./........./........./" \
    "......... ns 36 0 0"
_KNOWN = ("Variant", "First", "Position", "Result")
WIN_RESULTS = ("NS", "EW")  # the Result of each player's win (a resignation's too)


class GameRecord(TaggedRecord):
    """A game: its tags, variant, first player, start position (N3) and moves (ints)."""

    def __init__(self, variant="xobo", first=NS, start=None):
        self.variant = variant
        self.first = first
        self.start = start  # None: the empty board with the first player to move
        self.moves = []
        self.tags = []  # other tags, in order: (name, value)
        self.result = "*"

    def start_position(self):
        if self.start is None:
            return Position(self.variant, self.first)
        return Position.parse(self.start, self.variant)

    def update_result(self):
        """Set the result from the final position when the game is over."""
        w = self.final_position().winner()
        if w >= 0:
            self.result = "NS" if w == NS else "EW"
        return self.result


def parse_record(text):
    """Read an N2 record, replaying and checking every move; RecordError says what is wrong."""
    rec = GameRecord()
    first_tag = None
    tags, words = read_record(text, _KNOWN, (";", "(v)"))
    for name, value, lineno in tags:
        if name == "Variant":
            if value not in VARIANTS:
                raise RecordError(
                    "line %d: unknown variant '%s': use xobo or kv" % (lineno, value)
                )
            rec.variant = value
        elif name == "First":
            if value not in ("NS", "EW"):
                raise RecordError(
                    "line %d: First must be \"NS\" or \"EW\", got \"%s\"" % (lineno, value)
                )
            first_tag = NS if value == "NS" else EW
        elif name == "Position":
            rec.start = value
        elif name == "Result":
            if value not in ("NS", "EW", "*"):
                raise RecordError(
                    'line %d: Result must be "NS", "EW" or "*", got "%s"' % (lineno, value)
                )
            rec.result = value
        else:
            rec.tags.append((name, value))
    if rec.start is not None:
        try:
            pos = Position.parse(rec.start, rec.variant)
        except PositionError as exc:
            raise RecordError("Position tag: %s" % exc)
        if first_tag is not None and first_tag != pos.side:
            raise RecordError("the First tag disagrees with the side to move of the Position tag")
        rec.first = pos.side
    else:
        if first_tag is not None:
            rec.first = first_tag
        pos = Position(rec.variant, rec.first)

    tokens = [w for w, _ in words]
    pair = 1
    i = 0
    half = 0  # 0: expecting a move number, 1: first move of the pair, 2: after ';'
    count = 0
    while i < len(tokens):
        tok = tokens[i]
        i += 1
        number = parse_uint(tok[:-1]) if tok.endswith(".") else -1  # ASCII digits only
        if number >= 0:
            if number != pair:
                raise RecordError("move number %d found where %d was expected" % (number, pair))
            if half != 0:
                raise RecordError("move number %d.: the previous pair is incomplete" % number)
            half = 1
            continue
        if tok == ";":
            if half != 1 or not _just_moved(tokens, i - 1):
                raise RecordError("pair %d: ';' must come after the first move of a pair" % pair)
            half = 2
            continue
        if tok == "(v)":
            raise RecordError("pair %d: '(v)' must follow a move" % pair)
        if tok in ("*", "NS", "EW") and i == len(tokens):
            break  # a closing result token, as in PGN; the Result tag is what counts
        if half == 0:
            raise RecordError("pair %d: expected the move number '%d.' before %s" % (
                pair, pair, tok))
        marked = i < len(tokens) and tokens[i] == "(v)"
        if marked:
            i += 1
        count += 1
        if pos.winner() >= 0:
            raise RecordError(
                "move %d (%s): the game was already over" % (count, tok)
            )
        try:
            m = parse_move(tok, pos)
        except MoveError as exc:
            raise RecordError("move %d of pair %d (%s): %s" % (count, pair, tok, exc))
        pos.apply(m)
        rec.moves.append(m)
        if marked and not pos.declared_voina():
            raise RecordError(
                "move %d (%s) is marked (v) but does not declare Voïna" % (count, tok)
            )
        if half == 1:
            # a pair may end after its first move only at the end of the game
            if i < len(tokens) and tokens[i] not in (";",) and not _is_result(tokens, i):
                raise RecordError("pair %d: the two moves of a pair are separated by ';'" % pair)
        else:
            half = 0
            pair += 1
    if half == 2:
        raise RecordError("pair %d: a move must follow ';'" % pair)
    w = pos.winner()
    if w >= 0:
        actual = "NS" if w == NS else "EW"
        if rec.result != "*" and rec.result != actual:
            raise RecordError(
                "the Result tag says %s but the moves end with a win for %s" % (rec.result, actual)
            )
        rec.result = actual
    return rec


def _just_moved(tokens, i):
    return i > 0 and tokens[i - 1] not in (";",) and not tokens[i - 1].endswith(".")


def _is_result(tokens, i):
    return i == len(tokens) - 1 and tokens[i] in ("*", "NS", "EW")


def move_texts(rec):
    """Each move as the record writes it: N1, with `` (v)`` when it declared Voina."""
    pos = rec.start_position()
    out = []
    for m in rec.moves:
        text = format_move(m)
        pos.apply(m)
        if pos.declared_voina():
            text += " (v)"
        out.append(text)
    return out


def format_movetext(rec):
    """The moves in N2 notation on one line: '1. e5 (v) ; a4->c4 2. c6'."""
    texts = move_texts(rec)
    parts = []
    for k in range(len(texts)):
        text = texts[k]
        if k % 2 == 0:
            parts.append("%d. %s" % (k // 2 + 1, text))
        else:
            parts.append("; " + text)
    return " ".join(parts)


def format_record(rec):
    """The whole record: tag lines, a blank line, the movetext."""
    lines = ['[Variant "%s"]' % rec.variant, '[First "%s"]' % ("NS" if rec.first == NS else "EW")]
    if rec.start is not None:
        lines.append('[Position "%s"]' % rec.start)
    lines += tag_lines(rec.tags, _KNOWN)
    lines.append('[Result "%s"]' % rec.result)
    lines.append("")
    lines.append(format_movetext(rec))
    return "\n".join(lines) + "\n"


def record_from_position(pos, tags=None):
    """A record of the moves ``pos`` has seen since its start (Position.history)."""
    start = pos.clone()
    while start.ply:
        start.undo()
    rec = GameRecord(pos.variant, start.side)
    if start.to_string() != Position(pos.variant, start.side).to_string():
        rec.start = start.to_string()
    rec.moves = pos.history()
    if tags:
        for k, v in tags:
            rec.set_tag(k, v)
    rec.update_result()
    return rec


__all__ = ["GameRecord", "parse_record", "format_record", "format_movetext", "move_texts",
           "record_from_position", "strip_voina_mark", "START"]
