"""``xobo rules``: every game's rules engine from the command line, the same commands for each
(``legal play perft show result hint``, ``xobo.rulescli``).

``xobo rules [--game G] [--runtime cpython|micropython] COMMAND ...`` runs game G's rules CLI
(its ``cli`` part, docs/games.md; the first game, XoBo, without ``--game``) with
the other words as they are; with ``--runtime micropython`` (anywhere in the words) the same
answer is computed by the firmware's engine under the MicroPython unix port. ``xobo rules
--game G --help`` says that game's commands, options and levels.
"""

import argparse
import subprocess
import sys

from xobo.games import part

_AFTER_E5 = ("........./........./........./........./....1..../........./........./"
             "........./......... ew 35 0 0")
RULES_EPILOG = """examples:
  xobo rules legal '""" + _AFTER_E5 + """'
  printf '%s\\n' POSITION1 POSITION2 | xobo rules legal --variant kv
  xobo rules play e5 d4 e4
  xobo rules play --position 'POSITION' g6xf5
  xobo rules perft 3
  xobo rules perft 2 --runtime micropython
  xobo rules show                     (the start position)
  xobo rules --game x result 'POSITION'
  xobo rules --game tiny hint 'x.o/.x./... o'
  xobo rules --game chain-reaction --help
"""
RUNTIMES = ("cpython", "micropython")  # (xobo_host.cli.argtypes.RUNTIMES)


def general_help():
    from xobo import games

    names = games.available()
    return "\n".join((
        "usage: xobo rules [--game GAME] [--runtime cpython|micropython] COMMAND [OPTIONS] ...",
        "",
        "The rules engine of every game (%s; default %s), the same commands for each:"
        % (", ".join(names), games.GAMES[0]),
        "  legal   the legal moves of a position (or of each stdin line)",
        "  play    play moves: each move, the position after it and the result",
        "  perft   count the move sequences of a given length",
        "  show    draw a position (without one: the start position)",
        "  result  the result of a position: a player, draw, or * while the game goes on",
        "  hint    the move the computer suggests",
        "Positions are in each game's notation (docs/rules/); the OPTIONS are its settings.",
        "xobo rules --game GAME --help says a game's commands, options and levels.",
        "",
        RULES_EPILOG.rstrip()))


def _take(words, option):
    """(value or None, the other words) for ``--option V`` or ``--option=V`` anywhere."""
    rest = []
    value = None
    k = 0
    while k < len(words):
        w = words[k]
        if w == option:
            if k + 1 >= len(words):
                raise ValueError("%s needs %s" % (
                    option, "a game's name" if option == "--game" else "a value"))
            value = words[k + 1]
            k += 2
            continue
        if w.startswith(option + "="):
            value = w[len(option) + 1:]
        else:
            rest.append(w)
        k += 1
    return value, rest


def main(words):
    """``xobo rules WORDS``: the exit status (2 and one ``error:`` line for bad input)."""
    from xobo import games

    try:
        name, argv = _take(list(words), "--game")
        runtime, argv = _take(argv, "--runtime")
    except ValueError as exc:
        hint = " (xobo rules --game x ...)" if "--game" in str(exc) else ""
        sys.stderr.write("error: %s%s\n" % (exc, hint))
        return 2
    if name is None and (not argv or argv[0] in ("-h", "--help", "help")):
        print(general_help())
        return 0 if argv else 2
    name = name or games.GAMES[0]  # the board's first game
    try:
        game = games.load(name)
    except (ValueError, ImportError) as exc:
        sys.stderr.write("error: %s\n" % exc)
        return 2
    runtime = runtime or "cpython"
    if runtime not in RUNTIMES:
        from xobo_host.cli.argtypes import unknown

        sys.stderr.write("error: %s\n" % unknown("runtime", runtime, RUNTIMES))
        return 2
    if runtime == "cpython":
        return part(game, "cli").main(argv)
    from xobo_host.upy import micropython_command

    cmd, env = micropython_command(["-m", part(game, "cli").__name__] + argv)
    sys.stdout.flush()
    try:
        sys.stdin.fileno()
        stdin = sys.stdin
    except (AttributeError, OSError, ValueError):  # no real stdin (a test's capture)
        stdin = subprocess.DEVNULL
    proc = subprocess.run(cmd, env=env, stdin=stdin, capture_output=True, text=True)
    sys.stdout.write(proc.stdout)
    sys.stderr.write(proc.stderr)
    return proc.returncode


def register(sub):
    # `xobo rules ...` is run by main() above (xobo_host.cli.main hands it every word): this parser
    # only lists it in `xobo --help`
    rules = sub.add_parser(
        "rules", help="any game's rules: legal, play, perft, show, result, hint",
        description="The rules engine of every game (xobo rules --help says more).",
        add_help=False,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    rules.add_argument("words", nargs=argparse.REMAINDER)
    rules.set_defaults(func=lambda args: main(args.words))
    return rules
