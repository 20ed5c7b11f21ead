"""Three in a row game records (TN3, docs/rules/tiny.md): tag lines, then the moves in pairs.

Example::

    [Game "Three in a row"]
    [First "x"]
    [Result "x"]

    1. b2 a1 2. c3 a3 3. a2 c1 4. c2

A game from a set-up position has a ``[Position "..."]`` tag (TN2) whose side to move is the
first player; the numbers still start at 1. Other tags (names, date, board) are kept.
``Result`` (``x``, ``o``, ``draw`` or ``*`` while the game runs) is written from the final
position; when reading it must agree with the moves, as must a closing result word.

Usage::

    >>> from xobo.games.tiny.record import parse_record, format_record
    >>> from xobo.games import load
    >>> game = load("tiny")
    >>> pos = game.new_position(game.DEFAULTS)
    >>> for k in range(2): pos.apply(pos.legal_actions()[0])
    >>> text = game.record_text(pos)      # serial `record`
    >>> rec = parse_record(text)          # RecordError names the line and the move that are wrong
    >>> rec.final_position().to_string() == pos.to_string()
    True
    >>> print(format_record(rec))
    [Game "Three in a row"]
    [First "x"]
    [Result "*"]
    <BLANKLINE>
    1. a1 b1

Imported only when a record is asked for (serial ``record``, the host's games database), not
at boot.
"""

from xobo.errors import MoveError, PositionError, RecordError
from xobo.games.tiny.position import PLAYER_NAMES, Position
from xobo.numbers import parse_uint
from xobo.recordtags import TaggedRecord, read_record, resigned, tag_lines

GAME = "Three in a row"
RESULTS = ("x", "o", "draw", "*")
WIN_RESULTS = PLAYER_NAMES  # the Result of each player's win (a resignation's too)
_KNOWN = ("Game", "First", "Position", "Result")


class GameRecord(TaggedRecord):
    """A game: its first player, set-up position (TN2 text, None: the empty board), moves
    (cells 0-8) and other tags."""

    def __init__(self, first=0, start=None):
        self.first = first
        self.start = start
        self.moves = []
        self.tags = []  # other tags, in order: (name, value)

    def start_position(self):
        if self.start is None:
            return Position(self.first)
        return Position.parse(self.start)


def result_text(pos):
    """TN3's Result of ``pos``: the winner (TE1), ``draw`` (TE2) or ``*`` while it runs."""
    w = pos.winner()
    if w >= 0:
        return PLAYER_NAMES[w]
    return "draw" if pos.is_full() else "*"


def parse_record(text):
    """Read a TN3 record, replaying and checking every move; RecordError says what is wrong."""
    rec = GameRecord()
    first = None
    first_line = 0
    claims = []  # (what, value, lineno): the Result tag and a closing word, checked at the end
    tags, words = read_record(text, _KNOWN)
    set_up = False  # a Position tag
    for name, value, lineno in tags:
        if name == "Game":
            if value != GAME:
                raise RecordError('line %d: this is a record of "%s", not of %s'
                                  % (lineno, value, GAME))
        elif name == "First":
            if value not in PLAYER_NAMES:
                raise RecordError('line %d: First must be "x" or "o", not "%s" (TM2)'
                                  % (lineno, value))
            first = PLAYER_NAMES.index(value)
            first_line = lineno
        elif name == "Position":
            try:
                start = Position.parse(value)
            except PositionError as exc:
                raise RecordError("line %d: Position: %s" % (lineno, exc))
            rec.start = start.to_string()
            if rec.start == Position(start.side).to_string():
                rec.start = None  # the empty board: no set-up
            rec.first = start.side
            set_up = True
        elif name == "Result":
            if value not in RESULTS:
                raise RecordError('line %d: Result must be "x", "o", "draw" or "*", not "%s"'
                                  % (lineno, value))
            claims.append(("[Result \"%s\"]" % value, value, lineno))
        else:
            rec.tags.append((name, value))
    if first is not None:
        if set_up and first != rec.first:
            raise RecordError('line %d: [First "%s"] but the Position tag has %s to move'
                              % (first_line, PLAYER_NAMES[first], PLAYER_NAMES[rec.first]))
        rec.first = first
    pos = rec.start_position()
    _replay(rec, pos, words, claims)
    got = result_text(pos)
    loser = resigned(rec.tags)  # an end no move shows: the winner is the Result's word
    for what, value, ln in claims:
        if loser and got == "*" and value in WIN_RESULTS and value != loser:
            continue
        if value != got:
            raise RecordError('line %d: %s but the moves give "%s" (TE1, TE2)'
                              % (ln, what, got))
    return rec


def _replay(rec, pos, words, claims):
    """Play the moves of ``words`` on ``pos`` into ``rec.moves``, checking the numbers."""
    k = 0  # moves so far
    for i in range(len(words)):
        w, ln = words[i]
        if w in RESULTS and i == len(words) - 1:
            claims.append(("the closing '%s'" % w, w, ln))
            return
        if w.endswith("."):
            number = parse_uint(w[:-1])
            if k % 2 or number != k // 2 + 1:
                raise RecordError("line %d: number '%s' where %s was expected"
                                  % (ln, w, "move %d" % (k + 1) if k % 2
                                     else "'%d.'" % (k // 2 + 1)))
            continue
        k += 1
        if k % 2 and (i == 0 or words[i - 1][0] != "%d." % (k // 2 + 1)):
            raise RecordError("line %d: move %d (%s) needs its number '%d.' before it"
                              % (ln, k, w, k // 2 + 1))
        try:
            m = pos.parse_move(w)
        except MoveError as exc:
            raise RecordError("line %d: move %d (%s): %s" % (ln, k, w, exc))
        pos.apply(m)
        rec.moves.append(m)


def format_movetext(rec):
    """The moves numbered in pairs: ``1. b2 a1 2. c3``."""
    pos = rec.start_position()
    out = []
    for k in range(len(rec.moves)):
        if k % 2 == 0:
            out.append("%d." % (k // 2 + 1))
        out.append(pos.move_text(rec.moves[k]))
        pos.apply(rec.moves[k])
    return " ".join(out)


def format_record(rec):
    """The TN3 text of ``rec``: tags (Result from the final position), then the moves."""
    lines = ['[Game "%s"]' % GAME, '[First "%s"]' % PLAYER_NAMES[rec.first]]
    if rec.start is not None:
        lines.append('[Position "%s"]' % rec.start)
    lines += tag_lines(rec.tags, _KNOWN)
    lines.append('[Result "%s"]' % result_text(rec.final_position()))
    lines.append("")
    lines.append(format_movetext(rec))
    return "\n".join(lines) + "\n"


def record_from_position(pos, tags=None):
    """The record of the moves that led to ``pos`` since it was made or parsed."""
    start = pos.clone()
    while start.ply:
        start.undo()
    rec = GameRecord(start.side)
    text = start.to_string()
    if text != Position(start.side).to_string():
        rec.start = text
    rec.moves = pos.history()
    if tags:
        rec.tags = list(tags)
    return rec
