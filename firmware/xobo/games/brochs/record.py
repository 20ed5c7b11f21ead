"""Brochs game records (BN1): PGN-style tag lines, then the moves numbered in pairs, Black first.

Example::

    [Game "Brochs"]
    [Donjons "d4 l4 d12 l12"]
    [Imprecation "black"]
    [MasterDiagonal "either"]
    [First "black"]
    [Result "*"]

    1. *g8 ; a6-c6 2. M*e5 ; f1-f4 3. (s?) (pass!) e5-e9xe10 ; --

``;`` opens White's half of a pair. The submission tokens ``(s?)``, ``(s!)``, ``(pass!)`` and the
pick of a remote capture (``imprecation_choice = white``: ``!SE`` then White's ``!k3``) stay in
the half of the player whose turn they belong to. A game that White starts opens with ``1...``.
Captures may be left out when reading; when written they must be the move's own. A game from a
set-up position has a ``[Position "..."]`` tag (BN2). Unknown tags are kept as they are.

Usage::

    >>> from xobo.games.brochs.record import parse_record, format_record
    >>> from xobo.games import load
    >>> game = load("brochs")
    >>> pos = game.new_position(game.DEFAULTS)
    >>> for k in range(2): pos.apply(pos.legal_actions()[0])
    >>> text = game.record_text(pos)      # serial `record`
    >>> rec = parse_record(text)          # RecordError names the line and the move that is wrong
    >>> print(format_record(rec))
    [Game "Brochs"]
    [Donjons "d4 l4 d12 l12"]
    [Imprecation "black"]
    [MasterDiagonal "either"]
    [First "black"]
    [Result "*"]
    <BLANKLINE>
    1. *a1 ; f1-f2
    >>> rec.final_position().to_string() == pos.to_string()
    True
"""

from xobo.errors import MoveError, PositionError, RecordError
from xobo.games.brochs.rules import (
    ACCEPT,
    BLACK,
    REFUSE,
    REMOTE,
    WHITE_P,
    Position,
    cell_name,
    donjon_cells,
    parse_cell,
)
from xobo.numbers import parse_uint
from xobo.recordtags import TaggedRecord, read_record, tag_lines

_KNOWN = ("Game", "Donjons", "Imprecation", "MasterDiagonal", "First", "Position", "Result")
RESULTS = ("black", "white", "draw", "*")
WIN_RESULTS = ("black", "white")  # the Result of each player's win (a resignation's too)


class GameRecord(TaggedRecord):
    """A game: its settings, start (BN2 string or None), moves (ints), other tags, result."""

    def __init__(self, donjon=4, imprecation="black", master_diagonal="either", first=BLACK,
                 start=None):
        self.donjon = donjon
        self.imprecation = imprecation
        self.master_diagonal = master_diagonal
        self.first = first
        self.start = start
        self.moves = []
        self.tags = []
        self.result = "*"

    def start_position(self):
        if self.start is None:
            return Position(self.donjon, self.imprecation, self.master_diagonal, self.first)
        return Position.parse(self.start, self.donjon, self.imprecation, self.master_diagonal)

    def update_result(self):
        self.result = result_word(self.final_position())
        return self.result


def result_word(pos):
    if not pos.is_terminal():
        return "*"
    w = pos.winner()
    return "draw" if w < 0 else ("black", "white")[w]


def half_owner(pos, m):
    """Whose half of the pair move m belongs to: an answer to a submission question is the
    proposer's (asked before its turn), White's pick the end of Black's remote capture."""
    if m == ACCEPT or m == REFUSE:
        return 1 - pos.side
    if pos.pick >= 0 and (m & 0xFF00) == REMOTE:
        return BLACK
    return pos.side


def record_from_position(pos):
    """A record of the moves that led to ``pos`` from its settings' start position."""
    rec = GameRecord(pos.donjon, pos.imprecation, pos.master_diagonal)
    moves = pos.history()
    start = pos.clone()
    for _ in moves:
        start.undo()
    fresh = Position(pos.donjon, pos.imprecation, pos.master_diagonal, start.side)
    if start.to_string() != fresh.to_string():
        rec.start = start.to_string()
    rec.first = start.side
    rec.moves = moves
    rec.update_result()
    return rec


def format_moves(pos, moves):
    """The move text of ``moves`` played from ``pos`` (which is left at the end)."""
    out = []
    cur = -1
    num = 0
    for m in moves:
        h = half_owner(pos, m)
        if h != cur:
            if h == BLACK:
                num += 1
                out.append("%d." % num)
            elif cur < 0:
                num += 1
                out.append("%d..." % num)
            else:
                out.append(";")
            cur = h
        out.append(pos.move_text(m))
        pos.apply(m)
    return " ".join(out)


def format_record(rec):
    lines = ['[Game "Brochs"]',
             '[Donjons "%s"]' % " ".join(cell_name(c) for c in _tag_order(rec.donjon)),
             '[Imprecation "%s"]' % rec.imprecation,
             '[MasterDiagonal "%s"]' % rec.master_diagonal,
             '[First "%s"]' % ("black", "white")[rec.first]]
    if rec.start is not None:
        lines.append('[Position "%s"]' % rec.start)
    lines += tag_lines(rec.tags)
    lines.append('[Result "%s"]' % rec.result)
    lines.append("")
    text = format_moves(rec.start_position(), rec.moves)
    # wrap at 90 columns between tokens, a move number staying with its move
    row = ""
    for tok in text.replace(". ", ".\x00").split(" "):
        tok = tok.replace("\x00", " ")
        if row and len(row) + 1 + len(tok) > 90:
            lines.append(row)
            row = tok
        else:
            row = tok if not row else row + " " + tok
    if row:
        lines.append(row)
    return "\n".join(lines) + "\n"


def _tag_order(k):
    d = donjon_cells(k)  # NW NE SW SE; the tag lists SW SE NW NE (d4 l4 d12 l12)
    return (d[2], d[3], d[0], d[1])


def _donjon_setting(value, lineno):
    cells = []
    for name in value.split():
        c = parse_cell(name)
        if c < 0:
            raise RecordError("line %d: Donjons: '%s' is no square (a1-o15)" % (lineno, name))
        cells.append(c)
    for k in range(2, 8):
        if sorted(cells) == sorted(donjon_cells(k)):
            return k
    raise RecordError("line %d: Donjons '%s' are not (k, k) and its three mirrors for a k of"
                      " 2-7 (BB3)" % (lineno, value))


def parse_record(text):
    """Parse a BN1 record; raise RecordError naming the line (and move) that is wrong."""
    rec = GameRecord()
    tags, words = read_record(text, _KNOWN)
    for name, value, lineno in tags:
        if name == "Game":
            if value.lower() != "brochs":
                raise RecordError("line %d: this is a record of '%s', not of Brochs"
                                  % (lineno, value))
        elif name == "Donjons":
            rec.donjon = _donjon_setting(value, lineno)
        elif name == "Imprecation":
            if value not in ("black", "white"):
                raise RecordError("line %d: Imprecation is black or white, got '%s'"
                                  % (lineno, value))
            rec.imprecation = value
        elif name == "MasterDiagonal":
            if value not in ("either", "master-moves"):
                raise RecordError("line %d: MasterDiagonal is either or master-moves,"
                                  " got '%s'" % (lineno, value))
            rec.master_diagonal = value
        elif name == "First":
            if value not in ("black", "white"):
                raise RecordError("line %d: First is black or white, got '%s'"
                                  % (lineno, value))
            rec.first = BLACK if value == "black" else WHITE_P
        elif name == "Position":
            rec.start = value
        elif name == "Result":
            if value not in RESULTS:
                raise RecordError("line %d: Result is black, white, draw or *, got '%s'"
                                  % (lineno, value))
            rec.result = value
        else:
            rec.tags.append((name, value))
    try:
        pos = rec.start_position()
    except PositionError as exc:
        raise RecordError("Position tag: %s" % exc)
    if rec.start is not None:
        rec.first = pos.side
    cur = -1
    num = 0
    want = -1  # the number written before the next half, or -1
    k = 0
    for tok, lineno in words:
        if tok == ";":
            continue
        if tok[-1] == ".":
            digits = tok.rstrip(".")
            n = parse_uint(digits)
            if n < 1 or tok not in (digits + ".", digits + "..."):
                raise RecordError("line %d: '%s' is neither a move nor a move number"
                                  % (lineno, tok))
            want = n
            continue
        if tok in RESULTS[:3] or tok in ("1-0", "0-1", "1/2-1/2"):
            continue  # a result at the end of the moves: the tag is what counts
        k += 1
        try:
            m = pos.parse_move(tok)
        except MoveError as exc:
            raise RecordError("line %d, move %d ('%s'): %s" % (lineno, k, tok, exc))
        h = half_owner(pos, m)
        if h != cur:
            if h == BLACK or cur < 0:
                num += 1
            cur = h
        if want >= 0:
            if want != num:
                raise RecordError("line %d, move %d ('%s'): numbered %d, but it is in pair %d"
                                  % (lineno, k, tok, want, num))
            want = -1
        pos.apply(m)
        rec.moves.append(m)
    if want >= 0:
        raise RecordError("the record ends with a move number (%d) and no move" % want)
    real = result_word(pos)
    if real != "*" and rec.result != real:
        raise RecordError("Result is '%s' but the moves end the game with %s (BE3)"
                          % (rec.result, real if real == "draw" else real + " winning"))
    return rec
