"""``xobo match``: play AI levels of any game against each other and report the score.

Two levels ``--a`` and ``--b`` of a two-player game (the first game of ``xobo.games.GAMES``
unless ``--game`` names another): A plays the first seat in even games and the second in odd
ones; game ``i`` uses seed ``SEED + i`` for both players, so a match replays exactly. A game
that reaches the move limit is reported unfinished (XoBo's E5), a game that ends without a
winner drawn (the test game's TE2); both count half a point in the Elo estimate.

Usage::

    xobo match --a strong --b greedy --games 100 --seed 1
    ...
    strong 97 wins, 2 losses, 1 unfinished; Elo +600 ± 180

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
move (``uct:N``, xobo_host/uct.py) or another level in every other seat, the level's seat
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

import math
import platform
import sys
import time

from xobo_host.argtypes import positive, whole_number


def _first_game():
    from xobo.games import GAMES

    return GAMES[0]


def register(subparsers):
    p = subparsers.add_parser(
        "match",
        help="play two AI levels against each other",
        description="Play N games between AI levels A and B (colours alternate) and print the"
        " score and Elo difference of A.",
    )
    p.add_argument("--game", default=None, help="the game (default: the first, %s)"
                   % _first_game())
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


def play_game(job):
    """Play one game of A against B; returns (index, winner level 'a'/'b'/'draw'/None (the
    move limit), plies, the moves' text)."""
    index, name, settings, level_a, level_b, seed, max_moves, time_ms = job
    from xobo.games import load

    game = load(name)
    ai = game.computer()
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

    name = name or _first_game()
    game = load(name)
    if game.PLAYERS != 2:
        raise ValueError("%s has %d players: play its levels with --levels" % (name,
                                                                            game.PLAYERS))
    levels = game.computer().LEVELS
    for lv in (level_a, level_b):
        if lv not in levels:
            raise ValueError("unknown level '%s' for %s: use %s" % (lv, name, ", ".join(levels)))
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


# ----------------------------------------------------------------------- any game


def _module(game, name):
    """The game's rules engine (``engine()``) or computer player (``computer()``)."""
    return game.engine() if name == "rules" else game.computer()


def parse_settings(game, words):
    """The game's DEFAULTS updated by ``KEY=VALUE`` words; ValueError says what is wrong."""
    from xobo.numbers import parse_uint

    settings = dict(game.DEFAULTS)
    for word in words:
        key, eq, value = word.partition("=")
        if not eq or key not in game.SETTINGS:
            raise ValueError("--set %s: use KEY=VALUE with KEY one of %s"
                             % (word, ", ".join(sorted(game.SETTINGS))))
        choices = game.SETTINGS[key]
        if len(choices) == 2 and isinstance(choices[0], int):
            v = parse_uint(value)
            if v < choices[0] or v > choices[1]:
                raise ValueError("--set %s: %s must be a whole number %d-%d"
                                 % (word, key, choices[0], choices[1]))
            settings[key] = v
        elif value in choices:
            settings[key] = value
        else:
            raise ValueError("--set %s: %s must be one of %s" % (word, key, ", ".join(choices)))
    return settings


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
    ai = _module(game, "ai")
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
        ai = _module(game, "ai")
    except ImportError:
        raise ValueError("game '%s' has no computer player" % name) from None
    for lv in levels:
        if lv not in ai.LEVELS:
            raise ValueError("unknown level '%s' for %s: use %s" % (lv, name,
                                                                 ", ".join(ai.LEVELS)))
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
            levels = list(_module(game, "ai").LEVELS)
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
        args.game = _first_game()
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


# ----------------------------------------------------- one level against a yardstick


def _player(game, spec, max_moves, time_ms):
    """A function (pos, seed) -> move for ``spec``: ``uct:N`` or one of the game's levels."""
    if spec.startswith("uct"):
        from xobo_host import uct

        playouts = uct.parse_spec(spec)
        engine = game.engine()

        def play_uct(pos, seed):
            return uct.choose_move(pos, playouts, seed * 1000003 + pos.ply,
                                   max_plies=max_moves, engine=engine)
        return play_uct
    ai = _module(game, "ai")
    if spec not in ai.LEVELS:
        raise ValueError("unknown player '%s' for %s: use uct:N or a level (%s)"
                         % (spec, game.NAME, ", ".join(ai.LEVELS)))
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
    mine = _player(game, level, max_moves, time_ms)
    theirs = _player(game, opponent, max_moves, time_ms)
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
        _player(game, spec, max_moves, time_ms)
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
    from xobo_host.uct import wilson

    n = out["games"]
    lo, hi = wilson(out["wins"], n)
    per_move = 1000 * out["seconds"] / out["moves"] if out["moves"] else 0.0
    return ("%s vs %s: %d wins in %d games, %.0f%% (95%% CI %.0f-%.0f%%), fair %.0f%%;"
            " %d losses, %d drawn or unfinished; %.1f ms a move, median %.1f (%s)"
            % (level, opponent, out["wins"], n, 100 * out["wins"] / max(1, n), 100 * lo,
               100 * hi, 100 / players, out["losses"], out["unfinished"], per_move,
               1000 * median(out.get("times", ())), platform.python_implementation()))


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
