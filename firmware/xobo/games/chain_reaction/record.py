"""Chain Reaction game records (CN1): tag lines, then the turns numbered in pairs.

Example::

    [Game "Chain Reaction"]
    [Field "7"]
    [Target "18"]
    [First "Light"]
    [Result "*"]

    1. d4-d5 ; d6-d5 d5:S 2. ...

The segments of a turn are separated by spaces, the two turns of a pair by ``;``. A turn ends
where the rules end it (CM4); a ``;`` or a number where the turn goes on, or a segment after
the turn has ended, is an error naming the turn. ``[Variant "blockade"]`` turns on CE3; a game
from a set-up position has a ``[Position "..."]`` tag (CN2). Other tags are kept.

Usage::

    >>> from xobo.games.chain_reaction.record import parse_record, format_record
    >>> from xobo.games import load
    >>> game = load("chain-reaction")
    >>> pos = game.new_position(game.DEFAULTS)
    >>> for k in range(2): pos.apply(pos.legal_actions()[0])
    >>> text = game.record_text(pos)      # serial `record`
    >>> rec = parse_record(text)          # RecordError names the segment, turn and line
    >>> rec.final_position().to_string() == pos.to_string()
    True
"""

from xobo.errors import MoveError, PositionError, RecordError
from xobo.games.chain_reaction.rules import DARK, LIGHT, PLAYER_WORDS, Position
from xobo.numbers import parse_uint
from xobo.recordtags import TaggedRecord, read_record, tag_lines

_KNOWN = ("Game", "Field", "Target", "First", "Variant", "Position", "Result")
RESULTS = ("Light", "Dark", "*")
WIN_RESULTS = PLAYER_WORDS  # the Result of each player's win (a resignation's too)


class GameRecord(TaggedRecord):
    """Settings, start position (None: the start of CB3), segments (ints), other tags."""

    def __init__(self, field=7, target=18, first=LIGHT, blockade=False, start=None):
        self.field = field
        self.target = target
        self.first = first
        self.blockade = blockade
        self.start = start
        self.moves = []
        self.tags = []
        self.result = "*"

    def start_position(self):
        if self.start is None:
            return Position(self.field, self.target, self.first, self.blockade)
        return Position.parse(self.start, self.field, self.blockade)

    def update_result(self):
        w = self.final_position().winner()
        if w >= 0:
            self.result = PLAYER_WORDS[w]
        return self.result


def _number_tag(name, value, lo, hi, lineno):
    v = parse_uint(value, 2)
    if v < lo or v > hi:
        raise RecordError('line %d: %s must be a number %d-%d, got "%s"'
                          % (lineno, name, lo, hi, value))
    return v


def parse_record(text):
    """Read a CN1 record, replaying and checking every segment; RecordError says what is
    wrong, naming the segment, its turn and its line."""
    rec = GameRecord()
    first = None
    tags, words = read_record(text, _KNOWN, (";",))
    for name, value, lineno in tags:
        if name == "Game":
            if value != "Chain Reaction":
                raise RecordError('line %d: this is not a Chain Reaction record (Game "%s")'
                                  % (lineno, value))
        elif name == "Field":
            rec.field = _number_tag(name, value, 6, 7, lineno)
        elif name == "Target":
            rec.target = _number_tag(name, value, 12, 24, lineno)
        elif name == "First":
            if value not in ("Light", "Dark"):
                raise RecordError('line %d: First is "Light" or "Dark", got "%s"'
                                  % (lineno, value))
            first = LIGHT if value == "Light" else DARK
        elif name == "Variant":
            if value not in ("blockade", "standard"):
                raise RecordError('line %d: Variant is "blockade" or "standard", got "%s"'
                                  % (lineno, value))
            rec.blockade = value == "blockade"
        elif name == "Position":
            rec.start = value
        elif name == "Result":
            if value not in RESULTS:
                raise RecordError('line %d: Result is "Light", "Dark" or "*", got "%s"'
                                  % (lineno, value))
            rec.result = value
        else:
            rec.tags.append((name, value))
    if rec.start is not None:
        try:
            pos = rec.start_position()
        except PositionError as exc:
            raise RecordError("Position tag: %s" % exc)
        if first is not None and first != pos.side:
            raise RecordError("the First tag disagrees with the side to move of the Position tag")
        rec.target = pos.target
        rec.first = pos.side
    else:
        if first is not None:
            rec.first = first
        pos = rec.start_position()
    _replay(rec, pos, words)
    w = pos.winner()
    if w >= 0:
        if rec.result != "*" and rec.result != PLAYER_WORDS[w]:
            raise RecordError("the Result tag says %s but the moves end with a win for %s"
                              % (rec.result, PLAYER_WORDS[w]))
        rec.result = PLAYER_WORDS[w]
    return rec


def _replay(rec, pos, words):
    pair = 1
    half = 0  # 0: a number is due, 1: the first turn of the pair, 2: its second turn
    segs = 0  # segments of the current turn so far
    done = False  # the current turn has ended (CM4)
    last = ""
    for j in range(len(words)):
        tok, lineno = words[j]
        where = "line %d, turn %d%s" % (lineno, pair, "" if half < 2 else " (second)")
        number = parse_uint(tok[:-1]) if tok.endswith(".") else -1
        if number >= 0:
            if half == 1 and done:
                raise RecordError("line %d: '%s' where ';' was expected after turn %d's first"
                                  " turn" % (lineno, tok, pair))
            if half != 0:
                raise RecordError("%s: the turn goes on after %s (CM4), '%s' comes too early"
                                  % (where, last, tok))
            if number != pair:
                raise RecordError("line %d: number %d found where %d was expected"
                                  % (lineno, number, pair))
            half = 1
            segs = 0
            done = False
            continue
        if tok == ";":
            if half == 0 or not segs:
                raise RecordError("%s: ';' must come after the first turn of a pair" % where)
            if not done:
                raise RecordError("%s: the turn goes on after %s (CM4), ';' comes too early"
                                  % (where, last))
            if half == 2:
                raise RecordError("%s: a pair has two turns, write '%d.' instead of ';'"
                                  % (where, pair + 1))
            half = 2
            segs = 0
            done = False
            continue
        if tok in RESULTS and j == len(words) - 1:
            break  # a closing result token; the Result tag is what counts
        if half == 0:
            raise RecordError("line %d: expected the number '%d.' before %s" % (lineno, pair, tok))
        if done:
            raise RecordError("%s: the turn ended after %s (CM4): write %s before %s"
                              % (where, last, "';'" if half == 1 else "'%d.'" % (pair + 1), tok))
        if pos.winner() >= 0:
            raise RecordError("%s: %s comes after the end of the game" % (where, tok))
        try:
            m = pos.parse_move(tok)
            pos.play(m)
        except MoveError as exc:
            raise RecordError("%s, segment %d (%s): %s" % (where, segs + 1, tok, exc))
        rec.moves.append(m)
        segs += 1
        last = tok
        if pos.seg == 0:
            done = True
            if half == 2:
                half = 0
                pair += 1


def format_movetext(rec):
    """The turns on one line: ``1. d4-d5 ; d6-d5 d5:S 2. ...``."""
    pos = rec.start_position()
    out = []
    turn = 0
    fresh = True
    for m in rec.moves:
        if fresh:
            out.append("%d." % (turn // 2 + 1) if turn % 2 == 0 else ";")
            fresh = False
        out.append(pos.move_text(m))
        pos.apply(m)
        if pos.seg == 0:
            turn += 1
            fresh = True
    return " ".join(out)


def format_record(rec):
    lines = ['[Game "Chain Reaction"]', '[Field "%d"]' % rec.field,
             '[Target "%d"]' % rec.target, '[First "%s"]' % PLAYER_WORDS[rec.first]]
    if rec.blockade:
        lines.append('[Variant "blockade"]')
    if rec.start is not None:
        lines.append('[Position "%s"]' % rec.start)
    lines += tag_lines(rec.tags, _KNOWN)
    lines.append('[Result "%s"]' % rec.result)
    lines.append("")
    lines.append(format_movetext(rec))
    return "\n".join(lines) + "\n"


def record_from_position(pos):
    """The record of the segments ``pos`` has seen since it was made or parsed."""
    start = pos.clone()
    while start.ply:
        start.undo()
    rec = GameRecord(pos.field, pos.target, start.side, pos.blockade)
    fresh = Position(pos.field, pos.target, start.side, pos.blockade)
    if start.to_string() != fresh.to_string():
        rec.start = start.to_string()
    rec.moves = pos.history()
    rec.update_result()
    return rec
