"""``xobo rules``: the rules engine from the command line (legal, play, perft, show).

Every subcommand takes ``--runtime cpython|micropython``: with ``micropython`` the same
answer is computed by the firmware's engine under the MicroPython unix port.

``xobo rules --game G SUBCOMMAND ...`` runs game G's own rules CLI (its package's
``cli_module``, docs/games.md) with the rest of the words as they are: ``--game x result
POSITION``, ``--game chain-reaction perft 3``; ``--runtime micropython`` anywhere in them runs
it under the MicroPython unix port. Without ``--game`` (or with ``--game xobo``) it is XoBo's.
"""

import argparse
import importlib
import subprocess
import sys

from xobo_host.argtypes import whole_number

_AFTER_E5 = ("........./........./........./........./....1..../........./........./"
             "........./......... ew 35 0 0")
RULES_EPILOG = """examples:
  xobo rules legal '""" + _AFTER_E5 + """'
  printf '%s\\n' POSITION1 POSITION2 | xobo rules legal --variant kv
  xobo rules play e5 d4 e4
  xobo rules play --position 'POSITION' g6xf5
  xobo rules perft 3
  xobo rules perft 2 --runtime micropython
  xobo rules show 'POSITION'
"""


def other_game(words):
    """Run ``--game G ...`` (the words after ``rules``) with game G's rules CLI; None when
    the words are XoBo's (no --game, or --game xobo)."""
    if not words or not (words[0] == "--game" or words[0].startswith("--game=")):
        return None
    if words[0] == "--game":
        if len(words) < 2:
            sys.stderr.write("error: --game needs a game's name (xobo rules --game x ...)\n")
            return 2
        name, rest = words[1], words[2:]
    else:
        name, rest = words[0][len("--game="):], words[1:]
    from xobo import games

    try:
        game = games.load(name)
    except (ValueError, ImportError) as exc:
        sys.stderr.write("error: %s\n" % exc)
        return 2
    if name == "xobo":
        return None
    runtime = "cpython"
    argv = []
    k = 0
    while k < len(rest):
        w = rest[k]
        if w == "--runtime" and k + 1 < len(rest):
            runtime = rest[k + 1]
            k += 2
            continue
        if w.startswith("--runtime="):
            runtime = w[len("--runtime="):]
        else:
            argv.append(w)
        k += 1
    if runtime not in ("cpython", "micropython"):
        sys.stderr.write("error: --runtime must be cpython or micropython, not '%s'\n"
                         % runtime)
        return 2
    if not argv or argv[0] in ("-h", "--help"):
        print("usage: xobo rules --game %s SUBCOMMAND ... (the subcommands of %s's rules CLI, "
              "%s)" % (name, game.TITLE, game.cli_module))
        argv = ["--help"]
    if runtime == "cpython":
        return importlib.import_module(game.cli_module).main(argv)
    from xobo_host.upy import micropython_command

    cmd, env = micropython_command(["-m", game.cli_module] + argv)
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


def _common(p):
    p.add_argument("--variant", choices=("xobo", "kv"), default="xobo",
                   help="rules variant (default xobo)")
    p.add_argument("--runtime", choices=("cpython", "micropython"), default="cpython",
                   help="which interpreter runs the engine (default cpython)")


def register(sub):
    rules = sub.add_parser(
        "rules", help="legal moves, play, perft and show positions",
        description="The XoBo rules engine. Positions are N3 strings (quote them).",
        epilog=RULES_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    rsub = rules.add_subparsers(dest="rules_command", metavar="SUBCOMMAND")
    rsub.required = True

    p = rsub.add_parser("legal", help="legal moves of a position (or of each stdin line)")
    _common(p)
    p.add_argument("position", nargs="*", help="N3 position; omitted: read one per line")
    p.set_defaults(func=_run, rules_args=lambda a: ["legal"] + _pos(a.position))

    p = rsub.add_parser("play", help="play moves, print each resulting position and result")
    _common(p)
    p.add_argument("--position", help="start position (default: the empty board)")
    p.add_argument("moves", nargs="+", metavar="MOVE", help="moves in N1 notation")
    p.set_defaults(func=_run, rules_args=lambda a: ["play"]
                   + (["--position", a.position] if a.position else []) + a.moves)

    p = rsub.add_parser("perft", help="count move sequences of a given length")
    _common(p)
    # the engine checks the depth (ASCII digits, 0-8) so both runtimes give the same error
    p.add_argument("depth", help="how many plies deep, 0-8")
    p.add_argument("position", nargs="*", help="N3 position (default: the start)")
    p.set_defaults(func=_run, rules_args=lambda a: ["perft", a.depth] + _pos(a.position))

    p = rsub.add_parser("show", help="draw a position in the terminal")
    _common(p)
    p.add_argument("position", nargs="+", help="N3 position")
    p.set_defaults(func=_run, rules_args=lambda a: ["show"] + _pos(a.position))

    # hint: the AI's suggestion (issue 6; the code is firmware/xobo/games/xobo/ai/cli.py)
    p = rsub.add_parser("hint", help="the move the computer suggests for the side to move")
    _common(p)
    p.add_argument("--level", default="pico",
                   help="random, greedy, beginner, pico (default) or strong")
    p.add_argument("--seed", type=whole_number, default=0, help="seed (default 0)")
    p.add_argument("position", nargs="+", help="N3 position")
    p.set_defaults(func=_run, rules_module="xobo.games.xobo.ai.cli",
                   rules_args=lambda a: ["hint", "--level", a.level, "--seed", str(a.seed)]
                   + _pos(a.position))
    return rsub


def _pos(words):
    return [" ".join(words)] if words else []


STDIN_PROMPT = ("xobo rules legal: reading N3 positions from stdin, one per line (a position "
                "as an argument answers at once); end with Ctrl-D")


def _run(args):
    if args.rules_command == "legal" and not args.position and sys.stdin.isatty():
        # at a terminal a silent wait looks like a hang: say what is expected (stderr, so a
        # pipe's output stays one line per input line)
        print(STDIN_PROMPT, file=sys.stderr, flush=True)
    argv = args.rules_args(args)
    argv = argv[:1] + ["--variant", args.variant] + argv[1:]
    module = getattr(args, "rules_module", "xobo.games.xobo.rules.cli")
    if args.runtime == "cpython":
        return importlib.import_module(module).main(argv)
    from xobo_host.upy import micropython_command

    cmd, env = micropython_command(["-m", module] + argv)
    sys.stdout.flush()
    proc = subprocess.run(cmd, env=env, stdin=sys.stdin)
    return proc.returncode
