"""The long strength matches: each level the docs rate against a fixed opponent, one results
file a match (bench ``match-NAME``, docs/figures.md). The matches are the games' own: each
game's host module lists them (``STRENGTH``, xobo.hostkit), named ``GAME-LEVEL-OPPONENT``.

These are the matches behind the strength figures of docs/ai.md, too long for ``make bench``
(XoBo's ``pico`` against UCT-20,000 plays 66 games of about 36 plies, UCT searching 20,000
playouts a move: hours on CPython, about half an hour on PyPy). Each runs as ``xobo match
--game GAME --a LEVEL --opponent OPPONENT --games N --seed S`` does (node budgets only, so a
match replays move for move on any machine and interpreter), and writes the level's wins,
losses and unfinished games, its share with the 95% Wilson interval, and its median time a
move (the interpreter's, under the machine's load).

Usage::

    python -m xobo_host.bench.strength --list                 # the matches
    python -m xobo_host.bench.strength xobo-pico-uct20000     # one match (its results file)
    pypy3 -m xobo_host.bench.strength xobo-pico-uct20000      # the same games, faster
    python -m xobo_host.bench.strength --all                  # every match, one after another
"""

import argparse
import statistics
import sys

from xobo_host.cli.argtypes import positive


def matches():
    """{match name: (game, level, opponent, games, seed, max plies, what it rates)} of every
    game's host module's ``STRENGTH`` (xobo.hostkit), in the games' order."""
    from xobo import games, hostkit

    out = {}
    for name in games.available():
        for level, opponent, n, seed, plies, rates in hostkit.of(name).STRENGTH:
            match = "%s-%s-%s" % (name, level, opponent.replace(":", ""))
            out[match] = (name, level, opponent, n, seed, plies, rates)
    return out


def bench_name(match):
    return "match-" + match


def run_match(match, workers=2, folder=None, say=print):
    """Play one match of ``MATCHES`` and write its results file; returns its path."""
    from xobo.games import load
    from xobo_host.bench import results as benchresults
    from xobo_host.bench.matchplay.yardstick import run_opponent_match
    from xobo_host.bench.uct import wilson

    name, level, opponent, games, seed, max_plies, rates = matches()[match]
    game = load(name)
    command = ("python -m xobo_host.bench.strength %s (as xobo match --game %s --a %s "
               "--opponent %s --games %d --seed %d --max-moves %d)"
               % (match, name, level, opponent, games, seed, max_plies))
    run = benchresults.Run(bench_name(match), "%s: %s against %s, %d games" % (
        game.TITLE, level, opponent, games), command=command)
    run.machine_extra = {"interpreter": "%s %s" % (
        sys.implementation.name, ".".join(map(str, sys.implementation.version[:3])))}
    say("%s: %d games..." % (match, games))
    out = run_opponent_match(name, level, opponent, games, seed=seed, max_moves=max_plies,
                             workers=workers)
    n = out["games"]
    lo, hi = wilson(out["wins"], n)
    run.note("%s. The level's seat rotates (game i: seat i modulo the players, seed %d + i); "
             "node budgets only, so the match replays exactly." % (rates, seed))
    run.figure("won", out["wins"], "of %d games" % n, "games the level won")
    run.figure("lost", out["losses"], "games", "games it lost")
    run.figure("unfinished", out["unfinished"], "games",
               "games drawn or unfinished at %d plies" % max_plies)
    run.figure("share", round(100.0 * out["wins"] / max(1, n)), "%", "share of games won "
               "(a fair share: %.0f%%)" % (100.0 / game.PLAYERS))
    run.figure("ci", "%.0f-%.0f" % (100 * lo, 100 * hi), "%",
               "95% Wilson interval of that share")
    if out["times"]:
        run.figure("median-move", round(1000 * statistics.median(out["times"]), 1), "ms",
                   "the level's median time a move (%s, under the machine's load)"
                   % sys.implementation.name)
    path = run.write(folder)
    say("%s: %d of %d won; results in %s" % (match, out["wins"], n, path))
    return path


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m xobo_host.bench.strength",
                                description="The long strength matches of docs/ai.md, one "
                                "results file a match.")
    p.add_argument("matches", nargs="*", help="match names (--list shows them)")
    p.add_argument("--all", action="store_true", help="every match")
    p.add_argument("--list", action="store_true", help="list the matches")
    p.add_argument("--workers", type=positive, default=2)
    args = p.parse_args(argv)
    known = matches()
    if args.list or not (args.matches or args.all):
        for match, (name, level, opponent, games, seed, _plies, rates) in known.items():
            print("%-22s %s %s against %s, %d games, seed %d: %s" % (
                match, name, level, opponent, games, seed, rates))
        return 0
    unknown = [m for m in args.matches if m not in known]
    if unknown:
        p.error("no match %s (the matches: %s)" % (", ".join(unknown), ", ".join(known)))
    for match in list(known) if args.all else args.matches:
        run_match(match, args.workers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
