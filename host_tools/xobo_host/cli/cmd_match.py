"""``xobo match``: play AI levels of any game against each other and report the score (the
command line; the three engines are xobo_host/bench/matchplay/: ``pairs``, ``lineups``,
``yardstick``).

Two levels ``--a`` and ``--b`` of a two-player game (the first game of ``xobo.games.GAMES``
unless ``--game`` names another): A plays the first seat in even games and the second in odd
ones; game ``i`` uses seed ``SEED + i`` for both players, so a match replays exactly. A game
that reaches the move limit is reported unfinished (XoBo's E5), a game that ends without a
winner drawn (the test game's TE2); both count half a point in the Elo estimate.

Usage::

    xobo match --a greedy --b random --games 4 --seed 1

    >>> from xobo_host.cli.main import main
    >>> main(["match", "--a", "greedy", "--b", "random", "--games", "4", "--seed", "1",
    ...       "--workers", "1"])              # the same match, its games in order
    game 0 (greedy as ns): greedy after 15 moves [1-0-0]
    game 1 (greedy as ew): greedy after 16 moves [2-0-0]
    game 2 (greedy as ns): greedy after 15 moves [3-0-0]
    game 3 (greedy as ew): greedy after 16 moves [4-0-0]
    greedy 4 wins, 0 losses, 0 unfinished; Elo +338 ± 166
    0

Otherwise (``--levels``, three players, or no ``--a`` and ``--b``) the game's levels (``--levels``,
or ``--a`` and ``--b``, or all the game's levels) play in every line-up of the seats that holds
at least two different levels (for 3 players and 2 levels: aab, aba, baa, abb, bab, bba), game
``i`` the line-up ``i`` modulo their number, with seed ``SEED + i``. It reports each level's wins
per seat played (a fair share is 1 / players) and, for each pair of levels, who won the games
they met in::

    xobo match --game x --levels random,greedy --games 60
    ...
    greedy: 46 wins in 90 seats (0.51 a seat, fair 0.33)
    random: 14 wins in 90 seats (0.16 a seat, fair 0.33)
    greedy vs random: 60 games, greedy won 46, random 14, unfinished 0

Any game, one level against a yardstick (``--opponent``): plain UCT with N random playouts a
move (``uct:N``, xobo_host/bench/uct.py) or another level in every other seat, the level's seat
rotating (game ``i``: seat ``i`` modulo the players); its win share with a 95% Wilson
interval::

    xobo match --game xobo --a pico --opponent uct:300 --games 6 --seed 1 --workers 1
    ...
    pico vs uct:300: 6 wins in 6 games, 100% (95% CI 61-100%), fair 50%; 0 losses, 0 drawn or
    unfinished; 19.5 ms a move, median 14.8 (CPython)

``--record FILE`` writes each game's moves; ``--reuse FILE`` plays such a record's opponent
replies again while a game follows it (the opponent's choice depends on the moves so far and
the seed only: UCT is seeded per move, a level has a node budget), so a changed level is
measured on the same games for the cost of the games' new parts only.
"""

import sys

from xobo_host.bench.matchplay.common import first_game, module_of
from xobo_host.bench.matchplay.lineups import format_game_tally, run_game_match
from xobo_host.bench.matchplay.pairs import format_result, run_match
from xobo_host.bench.matchplay.yardstick import format_opponent_result, run_opponent_match
from xobo_host.cli import argtypes
from xobo_host.cli.argtypes import positive, whole_number


def register(subparsers):
    p = subparsers.add_parser(
        "match",
        help="play two AI levels against each other",
        description="Play N games between AI levels A and B (colours alternate) and print the"
        " score and Elo difference of A.",
    )
    p.add_argument("--game", type=argtypes.game, default=None,
                   help="the game (default: the first, %s)" % first_game())
    p.add_argument("--a", help="level of player A (the game's LEVELS: xobo rules --game G"
                   " --help)")
    p.add_argument("--b", help="level of player B")
    p.add_argument("--levels", help="the levels, comma-separated, in every line-up of the seats"
                   " (default: --a and --b, or all the game's levels)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="a game setting (--set size=6)")
    p.add_argument("--games", type=positive, default=10, help="number of games (default 10)")
    p.add_argument("--seed", type=whole_number, default=0, help="seed of game 0 (default 0)")
    p.add_argument("--variant", help="the game's variant setting: --set variant=V")
    p.add_argument(
        "--max-moves", type=positive, default=200, help="move limit; then unfinished (E5)"
    )
    p.add_argument("--workers", type=positive, default=2, help="processes (default 2)")
    p.add_argument("--opponent", metavar="SPEC",
                   help="play level --a (default: the game's default level) in one seat, rotated,"
                   " against SPEC in every other seat: uct:N (plain UCT, N playouts a move) or"
                   " a level; prints --a's win share with a 95%% (Wilson) interval")
    p.add_argument("--time-ms", type=positive, default=None, help="wall-time cap per move")
    p.add_argument("--record", metavar="FILE",
                   help="with --opponent: write every game's moves to FILE (JSON lines)")
    p.add_argument("--reuse", metavar="FILE",
                   help="with --opponent: a --record file of the same opponent, game, settings,"
                   " seeds and move limit; while a game follows its recorded moves the"
                   " opponent's recorded reply is played without searching (it is the reply"
                   " it would give: its choice depends on the moves so far and the seed only)")
    p.add_argument("--quiet", action="store_true", help="only the result line")
    p.set_defaults(func=run)


def run_other_game(args):
    from xobo.games import load

    progress = None if args.quiet else (lambda line: print(line, flush=True))
    try:
        try:
            game = load(args.game)
        except ImportError:
            raise ValueError("game '%s' is not installed" % args.game) from None
        if args.levels:
            levels = [lv for lv in args.levels.split(",") if lv]
        elif args.a or args.b:
            if not (args.a and args.b):
                raise ValueError("give both --a and --b (or --levels)")
            levels = [args.a, args.b]
        else:
            levels = list(module_of(game, "ai").LEVELS)
        tally = run_game_match(args.game, levels, args.games, args.seed, args.set,
                               args.max_moves, args.workers, args.time_ms, progress)
    except (ValueError, ImportError) as exc:
        print("error: %s" % exc, file=sys.stderr)
        return 2
    for line in format_game_tally(tally, game.PLAYERS):
        print(line)
    return 0


def run(args):
    if args.game is None:
        args.game = first_game()
    if args.variant:
        args.set = list(args.set) + ["variant=" + args.variant]
    if args.opponent:
        return run_opponent(args)
    from xobo.games import load

    try:
        game = load(args.game)
    except (ValueError, ImportError) as exc:
        print("error: %s" % exc, file=sys.stderr)
        return 2
    if (args.a is None) != (args.b is None) and not args.levels:
        print("error: a match needs --a and --b (give both --a and --b, or --levels)",
              file=sys.stderr)
        return 2
    if game.PLAYERS != 2 or args.levels or not args.a:
        return run_other_game(args)
    progress = None if args.quiet else (lambda line: print(line, flush=True))
    try:
        w, l, u, d = run_match(args.a, args.b, args.games, args.seed, args.set, args.max_moves,
                               args.workers, args.time_ms, progress, args.game)
    except ValueError as exc:
        print("error: %s" % exc, file=sys.stderr)
        return 2
    print(format_result(args.a, w, l, u, d))
    return 0


def run_opponent(args):
    from xobo.games import load

    if args.levels or args.b:
        print("error: --opponent plays --a against it; --b and --levels do not apply",
              file=sys.stderr)
        return 2
    progress = None if args.quiet else (lambda line: print(line, flush=True))
    words = list(args.set)  # (--variant V is among them: run() added it)
    try:
        try:
            game = load(args.game)
        except ImportError:
            raise ValueError("game '%s' is not installed" % args.game) from None
        level = args.a or game.DEFAULT_LEVEL
        out = run_opponent_match(args.game, level, args.opponent, args.games, args.seed, words,
                                 args.max_moves, args.workers, args.time_ms, progress,
                                 args.record, args.reuse)
    except (ValueError, ImportError) as exc:
        print("error: %s" % exc, file=sys.stderr)
        return 2
    print(format_opponent_result(level, args.opponent, out, game.PLAYERS))
    return 0
