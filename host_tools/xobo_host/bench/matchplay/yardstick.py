"""One level against a yardstick (``xobo match --opponent``): plain UCT with N random
playouts a move (``uct:N``) or another level in every other seat, the level's seat rotating
(game ``i``: seat ``i`` modulo the players); its win share with a 95% Wilson interval.
``record`` writes each game's moves; ``reuse`` plays such a record's opponent replies again
while a game follows it.

Usage::

    >>> from xobo_host.bench.matchplay.yardstick import run_opponent_match
    >>> from xobo_host.bench.matchplay.yardstick import format_opponent_result
    >>> out = run_opponent_match("tiny", "perfect", "uct:20", games=4, seed=1, workers=1)
    >>> print(format_opponent_result("perfect", "uct:20", out, 2))   # the test game
    perfect vs uct:20: 2 wins in 4 games, 50% (95% CI 15-85%), fair 50%; 0 losses, 2 drawn ...
"""

import platform
import sys
import time

from xobo.games import part
from xobo_host.bench.matchplay.common import module_of, parse_settings
from xobo_host.cli.argtypes import unknown


def player(game, spec, max_moves, time_ms):
    """A function (pos, seed) -> move for ``spec``: ``uct:N`` or one of the game's levels."""
    if spec.startswith("uct"):
        from xobo_host.bench import uct

        playouts = uct.parse_spec(spec)
        engine = part(game, "engine")

        def play_uct(pos, seed):
            return uct.choose_move(pos, playouts, seed * 1000003 + pos.ply,
                                   max_plies=max_moves, engine=engine)
        return play_uct
    ai = module_of(game, "ai")
    if spec not in ai.LEVELS:
        raise ValueError(unknown("player", spec, ["uct:N"] + list(ai.LEVELS)).replace(
            " (players", " for %s (players" % game.NAME, 1))
    def play_level(pos, seed):  # time_ms None: node budgets only (replays exactly)
        return ai.choose_move(pos, spec, seed=seed, time_ms=time_ms)
    return play_level


def play_seat_game(job):
    """One game: ``level`` in seat ``index % players``, ``opponent`` in the others. Returns
    (index, seat, winner seat or -1, plies, the level's seconds for each of its moves, the
    moves). ``recorded``: the moves of the same game recorded before (or None): while the game
    so far equals its beginning, the opponent's move is the recorded one."""
    index, name, settings, level, opponent, seed, max_moves, time_ms, recorded = job
    from xobo.games import load

    game = load(name)
    mine = player(game, level, max_moves, time_ms)
    theirs = player(game, opponent, max_moves, time_ms)
    pos = game.new_position(settings)
    seat = index % game.PLAYERS
    times = []
    moves = []
    follows = recorded is not None
    while not pos.is_terminal() and pos.ply < max_moves:
        k = len(moves)
        if pos.side == seat:
            t0 = time.perf_counter()
            m = mine(pos, seed)
            times.append(time.perf_counter() - t0)
        elif follows and k < len(recorded):
            m = recorded[k]
        else:
            m = theirs(pos, seed)
        if follows and (k >= len(recorded) or recorded[k] != m):
            follows = False
        moves.append(m)
        pos.apply(m)
    return index, seat, pos.winner(), pos.ply, times, moves


def read_record(path, name, opponent, settings, max_moves):
    """{(seed, the level's seat): moves} from a ``--record`` file, after checking that its
    games were played against the same opponent in the same game, settings and move limit
    (else their replies are not the ones this match would get: ValueError saying what
    differs)."""
    import json

    want = {"game": name, "opponent": opponent, "settings": settings, "max_moves": max_moves}
    games = {}
    try:
        with open(path) as f:
            lines = [line for line in f if line.strip()]
    except OSError as exc:
        raise ValueError("cannot read the record %s: %s" % (path, exc.strerror)) from None
    for n, line in enumerate(lines, 1):
        try:
            rec = json.loads(line)
            for key, value in want.items():
                if rec[key] != value:
                    raise ValueError("%s line %d: its %s is %r, this match's %r"
                                     % (path, n, key, rec[key], value))
            moves = rec["moves"]
            if not all(isinstance(m, int) for m in moves):
                raise TypeError
            games[(int(rec["seed"]), int(rec["seat"]))] = moves
        except (KeyError, TypeError, json.JSONDecodeError):
            raise ValueError("%s line %d is not a line of a match record (--record)"
                             % (path, n)) from None
    return games


def run_opponent_match(name, level, opponent, games, seed=0, settings_words=(), max_moves=200,
                       workers=2, time_ms=None, progress=None, record=None, reuse=None):
    """``level`` against ``opponent`` in ``games`` games of game ``name``, the level's seat
    rotating (game ``i``: seat ``i`` modulo the players, seed ``SEED + i``). Returns
    {"games", "wins", "losses", "unfinished", "moves", "seconds", "times"} (the level's:
    "times" lists its seconds for each move). ``record``: a file to write each game's moves to
    (JSON lines); ``reuse``: such a file, whose opponent replies are played again while a game
    follows it (node budgets only: with ``time_ms`` a reply depends on the clock)."""
    import json

    from xobo.games import load

    game = load(name)
    settings = parse_settings(game, settings_words)
    for spec in (level, opponent):  # clear errors before any process starts
        player(game, spec, max_moves, time_ms)
    recorded = {}
    if reuse:
        if time_ms:
            raise ValueError("--reuse needs node budgets only: with --time-ms the opponent's"
                             " reply depends on the clock")
        recorded = read_record(reuse, name, opponent, settings, max_moves)
    jobs = [(i, name, settings, level, opponent, seed + i, max_moves, time_ms,
             recorded.get((seed + i, i % game.PLAYERS))) for i in range(games)]
    out = {"games": 0, "wins": 0, "losses": 0, "unfinished": 0, "moves": 0, "seconds": 0.0,
           "times": []}
    try:
        sink = open(record, "w") if record else None
    except OSError as exc:
        raise ValueError("cannot write the record %s: %s" % (record, exc.strerror)) from None

    def write(result):
        index, seat, w, plies, times, moves = result
        if sink:
            sink.write(json.dumps({"game": name, "settings": settings, "opponent": opponent,
                                   "max_moves": max_moves, "level": level, "index": index,
                                   "seed": seed + index, "seat": seat, "winner": w,
                                   "plies": plies, "moves": moves}) + "\n")
            sink.flush()
        return result
    try:
        if workers > 1 and games > 1:
            import multiprocessing

            ctx = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
            with ctx.Pool(workers) as pool:
                _tally_seats(map(write, pool.imap_unordered(play_seat_game, jobs)), out, game,
                             level, progress)
        else:
            _tally_seats(map(write, map(play_seat_game, jobs)), out, game, level, progress)
    finally:
        if sink:
            sink.close()
    return out


def _tally_seats(results, out, game, level, progress):
    for index, seat, w, plies, times, _moves in results:
        out["games"] += 1
        out["moves"] += len(times)
        out["seconds"] += sum(times)
        out["times"].extend(times)
        if w == seat:
            out["wins"] += 1
            who = level
        elif w >= 0:
            out["losses"] += 1
            who = "the opponent (%s)" % game.PLAYER_NAMES[w]
        else:
            out["unfinished"] += 1
            who = "nobody (unfinished or drawn)"
        if progress:
            progress("game %d (%s as %s): %s after %d moves [%d-%d-%d]; %s's median %.1f ms"
                     " a move" % (index, level, game.PLAYER_NAMES[seat], who, plies,
                                  out["wins"], out["losses"], out["unfinished"], level,
                                  1000 * median(times)))


def median(values):
    """The median of a list of numbers (0.0 for none)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


def format_opponent_result(level, opponent, out, players):
    """``search vs uct:1000: 36 wins in 60 games, 60% (95% CI 47-71%), fair 33%; ...``"""
    from xobo_host.bench.uct import wilson

    n = out["games"]
    lo, hi = wilson(out["wins"], n)
    per_move = 1000 * out["seconds"] / out["moves"] if out["moves"] else 0.0
    return ("%s vs %s: %d wins in %d games, %.0f%% (95%% CI %.0f-%.0f%%), fair %.0f%%;"
            " %d losses, %d drawn or unfinished; %.1f ms a move, median %.1f (%s)"
            % (level, opponent, out["wins"], n, 100 * out["wins"] / max(1, n), 100 * lo,
               100 * hi, 100 / players, out["losses"], out["unfinished"], per_move,
               1000 * median(out.get("times", ())), platform.python_implementation()))
