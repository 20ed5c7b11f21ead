"""X game records (XN1): PGN-style tags, then the rounds numbered, three moves each.

Example::

    [Game "X"]
    [Size "8"]
    [Result "*"]
    [Score "0-0-0"]

    1. d5 e4 c6 2. f3 d4 e6

A round lists its moves in playing order: Red, Yellow, Green, or from the first player when
a ``[First "Yellow"]`` tag says another started (decision: XN1 names only Red first). Other
tags (names, date) are kept. ``Result`` and ``Score`` are written from the final position;
when reading they must agree with it.

Usage::

    >>> from xobo.games.x.record import parse_record, format_record
    >>> from xobo.games import load
    >>> game = load("x")
    >>> pos = game.new_position(game.DEFAULTS)
    >>> for k in range(2): pos.apply(pos.legal_actions()[0])
    >>> text = game.record_text(pos)      # serial `record`
    >>> rec = parse_record(text)          # RecordError names the move and line that are wrong
    >>> rec.final_position().to_string() == pos.to_string()
    True
    >>> print(format_record(rec))
    [Game "X"]
    [Size "8"]
    [Result "*"]
    [Score "1-0-0"]
    <BLANKLINE>
    1. a1 b1
"""

from xobo.errors import MoveError, RecordError
from xobo.games.x.rules import (
    DEFAULT_SIZE,
    MAX_SIZE,
    MIN_SIZE,
    PLAYER_WORDS,
    Position,
    cell_name,
)
from xobo.numbers import parse_uint
from xobo.recordtags import TaggedRecord, read_record, resigned, tag_lines

_KNOWN = ("Game", "Size", "First", "Result", "Score")
WIN_RESULTS = PLAYER_WORDS  # the Result of each player's win (a resignation's too)


class GameRecord(TaggedRecord):
    """A game: its size, first player, moves (cells) and other tags."""

    def __init__(self, size=DEFAULT_SIZE, first=0):
        self.size = size
        self.first = first
        self.moves = []
        self.tags = []  # other tags, in order: (name, value)

    def start_position(self):
        return Position(self.size, self.first)


def result_text(pos):
    w = pos.winner()
    return "*" if w < 0 else PLAYER_WORDS[w]


def score_text(pos):
    s = pos.scores(bytearray(3))
    return "%d-%d-%d" % (s[0], s[1], s[2])


def parse_record(text):
    """Read an XN1 record, replaying and checking every move; RecordError says what is wrong."""
    rec = GameRecord()
    checks = []  # (name, value, lineno): Result and Score, checked at the end
    tags, words = read_record(text, _KNOWN)
    for name, value, lineno in tags:
        if name == "Game":
            if value != "X":
                raise RecordError('line %d: this is a record of "%s", not of X'
                                  % (lineno, value))
        elif name == "Size":
            n = parse_uint(value, 1)
            if n < MIN_SIZE or n > MAX_SIZE:
                raise RecordError("line %d: Size must be %d-%d, not '%s' (XB1)"
                                  % (lineno, MIN_SIZE, MAX_SIZE, value))
            rec.size = n
        elif name == "First":
            if value not in PLAYER_WORDS:
                raise RecordError('line %d: First must be "Red", "Yellow" or "Green", not'
                                  ' "%s"' % (lineno, value))
            rec.first = PLAYER_WORDS.index(value)
        elif name in ("Result", "Score"):
            checks.append((name, value, lineno))
        else:
            rec.tags.append((name, value))
    pos = rec.start_position()
    expect_round = 1
    k = 0
    i = 0
    while i < len(words):
        w, ln = words[i]
        i += 1
        if w == "*" and i == len(words):
            break  # PGN's closing result mark
        if w.endswith("."):
            num = parse_uint(w[:-1])
            if num != expect_round or pos.ply % 3:
                raise RecordError("line %d: round number '%s' where round %d%s was expected"
                                  % (ln, w, expect_round,
                                     "" if pos.ply % 3 == 0 else "'s next move"))
            expect_round += 1
            continue
        k += 1
        if pos.ply % 3 == 0 and pos.ply // 3 + 1 == expect_round:
            raise RecordError("line %d: move %d (%s) needs its round number %d. before it"
                              % (ln, k, w, expect_round))
        if pos.is_terminal():
            raise RecordError("line %d: move %d (%s): the board is already full (XE1)"
                              % (ln, k, w))
        try:
            m = pos.parse_move(w)
        except MoveError as exc:
            raise RecordError("line %d: move %d (%s): %s" % (ln, k, w, exc))
        pos.apply(m)
        rec.moves.append(m)
    loser = resigned(rec.tags)  # an end no move shows: the winner is the Result's word
    for name, value, ln in checks:
        got = result_text(pos) if name == "Result" else score_text(pos)
        if name == "Result" and loser and got == "*" and value in WIN_RESULTS \
                and value.lower() != loser:
            continue
        if name == "Score" and not pos.is_terminal():
            continue  # a running game's score is the corners now: no claim to check
        if value != got:
            raise RecordError('line %d: [%s "%s"] but the moves give "%s" (XE2)'
                              % (ln, name, value, got))
    return rec


def format_movetext(rec):
    out = []
    for i in range(len(rec.moves)):
        if i % 3 == 0:
            out.append("%d." % (i // 3 + 1))
        out.append(cell_name(rec.moves[i], rec.size))
    return " ".join(out)


def format_record(rec):
    """The XN1 text of ``rec``: tags (Result and Score from the final position), moves."""
    pos = rec.final_position()
    lines = ['[Game "X"]', '[Size "%d"]' % rec.size]
    if rec.first:
        lines.append('[First "%s"]' % PLAYER_WORDS[rec.first])
    lines += tag_lines(rec.tags, _KNOWN)
    lines.append('[Result "%s"]' % result_text(pos))
    lines.append('[Score "%s"]' % score_text(pos))
    lines.append("")
    lines.append(format_movetext(rec))
    return "\n".join(lines) + "\n"


def record_from_position(pos, tags=None):
    """The record of the moves that led to ``pos`` from the empty board."""
    if pos.ply != pos.filled:
        raise RecordError("the position was set up, not played from the empty board: a record"
                          " (XN1) starts from the empty board")
    rec = GameRecord(pos.size, pos.first)
    rec.moves = pos.history()
    if tags:
        rec.tags = list(tags)
    return rec
