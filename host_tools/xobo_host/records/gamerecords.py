"""Any game's records on the host, through the game's own record module (docs/games.md).

A game that has a record notation names its module in its ``records`` part: it has
``parse_record(text) -> rec`` (RecordError says what is wrong), ``rec.start_position()``,
``rec.moves`` (ints), ``rec.tags`` (other tags, kept), and ``format_record(rec)``; optionally
``move_texts(rec)`` (each move as the record writes it: XoBo's `` (v)``) and
``rec.update_result()``. This module turns a record into what the games database stores, and
back, knowing no game by name.

Usage::

    >>> from xobo_host.records.gamerecords import read_record, write_record
    >>> text = write_record("xobo", [("Variant", "xobo")], None, ["e5", "d4", "e4"])
    >>> print(text)                               # the game's own notation, moves checked
    [Variant "xobo"]
    [First "NS"]
    [Result "*"]
    <BLANKLINE>
    1. e5 ; d4 2. e4
    <BLANKLINE>
    >>> game = read_record("xobo", text)          # the board's `record` reply, replayed
    >>> game.tags, game.start, game.moves, game.result, game.finished
    ([('Variant', 'xobo'), ('First', 'NS')], None, ['e5', 'd4', 'e4'], '*', False)
    >>> game.gameid, game.ending                  # the board's id of the game, a resignation's
    ('', '')
    >>> write_record("tiny", [], None, ["a1", "a1"])
    Traceback (most recent call last):
    ...
    xobo_host.records.gamerecords.GameRecordError: move 2 (a1): a1 is taken (by x)
"""

import collections
import contextlib
import copy
import threading

from xobo.errors import XoboError
from xobo.recordtags import board_record, resigned

# tags a record derives from its moves, and the set-up position (kept apart)
DERIVED_TAGS = ("Result", "Score")
POSITION_TAG = "Position"
# tags only the board knows (xobo.recordtags.board_record): no parameter of the game, kept
# apart (a resignation's words change nothing of which game it is)
GAMEID_TAG = "GameId"
TERMINATION_TAG = "Termination"
BOARD_TAGS = (GAMEID_TAG, TERMINATION_TAG)
LONGEST_SHOWN = 60  # characters of a bad input quoted back in an error, at most


class GameRecordError(ValueError):
    """A record or a stored move that is not one of its game."""


def clip(text, most=LONGEST_SHOWN):
    """``text`` to be quoted in a message: at most ``most`` characters, and its length when
    it is longer (a 10 MB input is never echoed back)."""
    text = str(text)
    if len(text) <= most:
        return text
    return "%s... (%d characters)" % (text[:most], len(text))


def record_module(game):
    """The record module of game ``game``; GameRecordError when it has none."""
    from xobo import games

    try:
        pkg = games.load(game)
    except (ValueError, ImportError) as exc:
        raise GameRecordError("game '%s' is not installed: %s" % (clip(game), exc)) from None
    if "records" not in pkg.PARTS:
        raise GameRecordError("%s has no record notation: its games cannot be recorded"
                              % pkg.TITLE)
    return games.part(pkg, "records")


def has_records(game):
    try:
        record_module(game)
        return True
    except GameRecordError:
        return False


def header_tags(text):
    """The ``[Name "value"]`` lines of a record, in order: [(name, value)]."""
    out = []
    for raw in text.split("\n"):
        line = raw.strip()
        if not line.startswith("[") or not line.endswith("]"):
            continue
        body = line[1:-1].strip()
        sp = body.find(" ")
        if sp <= 0:
            continue
        value = body[sp:].strip()
        if len(value) >= 2 and value[0] == '"' and value[-1] == '"':
            value = value[1:-1]
        out.append((body[:sp], value))
    return out


def result_word(game, player):
    """The Result word of ``game``'s records for a win of ``player`` (its name on the board,
    as ``state`` says it: ``ew`` -> ``EW``, ``light`` -> ``Light``); ``player`` itself when it
    is no player of the game (``draw``, ``none``) or the game has no records."""
    from xobo import games

    try:
        names = list(games.load(game).PLAYER_NAMES)
        return record_module(game).WIN_RESULTS[names.index(player)]
    except (GameRecordError, ImportError, AttributeError, ValueError, IndexError):
        return player


def params_text(tags):
    """The parameters for people, from the parameter tags: ``size=8 first=Yellow``."""
    return " ".join("%s=%s" % (name.lower(), value.replace(" ", ","))
                    for name, value in tags if name != "Game")


class ReadRecord:
    """What the database keeps of a record: ``tags`` (the game's parameter tags, as the record
    writes them), ``start`` (the set-up position or None), ``moves`` (their texts),
    ``first`` (the player to move at the start), ``result`` (the Result tag's word, ``*``
    while the game runs), ``finished``, ``gameid`` (the board's id of the game, its
    ``[GameId]`` tag: '' from a board that gives none) and ``ending`` (a resignation's words,
    its ``[Termination "ew ns-resigned"]`` tag: '' when the game did not end so)."""

    def __init__(self, tags, start, moves, first, result, finished, gameid="", ending=""):
        self.tags = tags
        self.start = start
        self.moves = moves
        self.first = first
        self.result = result
        self.finished = finished
        self.gameid = gameid
        self.ending = ending

    @property
    def params(self):
        return params_text(self.tags)


def read_record(game, text):
    """Parse ``text``, a record of ``game`` (the board's ``record`` reply), with the game's own
    parser: every move replayed and checked. GameRecordError says what is wrong."""
    from xobo import games

    mod = record_module(game)
    try:
        rec = mod.parse_record(text)
        first = games.load(game).PLAYER_NAMES[rec.start_position().side]
    except XoboError as exc:
        raise GameRecordError("not a record of %s: %s" % (game, clip(exc, 200))) from None
    # the parameters as the game writes them (a record that leaves out a default gets it),
    # from its header written without the moves: they change no parameter, and writing
    # them replays the game once more, each move checked by the rules (a café host reads a
    # hundred boards' records at their every move: that replay was a fifth of its work)
    head = copy.copy(rec)
    head.moves = []
    tags = []
    start = None
    board = {}
    for name, value in header_tags(mod.format_record(head)):
        if name == POSITION_TAG:
            start = value
        elif name in BOARD_TAGS:
            board[name] = value
        elif name not in DERIVED_TAGS:
            tags.append((name, value))
    try:
        texts, pos = _replayed(mod, rec, (game, tuple(tags), start))
    except XoboError as exc:
        raise GameRecordError("not a record of %s: %s" % (game, clip(exc, 200))) from None
    finished = pos.is_terminal()
    result = _result_of(mod, rec) if finished else "*"
    ending = ""
    if not finished and resigned(rec.tags):  # an end no move shows: the Result tag's winner
        ending = board.get(TERMINATION_TAG, "")
        finished = True
        result = dict(header_tags(text)).get("Result", "*")
    return ReadRecord(tags, start, texts, first, result, finished, board.get(GAMEID_TAG, ""),
                      ending)


# The texts of a record's moves and the position after them, kept for the records read last:
# a board's record read again after its next move is replayed from where the last reading
# ended, not from the start. (A café host reads a board's record at every move of it; the
# whole game replayed twice more at each reading, for its texts and its end, was two thirds
# of a reading and a fifth of the host's work in the matches' benchmark.) The record itself
# is still parsed whole by the game's own parser, every move checked by its rules.
REPLAYED_KEPT = 1024  # readings kept (a café's boards' last few each)
CONTINUED_MOST = 8  # a reading continues one at most this many moves shorter
_REPLAYED = collections.OrderedDict()  # (game, tags, start, moves) -> (texts, position)
_REPLAYED_LOCK = threading.Lock()  # (the café host reads its boards' records on many threads)


class _Continuing:
    """A record that starts at ``pos`` (a game's ``move_texts`` replays it from its
    ``start_position()``, which is ``pos`` itself: the replay moves it on)."""

    def __init__(self, pos, moves):
        self.pos = pos
        self.moves = moves

    def start_position(self):
        return self.pos


def _replayed(mod, rec, key):
    """(texts, position) of ``rec``'s moves: each move's text as the record writes it, and
    the position after the last, continuing the longest reading kept of the same game (its
    ``key``: the game, its parameters and its start) whose moves begin these."""
    moves = tuple(rec.moves)
    texts, pos, done = [], None, 0
    with _REPLAYED_LOCK:
        for k in range(len(moves), max(-1, len(moves) - CONTINUED_MOST - 1), -1):
            kept = _REPLAYED.get(key + (moves[:k],))
            if kept is not None:
                _REPLAYED.move_to_end(key + (moves[:k],))
                texts, pos, done = list(kept[0]), kept[1].clone(), k
                break
    if pos is None:
        pos = rec.start_position()
    rest = list(moves[done:])
    if rest:
        move_texts = getattr(mod, "move_texts", None)
        if move_texts is not None:
            texts += move_texts(_Continuing(pos, rest))
        else:
            for m in rest:
                texts.append(pos.move_text(m))
                pos.apply(m)
    with _REPLAYED_LOCK:
        _REPLAYED[key + (moves,)] = (tuple(texts), pos.clone())
        while len(_REPLAYED) > REPLAYED_KEPT:
            _REPLAYED.popitem(last=False)
    return texts, pos


@contextlib.contextmanager
def cleared_readings():
    """Within it, nothing read before is continued from (a record read from its start); the
    readings kept before are kept again after it."""
    with _REPLAYED_LOCK:
        kept = _REPLAYED.copy()
        _REPLAYED.clear()
    try:
        yield
    finally:
        with _REPLAYED_LOCK:
            _REPLAYED.clear()
            _REPLAYED.update(kept)


def _result_of(mod, rec):
    """The Result tag the game writes for ``rec`` (a finished game)."""
    update = getattr(rec, "update_result", None)
    if update is not None:
        update()
    for name, value in header_tags(mod.format_record(rec)):
        if name == "Result":
            return value
    return "*"


def write_record(game, tags, start, moves, extra_tags=(), ending=""):
    """The record of ``game`` with these parameter tags, start and move texts, in the game's
    own notation (its ``format_record``), every move replayed and checked first; the
    ``extra_tags`` (Date, Board) are added; ``ending``: a resignation's words (``ew
    ns-resigned``, as the board says them), which the Result and Termination tags then say
    (``xobo.recordtags.board_record``). GameRecordError names the move that is wrong."""
    mod = record_module(game)
    lines = ['[%s "%s"]' % (name, value) for name, value in tags]
    if start:
        lines.append('[%s "%s"]' % (POSITION_TAG, start))
    try:
        rec = mod.parse_record("\n".join(lines) + "\n")
    except XoboError as exc:
        raise GameRecordError("its parameters are not those of a game of %s: %s"
                              % (game, clip(exc, 200))) from None
    pos = rec.start_position()
    for k in range(len(moves)):
        text = moves[k]
        if len(text) > LONGEST_SHOWN:
            raise GameRecordError("move %d is %d characters long: no move of %s is"
                                  % (k + 1, len(text), game))
        try:
            m = pos.parse_move(text)
            pos.play(m)
        except XoboError as exc:
            raise GameRecordError("move %d (%s): %s" % (k + 1, clip(text), clip(exc, 200))) \
                from None
        rec.moves.append(m)
    for name, value in extra_tags:
        rec.tags.append((name, value))
    update = getattr(rec, "update_result", None)
    if update is not None:
        update()
    text = mod.format_record(rec)
    words = ending.split()
    if len(words) == 2 and words[1].endswith("-resigned") and not pos.is_terminal():
        from xobo import games

        lines = board_record(games.load(game), text, "", [words[1][:-len("-resigned")],
                                                          words[0]])
        text = "\n".join(lines)
    return text
