"""The rules CLI of every game (``xobo rules --game G COMMAND``), under CPython and the
MicroPython unix port alike: one ``main`` with the same commands and options for every game.

Commands (``POSITION`` in the game's notation, quoted or as its words; omitted: the start
position of the options' settings, but for ``legal``, which then reads one a line on stdin)::

    legal [OPTIONS] [POSITION]           the legal moves, sorted, on one line
    play [OPTIONS] [--position P] MOVE...  each move, the position after it and the result
    perft [OPTIONS] DEPTH [POSITION]     how many move sequences of DEPTH there are
    show [OPTIONS] [POSITION]            the position drawn, and what is going on
    result [OPTIONS] [POSITION]          the result: a player, draw, or * while it goes on
    hint [OPTIONS] [--level L] [--seed S] [--time-ms T] [POSITION]   the computer's move

OPTIONS are the game's settings (``SETTINGS`` of its package: ``--variant kv``, ``--size 6``,
``--first yellow``; a unique start of a name is enough, as with argparse). ``--help`` says all
of it for the game.

A game's ``cli.py`` is its hooks and one line (docs/games.md)::

    NAME = "tiny"
    MAX_PERFT_DEPTH = 9                 # a deeper perft would only hang
    def show_lines(pos): ...            # the drawing, a list of lines
    def main(argv):
        return rulescli.main(argv, globals())

Optional hooks: ``result_line(pos)`` (X: the corners), ``play(pos, words, print_move)`` (XoBo:
its Voina mark), ``listed_moves(pos, buf) -> n`` (the moves ``legal`` and ``perft`` count:
Brochs's without its question and resignation), ``MOVE_WORD`` (``"segment"``),
``LITERAL_WORDS`` (words that are moves, never options: Brochs's pass ``--``).

Host-only (never on the device), like the CLIs.
"""

import sys

from xobo.errors import XoboError
from xobo.games import part
from xobo.numbers import parse_uint

COMMANDS = ("legal", "play", "perft", "show", "result", "hint")
STDIN_PROMPT = ("legal: reading positions from stdin, one per line (a position as an argument "
                "answers at once); end with Ctrl-D")


# ----------------------------------------------------------------------------- the counts


def perft(pos, depth, moves=None, buffers=None):
    """The number of move sequences of length ``depth`` from ``pos`` (left as it was); a
    move that ends the game counts as one sequence and is not explored further.
    ``moves(pos, buf) -> n`` fills ``buf`` when a game counts fewer than ``legal_moves``."""
    if depth <= 0:
        return 1
    if buffers is None:
        buffers = [_buffer(pos) for _ in range(depth)]
    buf = buffers[depth - 1]
    n = moves(pos, buf) if moves is not None else pos.legal_moves(buf)
    if depth == 1:
        return n
    total = 0
    for i in range(n):
        pos.apply(buf[i])
        if pos.is_terminal():
            total += 1
        else:
            total += perft(pos, depth - 1, moves, buffers)
        pos.undo()
    return total


def _buffer(pos):
    import array

    return array.array("H", bytes(2 * pos.max_moves))


# ----------------------------------------------------------------------------- legal


def legal_line(pos, buf, moves=None):
    """The legal moves of ``pos`` in its notation, sorted, on one line; ``moves(pos, buf) -> n``
    fills ``buf`` when a game lists fewer than ``pos.legal_moves`` (Brochs: no buttons)."""
    n = moves(pos, buf) if moves is not None else pos.legal_moves(buf)
    names = [pos.move_text(buf[i]) for i in range(n)]
    names.sort()
    return " ".join(names)


def stdin_lines():
    """The lines of stdin as bytes: text decoding would stop at the first invalid byte."""
    stdin = getattr(sys.stdin, "buffer", sys.stdin)
    while True:
        line = stdin.readline()
        if not line:
            return
        if isinstance(line, str):
            line = line.encode()
        yield line


def cmd_legal(rest, parse, buf, moves=None):
    """``legal``: of the position the words ``rest`` make, or of each stdin line when there
    are none (``parse(text)`` makes a position or raises XoboError); the exit status.
    ``moves``: as for ``legal_line``."""
    if rest:
        print(legal_line(parse(" ".join(rest)), buf, moves))
        return 0
    isatty = getattr(sys.stdin, "isatty", None)
    if isatty is not None and isatty():
        # at a terminal a silent wait looks like a hang: say what is expected (stderr, so a
        # pipe's output stays one line per input line)
        sys.stderr.write(STDIN_PROMPT + "\n")
    status = 0
    lineno = 0
    for raw in stdin_lines():
        lineno += 1
        try:
            line = raw.decode().strip()
        except UnicodeError:  # one bad line must not end the others (nor be a traceback)
            print("error: line %d is not UTF-8 text" % lineno)
            status = 1
            continue
        if not line:
            print("error: empty line, expected a position")  # one output line per input line
            status = 1
            continue
        try:
            print(legal_line(parse(line), buf, moves))
        except XoboError as exc:
            print("error: %s" % exc)
            status = 1
    return status


# ----------------------------------------------------------------------------- the game


def result_word(game, pos):
    """The result as ``play`` and ``result`` say it: the winner's name (the game's
    ``PLAYER_NAMES``), ``draw`` at an end without one, ``*`` while the game goes on."""
    w = pos.winner()
    if w >= 0:
        return game.PLAYER_NAMES[w]
    return "draw" if pos.is_terminal() else "*"


def _range(lo_hi):
    lo, hi = lo_hi
    return "%d or %d" % (lo, hi) if hi == lo + 1 else "%d-%d" % (lo, hi)


def _setting_help(key, choices):
    if isinstance(choices[0], int):
        return "--%s %s" % (key.replace("_", "-"), _range(choices).replace(" or ", "|"))
    return "--%s %s" % (key.replace("_", "-"), "|".join(choices))


def _one_of(choices):
    if len(choices) == 1:
        return choices[0]
    return "%s or %s" % (", ".join(choices[:-1]), choices[-1])


class Command:
    """One command line of game ``game``: its settings from the options, its words."""

    def __init__(self, game, hooks, args, extra=()):
        self.game = game
        self.hooks = hooks
        self.given = {}  # the settings the options name (a position's own fields win)
        self.extra = {}  # the command's own options (``extra``): --position, --level...
        self.words = []
        literal = hooks.get("LITERAL_WORDS", ())
        keys = list(game.SETTINGS) + list(extra)
        i = 0
        while i < len(args):
            a = args[i]
            i += 1
            if a in literal or not a.startswith("--") or a == "--":
                if a == "--" and a not in literal:  # the end of the options
                    self.words += args[i:]
                    break
                self.words.append(a)
                continue
            name, eq, value = a[2:].partition("=")
            key = self._key(name.replace("-", "_"), keys)
            if not eq:
                if i >= len(args):
                    raise XoboError("%s needs a value" % a)
                value = args[i]
                i += 1
            if key in extra:
                self.extra[key] = value
            else:
                self.given[key] = self._value(key, value)

    def _key(self, name, keys):
        if name in keys:
            return name
        found = [k for k in keys if k.startswith(name)]
        if len(found) == 1 and name:
            return found[0]
        raise XoboError("unknown option '--%s' (options: %s)" % (
            name.replace("_", "-"), ", ".join("--" + k.replace("_", "-") for k in keys)))

    def _value(self, key, text):
        choices = self.game.SETTINGS[key]
        option = "--" + key.replace("_", "-")
        if isinstance(choices[0], int):
            v = parse_uint(text, 3)
            if v < choices[0] or v > choices[1]:
                raise XoboError("%s must be a whole number %s, not '%s'"
                                % (option, _range(choices), text))
            return v
        if text not in choices:
            raise XoboError("%s must be %s, not '%s'" % (option, _one_of(choices), text))
        return text

    def settings(self):
        s = dict(self.game.DEFAULTS)
        s.update(self.given)
        return s

    def parse(self, text):
        """A position from ``text`` (the options it depends on: only those given)."""
        return self.game.parse_position(text, self.given)

    def position(self, words=None):
        """The position of the words (``self.words``), or the start position without any."""
        words = self.words if words is None else words
        if words:
            return self.parse(" ".join(words))
        return self.game.new_position(self.settings())

    def buffer(self):
        return part(self.game, "engine").new_move_buffer()


def cmd_play(cmd):
    pos = cmd.parse(cmd.extra["position"]) if cmd.extra.get("position") else cmd.position([])
    if not cmd.words:
        raise XoboError("play needs at least one %s" % cmd.hooks.get("MOVE_WORD", "move"))

    def print_move(shown):
        print("%s\t%s\t%s" % (shown, pos.to_string(), result_word(cmd.game, pos)))

    own = cmd.hooks.get("play")
    if own is not None:
        own(pos, cmd.words, print_move)
        return 0
    word = cmd.hooks.get("MOVE_WORD", "move")
    k = 0
    for text in cmd.words:
        k += 1
        if pos.is_terminal():
            raise XoboError("%s %d (%s): the game is over" % (word, k, text))
        try:
            m = pos.parse_move(text)
            shown = pos.move_text(m)
            pos.play(m)  # checked: a notation may name a move that is not legal here
        except XoboError as exc:
            why = str(exc)
            raise XoboError("%s %d%s: %s" % (word, k, "" if text in why else " (%s)" % text,
                                               why))
        print_move(shown)
    return 0


def cmd_perft(cmd):
    most = cmd.hooks.get("MAX_PERFT_DEPTH", 6)
    if not cmd.words:
        raise XoboError("perft needs a depth, a whole number 0-%d" % most)
    depth = parse_uint(cmd.words[0], 3)
    if depth < 0 or depth > most:
        raise XoboError("perft depth must be a whole number 0-%d, not '%s'"
                        % (most, cmd.words[0]))
    pos = cmd.position(cmd.words[1:])
    print(perft(pos, depth, cmd.hooks.get("listed_moves")))
    return 0


def cmd_show(cmd):
    for line in cmd.hooks["show_lines"](cmd.position()):
        print(line)
    return 0


def cmd_result(cmd):
    pos = cmd.position()
    line = cmd.hooks.get("result_line")
    print(line(pos) if line is not None else result_word(cmd.game, pos))
    return 0


def cmd_hint(cmd):
    level = cmd.extra.get("level", cmd.game.DEFAULT_LEVEL)
    if level not in cmd.game.LEVELS:
        raise XoboError("unknown level '%s' for %s (levels: %s)"
                        % (level, cmd.game.NAME, ", ".join(cmd.game.LEVELS)))
    kwargs = {"level": level, "seed": _whole("--seed", cmd.extra.get("seed", "0"))}
    if "time_ms" in cmd.extra:
        kwargs["time_ms"] = _whole("--time-ms", cmd.extra["time_ms"])
    pos = cmd.position()
    if pos.is_terminal():
        raise XoboError("the game is over (%s): no move to suggest" % result_word(cmd.game, pos))
    m = part(cmd.game, "computer").choose_move(pos, **kwargs)
    print(pos.move_text(m))
    return 0


def _whole(option, text):
    """A whole number option, the same words as the xobo command's (xobo_host.cli.argtypes)."""
    v = parse_uint(text, 9)
    if v < 0:
        digits = text and all("0" <= c <= "9" for c in text)
        if digits:  # more digits than a number the board reads: too large, not "no number"
            raise XoboError("%s must be a whole number 0-999999999, not '%s'" % (option, text))
        raise XoboError("%s: '%s' is not a whole number (digits 0-9)" % (option, text))
    return v


def usage(game, hooks):
    """The help of game ``game``'s rules CLI: its commands, options and levels."""
    word = hooks.get("MOVE_WORD", "move")
    rows = (
        ("legal [POSITION]", "the legal moves (omitted: one position a stdin line)"),
        ("play [--position P] %s..." % word.upper(),
         "each %s, the position after it, the result" % word),
        ("perft DEPTH [POSITION]",
         "the number of sequences of DEPTH (0-%d)" % hooks.get("MAX_PERFT_DEPTH", 6)),
        ("show [POSITION]", "the position drawn"),
        ("result [POSITION]",
         "the result: %s, draw or * while it goes on" % _one_of(game.PLAYER_NAMES)),
        ("hint [--level L] [--seed S]", "the computer's move (levels: %s; default %s;"
         " --time-ms T bounds it)" % (", ".join(game.LEVELS), game.DEFAULT_LEVEL)),
    )
    lines = ["usage: xobo rules --game %s COMMAND [OPTIONS] ...  (the rules of %s)"
             % (game.NAME, game.TITLE),
             "commands (POSITION: the game's notation; omitted: the start position):"]
    for command, what in rows:
        lines.append("  %-30s %s" % (command, what))
    lines.append("options (the game's settings, defaults %s):" % " ".join(
        "%s=%s" % (k, game.DEFAULTS[k]) for k in game.SETTINGS))
    lines.append("  " + " ".join("[%s]" % _setting_help(k, game.SETTINGS[k])
                                 for k in game.SETTINGS))
    return "\n".join(lines)


_EXTRA = {"play": ("position",), "hint": ("level", "seed", "time_ms")}
_RUN = {"legal": None, "play": cmd_play, "perft": cmd_perft, "show": cmd_show,
        "result": cmd_result, "hint": cmd_hint}


def main(argv, hooks):
    """Run the rules command ``argv`` of the game whose cli module's globals are ``hooks``
    (its ``NAME`` and hooks, above); the exit status (2 and one ``error:`` line for bad
    input)."""
    from xobo.games import load

    game = load(hooks["NAME"])
    if argv and argv[0] in ("-h", "--help", "help"):
        print(usage(game, hooks))
        return 0
    if not argv or argv[0] not in COMMANDS:
        sys.stderr.write("error: %s (commands: %s; --help says more)\n" % (
            "unknown rules command '%s'" % argv[0] if argv else "no rules command",
            ", ".join(COMMANDS)))
        return 2
    try:
        if "-h" in argv[1:] or "--help" in argv[1:]:
            print(usage(game, hooks))
            return 0
        cmd = Command(game, hooks, argv[1:], _EXTRA.get(argv[0], ()))
        if argv[0] == "legal":
            return cmd_legal(cmd.words, cmd.parse, cmd.buffer(), hooks.get("listed_moves"))
        return _RUN[argv[0]](cmd)
    except XoboError as exc:
        sys.stderr.write("error: %s\n" % exc)
        return 2
