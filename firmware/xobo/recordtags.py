"""What every game's records share: PGN-style ``[Name "value"]`` tag lines, then the moves.

One reader for the record modules of every game (docs/games.md, a game's ``records`` part): it
splits a record's text into its tags and its move words, each with its line number, and says
what is wrong with a tag line. Each game then reads the values of its own tags and its move words;
other tags (names, date, board) are kept as they are, in order (``TaggedRecord.tags``).

Usage::

    >>> from xobo.recordtags import TaggedRecord, read_record, tag_lines
    >>> from xobo.games import load
    >>> game = load("tiny")
    >>> pos = game.new_position(game.DEFAULTS)
    >>> for k in range(2): pos.apply(pos.legal_actions()[0])
    >>> text = game.record_text(pos)
    >>> tags, words = read_record(text, ("Game", "First", "Result"), (";",))
    >>> # RecordError for a bad tag line, a repeated tag, a tag after the moves
    >>> for name, value, lineno in tags: print(name, value, lineno)
    Game Three in a row 1
    First x 2
    Result * 3
    >>> for word, lineno in words: print(word, lineno)
    1. 5
    a1 5
    b1 5

Imported with a game's record module only (serial ``record``, the host's games database),
never at boot.
"""

from xobo.errors import RecordError


def read_tag(line, lineno):
    """``(name, value)`` of the tag line ``line`` (stripped, starting with ``[``)."""
    if line[-1] != "]":
        raise RecordError("line %d: a tag line ends with ']': %s" % (lineno, line))
    body = line[1:-1].strip()
    sp = body.find(" ")
    if sp <= 0:
        raise RecordError('line %d: a tag is [Name "value"], got %s' % (lineno, line))
    name = body[:sp]
    value = body[sp:].strip()
    if len(value) < 2 or value[0] != '"' or value[-1] != '"':
        raise RecordError('line %d: the value of tag %s must be in double quotes, like'
                          ' [%s "..."]' % (lineno, name, name))
    return name, value[1:-1]


def read_record(text, known=(), apart=()):
    """``(tags, words)`` of a record's text: ``tags`` the ``(name, value, lineno)`` of its tag
    lines in order, ``words`` the ``(word, lineno)`` of its moves, split at spaces and around
    each string of ``apart`` (``";"``: a pair's separator may touch a move). RecordError when a
    tag line is malformed, comes after the moves, or repeats a tag of ``known``."""
    tags = []
    words = []
    seen = []
    lineno = 0
    for raw in text.split("\n"):
        lineno += 1
        line = raw.strip()
        if not line:
            continue
        if line[0] != "[":
            for s in apart:
                line = line.replace(s, " " + s + " ")
            for w in line.split():
                words.append((w, lineno))
            continue
        if words:
            raise RecordError("line %d: tag lines must come before the moves" % lineno)
        name, value = read_tag(line, lineno)
        if name in known:
            if name in seen:
                raise RecordError("line %d: a second %s tag" % (lineno, name))
            seen.append(name)
        tags.append((name, value, lineno))
    return tags, words


def tag_lines(tags, known=()):
    """The ``[Name "value"]`` lines of ``tags`` (``(name, value)`` pairs), but those of
    ``known`` (the tags a game writes itself, from its settings and its final position)."""
    out = []
    for name, value in tags:
        if name not in known:
            out.append('[%s "%s"]' % (name, value))
    return out


class TaggedRecord:
    """What every game's ``GameRecord`` has: ``moves`` (ints), ``tags`` (the other tags, in
    order: ``(name, value)``); a subclass gives ``start_position()``."""

    def final_position(self):
        pos = self.start_position()
        for m in self.moves:
            pos.apply(m)
        return pos

    def tag(self, name, default=None):
        for k, v in self.tags:
            if k == name:
                return v
        return default

    def set_tag(self, name, value):
        """Set tag ``name`` (replacing its value where it is, else at the end)."""
        for i in range(len(self.tags)):
            if self.tags[i][0] == name:
                self.tags[i] = (name, value)
                return
        self.tags.append((name, value))


def board_record(game, text, gameid="", resigned=None):
    """The lines of ``text`` (a record of ``game``, its package, as its ``record_text``
    writes it) as the board says it (serial ``record``): with what only the board knows,
    after the game's own tags. ``gameid``: the game's id (``[GameId "9c1e07a2b4f0"]``,
    ``xobo.runtime.gameid``). ``resigned``: ``[PLAYER, WINNER|none]`` of a resignation, an end
    no move of the record shows: the Result tag then names the winner in the record's own
    words (the records part's ``WIN_RESULTS``; ``*`` when there is no single winner) and
    ``[Termination "ew ns-resigned"]`` says how the game ended, in the words of ``state``."""
    lines = text.split("\n")
    if resigned:
        winner = resigned[1]
        names = game.PLAYER_NAMES
        if winner in names:
            from xobo.games import part

            word = part(game, "records").WIN_RESULTS[names.index(winner)]
        else:
            word = "*"
    k = 0
    while lines[k][:1] == "[":
        if resigned and lines[k].startswith("[Result "):
            lines[k] = '[Result "%s"]' % word
        k += 1
    if resigned:
        lines.insert(k, '[Termination "%s %s-resigned"]' % (resigned[1], resigned[0]))
        k += 1
    if gameid:
        lines.insert(k, '[GameId "%s"]' % gameid)
    return lines


def app_record(app):
    """The lines of the record of the game ``app`` (``xobo.runtime.app.App``) plays, as
    the board says it (``board_record``: its id, its resignation)."""
    return board_record(app.game, app.game.record_text(app.pos), app.gameid, app.resigned)


def resigned(tags):
    """The player who resigned, as a record's ``[Termination "ew ns-resigned"]`` tag says
    (``board_record``), or '' when it says no resignation: ``tags`` are ``(name, value)``."""
    for name, value in tags:
        if name == "Termination" and value.endswith("-resigned") and " " in value:
            return value[value.index(" ") + 1:-len("-resigned")]
    return ""
