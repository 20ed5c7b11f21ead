"""``xobo match``: play AI levels against each other and report the score and an Elo estimate.

A plays North-South in even games and East-West in odd ones; game ``i`` uses seed
``SEED + i`` for both players, so a match replays exactly. A game that reaches the move limit
is reported unfinished (E5) and counts half a point in the Elo estimate.

Usage::

    xobo match --a strong --b greedy --games 100 --seed 1
    ...
    strong 97 wins, 2 losses, 1 unfinished; Elo +600 ± 180
"""

import math
import sys

from xobo_host.argtypes import positive, whole_number

LEVEL_HELP = "random, greedy, beginner, pico or strong"


def register(subparsers):
    p = subparsers.add_parser(
        "match",
        help="play two AI levels against each other",
        description="Play N games between AI levels A and B (colours alternate) and print the"
        " score and Elo difference of A.",
    )
    p.add_argument("--a", required=True, help="level of player A: " + LEVEL_HELP)
    p.add_argument("--b", required=True, help="level of player B: " + LEVEL_HELP)
    p.add_argument("--games", type=positive, default=10, help="number of games (default 10)")
    p.add_argument("--seed", type=whole_number, default=0, help="seed of game 0 (default 0)")
    p.add_argument("--variant", default="xobo", choices=("xobo", "kv"))
    p.add_argument(
        "--max-moves", type=positive, default=200, help="move limit; then unfinished (E5)"
    )
    p.add_argument("--workers", type=positive, default=2, help="processes (default 2)")
    p.add_argument("--time-ms", type=positive, default=None, help="wall-time cap per move")
    p.add_argument("--quiet", action="store_true", help="only the result line")
    p.set_defaults(func=run)


def play_game(job):
    """Play one game; returns (index, winner level 'a'/'b'/None, moves, record text)."""
    index, level_a, level_b, seed, variant, max_moves, time_ms = job
    from xobo.games.xobo.ai import choose_move
    from xobo.games.xobo.rules.notation import format_move
    from xobo.games.xobo.rules.position import Position

    pos = Position(variant)
    a_side = index % 2  # A is NS (0) in even games
    moves = []
    while pos.winner() < 0 and pos.ply < max_moves:
        level = level_a if pos.side == a_side else level_b
        m = choose_move(pos, level=level, seed=seed, time_ms=time_ms)
        pos.apply(m)
        moves.append(format_move(m))
    w = pos.winner()
    if w < 0:
        result = None
    else:
        result = "a" if w == a_side else "b"
    return index, result, pos.ply, " ".join(moves)


def elo(wins, losses, unfinished):
    """(difference, 95% margin) in Elo from A's score; draws (unfinished) count half."""
    n = wins + losses + unfinished
    if n == 0:
        return 0, 0
    score = (wins + 0.5 * unfinished) / n
    var = (wins * (1 - score) ** 2 + losses * score**2 + unfinished * (0.5 - score) ** 2) / n
    se = math.sqrt(var / n)
    lo_clamp = 0.5 / n
    hi_clamp = 1 - lo_clamp

    def to_elo(p):
        p = min(max(p, lo_clamp), hi_clamp)
        return -400 * math.log10(1 / p - 1)

    d = to_elo(score)
    # Wilson interval when the score is at an extreme (no variance), else the normal one
    z = 1.96
    if var == 0:
        centre = (score + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        lo, hi = centre - half, centre + half
    else:
        lo, hi = score - z * se, score + z * se
    margin = (to_elo(hi) - to_elo(lo)) / 2
    return int(round(d)), int(round(margin))


def format_result(level_a, wins, losses, unfinished):
    d, margin = elo(wins, losses, unfinished)
    sign = "+" if d >= 0 else "-"
    return "%s %d wins, %d losses, %d unfinished; Elo %s%d \u00b1 %d" % (
        level_a,
        wins,
        losses,
        unfinished,
        sign,
        abs(d),
        margin,
    )


def run_match(level_a, level_b, games, seed=0, variant="xobo", max_moves=200, workers=2,
              time_ms=None, progress=None):
    """Play the match; returns (wins, losses, unfinished) for A. ``progress(line)`` gets one
    line per finished game."""
    from xobo.games.xobo.ai import LEVELS

    for lv in (level_a, level_b):
        if lv not in LEVELS:
            raise ValueError("unknown level '%s': use %s" % (lv, LEVEL_HELP))
    jobs = [(i, level_a, level_b, seed + i, variant, max_moves, time_ms) for i in range(games)]
    counts = [0, 0, 0]
    if workers > 1 and games > 1:
        import multiprocessing

        ctx = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
        with ctx.Pool(workers) as pool:
            results = pool.imap_unordered(play_game, jobs)
            _collect(results, counts, level_a, level_b, progress)
    else:
        _collect(map(play_game, jobs), counts, level_a, level_b, progress)
    return counts[0], counts[1], counts[2]


def _collect(results, counts, level_a, level_b, progress):
    done = 0
    for index, result, plies, _moves in results:
        done += 1
        if result == "a":
            counts[0] += 1
            who = level_a
        elif result == "b":
            counts[1] += 1
            who = level_b
        else:
            counts[2] += 1
            who = "unfinished"
        if progress:
            progress(
                "game %d (%s as %s): %s after %d moves [%d-%d-%d]"
                % (index, level_a, "NS" if index % 2 == 0 else "EW", who, plies, counts[0],
                   counts[1], counts[2])
            )


def run(args):
    progress = None if args.quiet else (lambda line: print(line, flush=True))
    try:
        w, l, u = run_match(args.a, args.b, args.games, args.seed, args.variant, args.max_moves,
                            args.workers, args.time_ms, progress)
    except ValueError as exc:
        print("error: %s" % exc, file=sys.stderr)
        return 2
    print(format_result(args.a, w, l, u))
    return 0
