"""The strength ladder of ``make bench``: every level of every game against plain UCT.

For each game, each of its computer's levels plays ``xobo match --opponent uct:N`` games
against the project's UCT player (host_tools/xobo_host/bench/uct.py) at a few rungs N, its seat
rotated; each row gives its win share with the 95% (Wilson) interval. A second table times
each level's moves on the MicroPython unix port (the interpreter of the device, on the
desktop): one game of the level against itself per game, the median and the slowest move,
next to the device's budget (the board bounds a computer move to 1.8 s on the Pico, which is
about 35-80 times slower than the unix port: the emulated-Pico figures are in docs/ai.md).

The rungs and game counts are small so that the bench stays within about fifteen minutes
on two busy cores (twice as many games took 30 minutes under a load of 10-14); the larger
runs quoted in docs/ai.md use the same code with more games:
``python -m xobo_host.bench.ladder --game x --games 60 --rungs 1000 --levels search``.

Usage::

    python -m xobo_host.bench.ladder                  # the whole ladder (make bench)
    python -m xobo_host.bench.ladder --game tiny      # one game
"""

import argparse
import subprocess
import sys

from xobo.games import part

# each game's rungs come from its host module (``LADDER``, xobo.hostkit): (settings words, max
# plies, rungs (UCT playouts a move), games a rung); a game without one gets these
DEFAULT_LADDER = ((), 200, (30,), 2)
PLY_LIMIT_TIMING = 60  # plies of the timing game (enough to reach the middle game)
BUDGET = "1.8 s (board bound)"

_TIMING = """
import sys
from xobo.compat import ticks_diff, ticks_us
from xobo.games import load
name = sys.argv[1]
game = load(name)
ai = part(game, "computer")
for level in ai.LEVELS:
    pos = game.new_position(dict(game.DEFAULTS))
    times = []
    while not pos.is_terminal() and pos.ply < %d:
        t0 = ticks_us()
        m = ai.choose_move(pos, level, seed=1)
        times.append(ticks_diff(ticks_us(), t0))
        pos.apply(m)
    times.sort()
    print("TIME", level, times[len(times) // 2], times[-1], len(times))
""" % PLY_LIMIT_TIMING


def unix_port_times(name):
    """{level: (median us, slowest us, moves)} of one self-play game under the unix port."""
    import tempfile
    from pathlib import Path

    from xobo_host.upy import micropython_command

    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "ladder_timing.py"
        script.write_text(_TIMING)
        cmd, env = micropython_command([str(script), name], heapsize="1M")
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=1800)
    if proc.returncode != 0:
        raise RuntimeError("ladder timing of %s failed:\n%s" % (name, proc.stderr[-3000:]))
    out = {}
    for line in proc.stdout.splitlines():
        if line.startswith("TIME "):
            _, level, median, slowest, moves = line.split()
            out[level] = (int(median), int(slowest), int(moves))
    return out


def strength_rows(name, levels=None, rungs=None, games=None, workers=2, progress=None):
    """[(level, rung, result dict)] of the game's levels against UCT at each rung."""
    from xobo import hostkit
    from xobo.games import load
    from xobo_host.bench.matchplay.yardstick import run_opponent_match

    words, max_plies, default_rungs, default_games = hostkit.of(name).LADDER or DEFAULT_LADDER
    ai = part(load(name), "computer")
    rows = []
    for level in levels or ai.LEVELS:
        for rung in rungs or default_rungs:
            out = run_opponent_match(name, level, "uct:%d" % rung, games or default_games,
                                     seed=1, settings_words=words, max_moves=max_plies,
                                     workers=workers)
            rows.append((level, rung, out))
            if progress:
                progress(name, level, rung, out)
    return rows


def format_strength(name, players, rows):
    from xobo_host.bench.uct import wilson

    lines = []
    for level, rung, out in rows:
        n = out["games"]
        lo, hi = wilson(out["wins"], n)
        score = (out["wins"] + 0.5 * out["unfinished"]) / max(1, n)
        lines.append("%-15s %-9s %10s %4d %4d %4d %4d %6.0f%% %5.0f-%3.0f%% %6.0f%% %6.0f%% %9.1f"
                     % (name, level, "uct:%d" % rung, n, out["wins"], out["losses"],
                        out["unfinished"], 100.0 * out["wins"] / max(1, n), 100 * lo, 100 * hi,
                        100.0 / players, 100 * score,
                        1000 * out["seconds"] / max(1, out["moves"])))
    return lines


def record_strength(run, name, title, players, rows):
    """The strength rows' figures into ``run`` (benchresults.Run)."""
    from xobo_host.bench.uct import wilson

    for level, rung, out in rows:
        n = out["games"]
        lo, hi = wilson(out["wins"], n)
        key = "%s.%s.uct%d." % (name, level, rung)
        against = "%s, level %s against UCT with %d playouts a move (%d games)" % (
            title, level, rung, n)
        run.figure(key + "won", out["wins"], "of %d games" % n, against + ": games won")
        run.figure(key + "share", round(100.0 * out["wins"] / max(1, n)), "%",
                   against + ": share of games won (a fair share: %.0f%%)" % (100.0 / players))
        run.figure(key + "ci", "%.0f-%.0f" % (100 * lo, 100 * hi), "%",
                   against + ": 95% Wilson interval of that share")
        run.figure(key + "score", round(100 * (out["wins"] + 0.5 * out["unfinished"])
                                        / max(1, n)), "%",
                   against + ": score, a drawn or unfinished game counting half")


def main(games_list=None, levels=None, rungs=None, games=None, workers=2, emit=None,
         run=None):
    """The ladder's lines; ``emit(line)``, when given, also gets each strength row as soon as
    it is measured (the whole ladder takes minutes); ``run`` (a ``benchresults.Run``), when
    given, gets its figures."""
    from xobo.games import available, load

    names = games_list or available()
    lines = ["Strength ladder: each level against plain UCT (uct:N, N random playouts a move;"
             " its seat rotated, seed 1)",
             "%-15s %-9s %10s %4s %4s %4s %4s %7s %10s %7s %7s %9s" % (
                 "game", "level", "opponent", "n", "won", "lost", "drawn", "share", "95% CI",
                 "fair", "score", "CPy ms/mv"),
             "(share: games won, with its 95% Wilson interval; score: a drawn or unfinished"
             " game counts half)"]
    timing = ["", "Time a move on the MicroPython unix port (one self-play game of each level,"
              " %d plies at most; device budget %s)" % (PLY_LIMIT_TIMING, BUDGET),
              "%-15s %-9s %12s %12s %6s" % ("game", "level", "median ms", "slowest ms",
                                             "moves")]
    for name in names:
        game = load(name)
        def progress(name, level, rung, out, players=game.PLAYERS):
            if emit:
                emit(format_strength(name, players, [(level, rung, out)])[0])

        rows = strength_rows(name, levels, rungs, games, workers, progress)
        lines.extend(format_strength(name, game.PLAYERS, rows))
        if run is not None:
            record_strength(run, name, game.TITLE, game.PLAYERS, rows)
        for level, (median, slowest, moves) in unix_port_times(name).items():
            if levels and level not in levels:
                continue
            timing.append("%-15s %-9s %12.1f %12.1f %6d" % (name, level, median / 1000,
                                                            slowest / 1000, moves))
            if run is not None:
                at = "%s, level %s, one self-play game (%d moves), MicroPython unix port" % (
                    game.TITLE, level, moves)
                run.figure("%s.%s.median-move" % (name, level), round(median / 1000, 1), "ms",
                           at + ": the median move")
                run.figure("%s.%s.slowest-move" % (name, level), round(slowest / 1000, 1),
                           "ms", at + ": the slowest move")
    return lines + timing


def _cli(argv=None):
    from xobo_host.cli import argtypes
    from xobo_host.cli.argtypes import positive

    p = argparse.ArgumentParser(description="The strength ladder against plain UCT.")
    p.add_argument("--game", type=argtypes.game, action="append",
                   help="a game (default: every game)")
    p.add_argument("--levels", help="levels, comma-separated (default: all)")
    p.add_argument("--rungs", help="UCT playouts, comma-separated (default: the game's)")
    p.add_argument("--games", type=positive, help="games a rung (default: the game's)")
    p.add_argument("--workers", type=positive, default=2)
    a = p.parse_args(argv)
    levels = a.levels.split(",") if a.levels else None
    try:
        rungs = [positive(r) for r in a.rungs.split(",")] if a.rungs else None
    except argparse.ArgumentTypeError as exc:
        p.error("argument --rungs: %s" % exc)
    run = new_run(standard=not (a.game or levels or rungs or a.games))
    for line in main(a.game, levels, rungs, a.games, a.workers,
                     emit=lambda line: print("  measured: " + line, flush=True), run=run):
        print(line, flush=True)
    print("results: %s" % run.write())
    return 0


def new_run(standard=True):
    """A ``benchresults.Run`` of the ladder (standard: every game, level and rung)."""
    from xobo_host.bench import results as benchresults

    return benchresults.Run("ladder", "Strength ladder: every level of every game against "
                            "plain UCT; time a move on the MicroPython unix port",
                            command="python -m xobo_host.bench.ladder", standard=standard)


if __name__ == "__main__":
    sys.exit(_cli())
