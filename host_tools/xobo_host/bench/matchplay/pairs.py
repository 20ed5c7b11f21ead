"""Two levels of a two-player game against each other (``xobo match --a A --b B``): A plays
the first seat in even games and the second in odd ones, game ``i`` with seed ``SEED + i`` for
both players (a match replays exactly); the score and an Elo estimate, a game at the move
limit unfinished (half a point).

Usage::

    >>> from xobo_host.bench.matchplay.pairs import run_match, format_result
    >>> w, l, u, d = run_match("perfect", "random", games=4, seed=1, name="tiny", workers=1)
    >>> print(format_result("perfect", w, l, u, d))   # the test game (tiny)
    perfect 3 wins, 0 losses, 1 drawn, 0 unfinished; Elo +338 ± 110
"""

import math
import sys

from xobo.games import part
from xobo_host.bench.matchplay.common import first_game, parse_settings
from xobo_host.cli.argtypes import check_level


def play_game(job):
    """Play one game of A against B; returns (index, winner level 'a'/'b'/'draw'/None (the
    move limit), plies, the moves' text)."""
    index, name, settings, level_a, level_b, seed, max_moves, time_ms = job
    from xobo.games import load

    game = load(name)
    ai = part(game, "computer")
    pos = game.new_position(settings)
    a_side = index % 2  # A plays the first seat in even games
    moves = []
    while not pos.is_terminal() and pos.ply < max_moves:
        level = level_a if pos.side == a_side else level_b
        m = ai.choose_move(pos, level, seed=seed, time_ms=time_ms)
        moves.append(pos.move_text(m))
        pos.apply(m)
    w = pos.winner()
    if w < 0:
        result = "draw" if pos.is_terminal() else None
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


def format_result(level_a, wins, losses, unfinished, drawn=0):
    d, margin = elo(wins, losses, unfinished + drawn)
    sign = "+" if d >= 0 else "-"
    return "%s %d wins, %d losses, %s%d unfinished; Elo %s%d \u00b1 %d" % (
        level_a,
        wins,
        losses,
        "%d drawn, " % drawn if drawn else "",
        unfinished,
        sign,
        abs(d),
        margin,
    )


def run_match(level_a, level_b, games, seed=0, settings_words=(), max_moves=200, workers=2,
              time_ms=None, progress=None, name=None):
    """Play the match of two-player game ``name`` (default: the first game); returns (wins,
    losses, unfinished, drawn) for A. ``progress(line)`` gets one line per finished game."""
    from xobo.games import load

    name = name or first_game()
    game = load(name)
    if game.PLAYERS != 2:
        raise ValueError("%s has %d players: play its levels with --levels" % (name,
                                                                            game.PLAYERS))
    levels = part(game, "computer").LEVELS
    for lv in (level_a, level_b):
        check_level(name, lv, levels)
    settings = parse_settings(game, settings_words)
    jobs = [(i, name, settings, level_a, level_b, seed + i, max_moves, time_ms)
            for i in range(games)]
    counts = [0, 0, 0, 0]
    if workers > 1 and games > 1:
        import multiprocessing

        ctx = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
        with ctx.Pool(workers) as pool:
            results = pool.imap_unordered(play_game, jobs)
            _collect(results, counts, level_a, level_b, game.PLAYER_NAMES, progress)
    else:
        _collect(map(play_game, jobs), counts, level_a, level_b, game.PLAYER_NAMES, progress)
    return counts[0], counts[1], counts[2], counts[3]


def _collect(results, counts, level_a, level_b, seats, progress):
    done = 0
    for index, result, plies, _moves in results:
        done += 1
        if result == "a":
            counts[0] += 1
            who = level_a
        elif result == "b":
            counts[1] += 1
            who = level_b
        elif result == "draw":
            counts[3] += 1
            who = "a draw"
        else:
            counts[2] += 1
            who = "unfinished"
        if progress:
            progress(
                "game %d (%s as %s): %s after %d moves [%d-%d-%d%s]"
                % (index, level_a, seats[index % 2], who, plies, counts[0], counts[1],
                   counts[2], "-%d" % counts[3] if counts[3] else "")
            )
