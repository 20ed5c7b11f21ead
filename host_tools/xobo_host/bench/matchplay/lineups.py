"""Any game's levels in every line-up of its seats (``xobo match --levels``, three players):
each level's wins per seat played and, for each pair of levels, who won the games they met
in; game ``i`` plays line-up ``i`` modulo their number, with seed ``SEED + i``.

Usage::

    >>> from xobo_host.bench.matchplay.lineups import run_game_match, format_game_tally
    >>> tally = run_game_match("x", ["random", "greedy"], games=4, workers=1)  # xobo match: 60
    >>> for line in format_game_tally(tally, 3): print(line)
    greedy: 2 wins in 5 seats (0.40 a seat, fair 0.33)
    random: 2 wins in 7 seats (0.29 a seat, fair 0.33)
    greedy vs random: 4 games, greedy won 2, random 2, unfinished 0
"""

import sys

from xobo_host.bench.matchplay.common import module_of, parse_settings
from xobo_host.cli.argtypes import check_level


def lineups(levels, players):
    """Every assignment of levels to the seats in which at least two levels play."""
    out = [()]
    for _ in range(players):
        out = [lu + (lv,) for lu in out for lv in levels]
    return [lu for lu in out if len(set(lu)) > 1]


def play_game_of(job):
    """Play one game of any game; returns (index, line-up, winner seat or -1, plies, whether
    it ended: a draw ends without a winner, a game stopped at the move limit is unfinished)."""
    index, name, settings, lineup, seed, max_moves, time_ms = job
    from xobo.games import load

    game = load(name)
    ai = module_of(game, "ai")
    pos = game.new_position(settings)
    while not pos.is_terminal() and pos.ply < max_moves:
        # time_ms None: node budgets only, so that a match replays exactly on a busy machine
        m = ai.choose_move(pos, lineup[pos.side], seed=seed, time_ms=time_ms)
        pos.apply(m)
    return index, lineup, pos.winner(), pos.ply, pos.is_terminal()


def run_game_match(name, levels, games, seed=0, settings_words=(), max_moves=200, workers=2,
                   time_ms=None, progress=None):
    """Play ``games`` games of game ``name`` between ``levels``; returns the tally:
    {"seats": {level: n}, "wins": {level: n}, "pairs": {(a, b): [games, a won, b won,
    unfinished, drawn]}, "games": n}."""
    from xobo.games import load

    game = load(name)
    try:
        ai = module_of(game, "ai")
    except ImportError:
        raise ValueError("game '%s' has no computer player" % name) from None
    for lv in levels:
        check_level(name, lv, ai.LEVELS)
    if len(set(levels)) < 2:
        raise ValueError("a match needs two different levels, got %s" % ", ".join(levels))
    settings = parse_settings(game, settings_words)
    lus = lineups(sorted(set(levels), key=levels.index), game.PLAYERS)
    jobs = [(i, name, settings, lus[i % len(lus)], seed + i, max_moves, time_ms)
            for i in range(games)]
    tally = {"seats": {lv: 0 for lv in levels}, "wins": {lv: 0 for lv in levels}, "pairs": {},
             "games": 0}
    if workers > 1 and games > 1:
        import multiprocessing

        ctx = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
        with ctx.Pool(workers) as pool:
            _tally(pool.imap_unordered(play_game_of, jobs), tally, levels, progress)
    else:
        _tally(map(play_game_of, jobs), tally, levels, progress)
    return tally


def _tally(results, tally, levels, progress):
    for index, lineup, w, plies, ended in results:
        tally["games"] += 1
        for lv in lineup:
            tally["seats"][lv] += 1
        winner = lineup[w] if w >= 0 else None
        if winner is not None:
            tally["wins"][winner] += 1
        present = [lv for lv in levels if lv in lineup]
        for i in range(len(present)):
            for j in range(i + 1, len(present)):
                row = tally["pairs"].setdefault((present[i], present[j]), [0, 0, 0, 0, 0])
                row[0] += 1
                if winner == present[i]:
                    row[1] += 1
                elif winner == present[j]:
                    row[2] += 1
                elif winner is None:
                    row[4 if ended else 3] += 1
        if progress:
            progress("game %d (%s): %s after %d moves"
                     % (index, " ".join(lineup),
                        winner or ("a draw" if ended else "unfinished"), plies))


def format_game_tally(tally, players):
    lines = []
    order = sorted(tally["wins"], key=lambda lv: -tally["wins"][lv] / max(1, tally["seats"][lv]))
    for lv in order:
        seats = tally["seats"][lv]
        lines.append("%s: %d wins in %d seats (%.2f a seat, fair %.2f)"
                     % (lv, tally["wins"][lv], seats, tally["wins"][lv] / max(1, seats),
                        1 / players))
    # each level against random first, then the other pairs
    pairs = sorted(tally["pairs"].items(), key=lambda kv: ("random" not in kv[0], kv[0]))
    for (a, b), (n, wa, wb, unfinished, drawn) in pairs:
        if a == "random":  # "greedy vs random": the level first, its yardstick second
            a, b, wa, wb = b, a, wb, wa
        others = n - wa - wb - unfinished - drawn  # a third level won
        lines.append("%s vs %s: %d games, %s won %d, %s %d%s%s, unfinished %d"
                     % (a, b, n, a, wa, b, wb, ", others %d" % others if others else "",
                        ", drawn %d" % drawn if drawn else "", unfinished))
    return lines
