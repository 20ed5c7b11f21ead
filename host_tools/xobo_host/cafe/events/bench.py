"""The pairing benchmark: a Swiss event of ``--players`` players (200) played for
``--rounds`` rounds with random results (seeded: a win, a draw or a loss, as the tests'
tournaments), each round paired by ``pairing.pair_swiss`` and timed (wall clock and this
process's CPU time), its output checked: every active player once, a bye exactly when their
number is odd, no repeated pairing while a pairing without one exists, no second bye, the
bye in the lowest score group that can take it, no colour clash when one can be avoided,
floats named. The checks run after the timing (they solve the matching on every pair, for
what can be avoided): only ``pair_swiss`` is timed. The target: each round in 1 s at most.

Its figures go to ``bench-results/events/`` (``xobo_host.bench.results``: ``latest.json``
when run with the standard arguments, 200 players, 9 rounds, seed 1), which
docs/figures.md shows and the docs quote; ``--out`` also writes every round's details as
JSON; stdout says each round.

Usage::

    make events-bench
    python -m xobo_host.cafe.events.bench --players 200 --rounds 9   # make events-bench's
    python -m xobo_host.cafe.events.bench --players 40 --rounds 5 --out rounds.json
"""

import itertools
import json
import os
import platform
import random
import sys
import time

import networkx as nx

from xobo_host.bench import results as benchresults
from xobo_host.cafe.events.pairing import (
    BYE,
    FIRST,
    SECOND,
    Entrant,
    colour_need,
    pair_swiss,
)
from xobo_host.cli.argtypes import positive, whole_number

TARGET_S = 1.0
STANDARD = {"players": 200, "rounds": 9, "seed": 1}  # what make events-bench runs


def _perfect(players, edge_ok, bye_ok):
    g = nx.Graph()
    g.add_nodes_from(p.pid for p in players)
    g.add_edges_from((a.pid, b.pid) for a, b in itertools.combinations(players, 2)
                     if edge_ok(a, b))
    if len(players) % 2:
        g.add_edges_from((p.pid, BYE) for p in players if bye_ok(p))
    return len(nx.max_weight_matching(g, maxcardinality=True)) == (len(players) + 1) // 2


def check(players, rnd):
    """The round's properties: {name: True|False} (False: broken)."""
    by_id = {p.pid: p for p in players}
    seen = [x for pair in rnd.pairs for x in pair] + ([rnd.bye] if rnd.bye is not None else [])
    out = {"everyone_once": sorted(seen) == sorted(by_id),
           "bye_when_odd": (rnd.bye is not None) == (len(players) % 2 == 1)}
    repeats = sum(1 for a, b in rnd.pairs if b in by_id[a].opponents)

    def new(a, b):
        return b.pid not in a.opponents

    avoidable = repeats == 0 or _perfect(players, new, lambda p: not p.byes)
    out["no_repeat_while_avoidable"] = repeats == 0 or not avoidable
    out["no_second_bye"] = rnd.bye is None or by_id[rnd.bye].byes == 0 or all(
        p.byes for p in players)
    if rnd.bye is not None and repeats == 0:
        lowest = min(p.units() for p in players if not p.byes)
        if by_id[rnd.bye].units() != lowest:  # only when the lowest group cannot take it
            out["bye_lowest_group"] = not any(
                _perfect([q for q in players if q.pid != p.pid], new, lambda q: False)
                for p in players if not p.byes and p.units() < by_id[rnd.bye].units())
        else:
            out["bye_lowest_group"] = True
    if rnd.penalties["colour_clash"]:
        rest = [p for p in players if p.pid != rnd.bye]

        def no_clash(a, b):
            na, aa = colour_need(a.seats)
            nb, ab = colour_need(b.seats)
            return new(a, b) and not (aa and ab and na == nb)

        out["no_colour_clash_while_avoidable"] = not _perfect(rest, no_clash, lambda p: False)
    else:
        out["no_colour_clash_while_avoidable"] = True
    out["floats_named"] = all(
        (by_id[a].units() != by_id[b].units()) == (a in rnd.floats and b in rnd.floats)
        for a, b in rnd.pairs)
    return out


def run(players=200, rounds=9, seed=1):
    rng = random.Random(seed)
    score = {i: 0.0 for i in range(players)}
    opp = {i: {} for i in range(players)}
    seats = {i: [] for i in range(players)}
    byes = {i: 0 for i in range(players)}
    last = {i: None for i in range(players)}
    out = []
    for number in range(1, rounds + 1):
        order = sorted(range(players), key=lambda i: (-score[i], i))
        entrants = [Entrant(i, score[i], k, opp[i], seats[i], byes[i], last[i])
                    for k, i in enumerate(order)]
        wall, cpu = time.perf_counter(), time.process_time()
        rnd = pair_swiss(entrants)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        checks = check(entrants, rnd)
        groups = len({e.units() for e in entrants})
        out.append({"round": number, "wall_s": round(wall, 4), "cpu_s": round(cpu, 4),
                    "graph": rnd.graph, "score_groups": groups,
                    "floats": len(rnd.floats), "bye": rnd.bye is not None,
                    "penalties": rnd.penalties, "checks": checks})
        for i in range(players):
            last[i] = rnd.floats.get(i)
        if rnd.bye is not None:
            byes[rnd.bye] += 1
            score[rnd.bye] += 1
        for a, b in rnd.pairs:
            r = rng.choice((1.0, 0.5, 0.0, 1.0, 0.0))
            score[a] += r
            score[b] += 1 - r
            opp[a][b] = opp[a].get(b, 0) + 1
            opp[b][a] = opp[b].get(a, 0) + 1
            seats[a].append(FIRST)
            seats[b].append(SECOND)
    return out


def main(argv=None):
    import argparse

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--players", type=positive, default=STANDARD["players"])
    p.add_argument("--rounds", type=positive, default=STANDARD["rounds"])
    p.add_argument("--seed", type=whole_number, default=STANDARD["seed"])
    p.add_argument("--out", help="also write every round's details here (JSON)")
    args = p.parse_args(argv)
    standard = {k: getattr(args, k) for k in STANDARD} == STANDARD
    record = benchresults.Run(
        "events", "An event's Swiss pairings: %d players, %d rounds with random results"
        % (args.players, args.rounds), command="make events-bench", standard=standard)
    load = os.getloadavg()
    t0 = time.perf_counter()
    rounds = run(args.players, args.rounds, args.seed)
    worst_wall = max(r["wall_s"] for r in rounds)
    worst_cpu = max(r["cpu_s"] for r in rounds)
    broken = sorted({k for r in rounds for k, v in r["checks"].items() if not v})
    result = {
        "benchmark": "events-pairing", "players": args.players, "seed": args.seed,
        "rounds": rounds, "worst_wall_s": worst_wall, "worst_cpu_s": worst_cpu,
        "target_s": TARGET_S, "met": worst_wall <= TARGET_S, "checks_broken": broken,
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                    "loadavg_start": [round(x, 2) for x in load],
                    "loadavg_end": [round(x, 2) for x in os.getloadavg()]},
        "total_s": round(time.perf_counter() - t0, 1),
    }
    about = "%d players, seed %d" % (args.players, args.seed)
    record.figure("players", args.players, "players", "players in the event")
    record.figure("rounds", len(rounds), "rounds", "rounds paired (%s)" % about)
    record.figure("round.worst", round(worst_wall * 1000), "ms",
                  "the slowest round's pairing, wall clock (target: 1 s at most)")
    record.figure("round.worst-cpu", round(worst_cpu * 1000), "ms",
                  "the slowest round's pairing, this process's CPU time")
    record.figure("round.median", round(sorted(r["wall_s"] for r in rounds)[
        len(rounds) // 2] * 1000), "ms", "a round's pairing, wall clock: median")
    record.figure("checks-broken", len(broken), "checks",
                  "pairing properties broken in any round (everyone once, no avoidable "
                  "repeat or colour clash, no second bye, bye in the lowest group, floats "
                  "named)")
    record.write()
    text = json.dumps(result, indent=1)
    if args.out:
        tmp = args.out + ".tmp"
        with open(tmp, "w") as f:
            f.write(text + "\n")
        os.replace(tmp, args.out)
    for r in rounds:
        print("round %d: %.3f s (CPU %.3f s), %s, %d score groups, %d floats%s" % (
            r["round"], r["wall_s"], r["cpu_s"], r["graph"], r["score_groups"], r["floats"],
            "" if all(r["checks"].values()) else ", BROKEN: " + ", ".join(
                k for k, v in r["checks"].items() if not v)))
    print("%d players: worst round %.3f s (CPU %.3f s), target %.1f s: %s; load average "
          "%.1f -> %.1f" % (args.players, worst_wall, worst_cpu, TARGET_S,
                            "met" if result["met"] else "NOT met", load[0],
                            os.getloadavg()[0]))
    return 0 if not broken else 1


if __name__ == "__main__":
    sys.exit(main())
