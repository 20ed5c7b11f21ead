# dual-runtime per-game
"""Every game of ``xobo.games.GAMES`` keeps the game interface's promises (docs/games.md).

For each game whose package is installed, the tests below play RANDOM_GAMES random games to
the end (a fixed seed, the same games under CPython and MicroPython: the generator is ours)
and check at every ply: move generation into a buffer against ``legal_actions``, clone, undo,
position and move notation round trips, footprints against apply, heights against occupancy,
the result (``returns``, ``winner``, ``is_terminal``), and, under MicroPython, that
``legal_moves`` allocates nothing with the heap locked. A game in GAMES whose package is not
there yet is skipped with the reason; a package that is there but fails to import fails.

The tests are made per game (``test_<game>_<check>``), so a new game is picked up when its
name is in GAMES and its package imports: nothing to add here.

    .venv/bin/python -m pytest tests/games/test_conformance.py -q
"""

from xobo_testing import raises, run_with_heap_locked

from xobo.errors import MoveError
from xobo.games import GAMES, OPTIONAL_PARTS, PARTS, load, package_name, part

RANDOM_GAMES = 20  # per game, spread over the settings (the defaults, then each other choice)
# make test plays half of them under CPython and a quarter under MicroPython (the same first
# games: the generator is ours), make soak all of them on both: the checks are the same
CPY_SHARE = 2
UPY_SHARE = 4
# a random game still going after this many moves fails: it must end (a game whose random
# games are longer says so: RANDOM_GAME_PLIES in its package, Chain Reaction's segments)
MAX_PLIES = 500
SEED = 10  # the random games' seed: change it to see other games

try:
    import pytest
except ImportError:  # MicroPython: tests/upy/runner.py has no skip, a skipped test passes
    pytest = None


def _games_to_play(game):
    """How many random games of ``game`` this run plays (CPY_SHARE, UPY_SHARE above)."""
    import os
    import sys

    n = getattr(game, "RANDOM_GAMES", RANDOM_GAMES)
    if os.getenv("XOBO_SOAK") != "full":
        share = UPY_SHARE if sys.implementation.name == "micropython" else CPY_SHARE
        n = max(1, n // share)
    return n

_LETTERS = "abcdefghijklmnopqrstuvwxyz"


class _Rng:
    """A linear congruential generator: the same sequence under both runtimes."""

    def __init__(self, seed):
        self.x = seed & 0x7FFFFFFF

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 8) % n


def _skip(reason):
    if pytest is not None:
        pytest.skip(reason)
    print("SKIP " + reason)


_LOADED = {}  # game name -> (package, rules module) or the reason it is not installed


def _game(name):
    """The package and the rules module of game ``name``, or None after skipping the test.

    Each package function is called once here, whatever the order of the tests: the test of
    the package functions calls them a second time itself."""
    if name not in _LOADED:
        try:
            game = load(name)
        except ImportError as exc:
            # only the package itself missing means "not installed"; an import that fails
            # inside it is a broken game, and fails the test
            if ("'%s'" % package_name(name)) not in str(exc):
                raise
            _LOADED[name] = "game '%s' is not installed: %s does not import (%s)" % (
                name, package_name(name), exc)
        else:
            _LOADED[name] = (game, part(game, "engine"))
    got = _LOADED[name]
    if isinstance(got, str):
        _skip(got)
        return None
    return got


def _configurations(game):
    """The defaults, then each other value of one setting at a time (both ends of a range)."""
    out = [dict(game.DEFAULTS)]
    for key in sorted(game.SETTINGS):
        choices = game.SETTINGS[key]
        if _is_range(choices):
            choices = (choices[0], choices[1])
        for value in choices:
            if value != game.DEFAULTS[key]:
                s = dict(game.DEFAULTS)
                s[key] = value
                out.append(s)
    return out


def _is_range(choices):
    return len(choices) == 2 and isinstance(choices[0], int) and isinstance(choices[1], int)


_GAMES_PLAYED = {}  # game name -> [(settings, moves)], the random games, made once


def _random_games(name, game, rules):
    """RANDOM_GAMES random games to the end: (settings, moves), each game's moves in order."""
    if name in _GAMES_PLAYED:
        return _GAMES_PLAYED[name]
    configs = _configurations(game)
    rng = _Rng(SEED)
    buf = rules.new_move_buffer()
    out = []
    # a game with long random games plays fewer (its package's RANDOM_GAMES)
    for g in range(_games_to_play(game)):
        settings = configs[g % len(configs)]
        pos = game.new_position(settings)
        moves = []
        while not pos.is_terminal():
            cap = getattr(game, "RANDOM_GAME_PLIES", MAX_PLIES)
            assert pos.ply < cap, "%s: game %d (%s) still goes on after %d moves: %s" % (
                name, g, settings, cap, pos.to_string())
            n = pos.legal_moves(buf)
            assert n > 0, "%s: no legal move but not terminal: %s" % (name, pos.to_string())
            m = buf[rng.below(n)]
            moves.append(m)
            pos.apply(m)
        out.append((settings, moves))
    _GAMES_PLAYED[name] = out
    return out


def _each_ply(name, check):
    """Replay the random games, calling check(game, rules, settings, pos, where) at each
    position from the start to the end (``where`` names it in failure messages)."""
    got = _game(name)
    if got is None:
        return
    game, rules = got
    plies = 0
    for settings, moves in _random_games(name, game, rules):
        pos = game.new_position(settings)
        for i in range(len(moves) + 1):
            check(game, rules, settings, pos, "%s %s ply %d: %s" % (
                name, settings, pos.ply, pos.to_string()))
            plies += 1
            if i < len(moves):
                pos.apply(moves[i])
    assert plies > _games_to_play(game), "%s: the random games were not played" % name


def _legal(pos, rules):
    buf = rules.new_move_buffer()
    n = pos.legal_moves(buf)
    return [buf[i] for i in range(n)]


# ---------------------------------------------------------------------- the description


def _check_description(name):
    got = _game(name)
    if got is None:
        return
    game, rules = got
    assert game.NAME == name, (game.NAME, name)
    for ch in name:
        assert ch in _LETTERS or ch == "-", "NAME '%s': only a-z and '-'" % name
    assert isinstance(game.TITLE, str) and game.TITLE, "%s: TITLE is empty" % name
    assert game.PLAYERS in (2, 3), "%s: PLAYERS is %r" % (name, game.PLAYERS)
    names = game.PLAYER_NAMES
    assert len(names) == game.PLAYERS, "%s: PLAYER_NAMES %r for %d players" % (
        name, names, game.PLAYERS)
    assert len(set(names)) == len(names), "%s: PLAYER_NAMES repeat: %r" % (name, names)
    # the board's `level` setting: the computer's levels, known without importing it
    assert game.LEVELS and game.DEFAULT_LEVEL in game.LEVELS, "%s: LEVELS %r, DEFAULT_LEVEL %r" % (
        name, game.LEVELS, game.DEFAULT_LEVEL)
    for p in names:
        assert p and all(ch in _LETTERS for ch in p), "%s: player name %r" % (name, p)
    assert sorted(game.SETTINGS) == sorted(game.DEFAULTS), "%s: SETTINGS %r, DEFAULTS %r" % (
        name, sorted(game.SETTINGS), sorted(game.DEFAULTS))
    for key in game.SETTINGS:
        choices = game.SETTINGS[key]
        value = game.DEFAULTS[key]
        if _is_range(choices):
            assert choices[0] <= value <= choices[1], "%s: %s default %r" % (name, key, value)
        else:
            assert value in choices, "%s: %s default %r not in %r" % (name, key, value, choices)
    assert "first" in game.SETTINGS, "%s: every game has the setting 'first'" % name
    for p in game.SETTINGS["first"]:
        assert p in names, "%s: first=%s is no player (%r)" % (name, p, names)
    for key in game.NEW_GAME_SETTINGS:
        assert key in game.SETTINGS, "%s: NEW_GAME_SETTINGS has %s" % (name, key)
    for attr in ("Position", "new_move_buffer", "MAX_MOVES", "FOOTPRINT_MAX"):
        assert hasattr(rules, attr), "%s: engine() has no %s" % (name, attr)
    assert len(rules.new_move_buffer()) >= rules.MAX_MOVES


def _check_settings_make_the_start(name):
    got = _game(name)
    if got is None:
        return
    game, rules = got
    for settings in _configurations(game):
        pos = game.new_position(settings)
        where = "%s %s" % (name, settings)
        w, h = game.area(settings)
        assert (pos.width, pos.height) == (w, h), "%s: area %r, position %dx%d" % (
            where, (w, h), pos.width, pos.height)
        assert pos.n_cells == w * h, where
        assert len(pos.heights) == pos.n_cells and len(pos.used) == pos.n_cells, where
        for c in range(pos.n_cells):
            assert pos.used[c] in (0, 1), "%s: used[%d] = %r" % (where, c, pos.used[c])
        assert pos.n_players == game.PLAYERS, where
        assert pos.side == game.PLAYER_NAMES.index(settings["first"]), "%s: side %d" % (
            where, pos.side)
        assert pos.ply == 0 and pos.history() == [] and pos.last_move() == -1, where
        raises(MoveError, pos.undo)
        again = game.parse_position(pos.to_string(), settings)
        assert again.to_string() == pos.to_string(), where


def _check_parts(name):
    # docs/games.md, "The game's parts": every part the game names is a module of its
    # folder, the same module at every call, and the parts every game has are there
    got = _game(name)
    if got is None:
        return
    game, rules = got
    for key in game.PARTS:
        assert key in PARTS, "%s: PARTS names '%s', which is no part (%s)" % (
            name, key, ", ".join(PARTS))
    for key in PARTS:
        assert key in game.PARTS or key in OPTIONAL_PARTS, "%s: PARTS has no %s" % (name, key)
    assert part(game, "engine") is rules, name
    try:
        first = part(game, "computer")
    except ImportError:
        first = None  # no computer player installed: allowed
    if first is not None:
        assert part(game, "computer") is first, name
        assert first.__name__.startswith(package_name(name) + "."), first.__name__
    cli = part(game, "cli")
    assert callable(cli.main), "%s: %s has no main(argv)" % (name, cli.__name__)


# ---------------------------------------------------------------------- at every ply


def _round_trips(game, rules, settings, pos, where):
    text = pos.to_string()
    heights = bytes(pos.heights)
    side = pos.side
    ply = pos.ply
    history = pos.history()
    assert len(history) == ply, where
    assert pos.last_move() == (history[-1] if history else -1), where
    again = game.parse_position(text, settings)
    assert again.to_string() == text, "%s: parsed back as %s" % (where, again.to_string())
    assert bytes(again.heights) == heights and again.side == side, where
    moves = _legal(pos, rules)
    assert moves == pos.legal_actions(), "%s: legal_moves(buf) != legal_actions()" % where
    for m in moves:
        assert 0 <= m < 65536, "%s: move %r does not fit array('H')" % (where, m)
        assert pos.why_illegal(m) is None and pos.is_legal(m), "%s: %r" % (where, m)
        t = pos.move_text(m)
        assert pos.parse_move(t) == m, "%s: %s (%d) parses as %d" % (where, t, m,
                                                                      pos.parse_move(t))
        pos.apply(m)
        assert pos.ply == ply + 1, where
        pos.undo()
        assert pos.to_string() == text, "%s: apply %s then undo gives %s" % (
            where, t, pos.to_string())
        assert bytes(pos.heights) == heights and pos.side == side and pos.ply == ply, where
        assert pos.last_move() == (history[-1] if history else -1), where
    # the whole history once all the moves were tried: an apply or undo that wrote over an
    # earlier ply leaves it wrong (compared after every move, it was a third of this check)
    assert pos.history() == history, "%s: the history changed by applying and undoing" % where
    copy = pos.clone()
    assert copy.to_string() == text and bytes(copy.heights) == heights, where
    assert copy.side == side and copy.ply == ply and copy.history() == history, where
    if moves:
        copy.apply(moves[-1])
        assert pos.to_string() == text and bytes(pos.heights) == heights, (
            "%s: a move on the clone changed the original" % where)
        copy.undo()  # the clone has the history too
        assert copy.to_string() == text, where
    else:
        assert pos.is_terminal(), "%s: no legal move but the game goes on" % where


def _footprints(game, rules, settings, pos, where):
    n = pos.n_cells
    before = bytearray(n)
    after = bytearray(n)
    expected = bytearray(n)
    lifted = bytearray(rules.FOOTPRINT_MAX)
    added = bytearray(rules.FOOTPRINT_MAX)
    pos.occupancy(before)
    for c in range(n):
        assert before[c] == (1 if pos.heights[c] else 0), "%s: occupancy[%d] = %d, height %d" % (
            where, c, before[c], pos.heights[c])
        assert pos.used[c] or not pos.heights[c], "%s: a piece on unused cell %d" % (where, c)
    seen = {}
    for m in _legal(pos, rules):
        t = pos.move_text(m)
        nl, na = pos.footprint(m, lifted, added)
        lset = sorted(lifted[i] for i in range(nl))
        aset = sorted(added[i] for i in range(na))
        assert len(set(lset)) == nl and len(set(aset)) == na, "%s: %s repeats cells" % (where, t)
        touch = pos.touch_cell(m)
        assert touch == -1 or 0 <= touch < n, "%s: %s touch_cell %r" % (where, t, touch)
        pos.apply(m)
        pos.occupancy(after)
        pos.undo()
        # the cells L(m) empties and A(m) fills, every other cell as it was: one comparison
        # of the whole board (a cell-by-cell loop per move was most of this check's time)
        expected[:] = before
        for c in lset:
            expected[c] = 0
        for c in aset:
            expected[c] = 1
        if expected != after or any(not before[c] for c in lset) or any(before[c] for c in aset):
            for c in range(n):
                emptied = before[c] and not after[c]
                filled = after[c] and not before[c]
                assert emptied == (c in lset), "%s: %s, cell %d: emptied %s, in L(m) %s" % (
                    where, t, c, bool(emptied), c in lset)
                assert filled == (c in aset), "%s: %s, cell %d: filled %s, in A(m) %s" % (
                    where, t, c, bool(filled), c in aset)
            raise AssertionError("%s: %s: the occupancy after it is not L(m) and A(m)"
                                 % (where, t))
        # moves of one footprint: the board tells them apart by the touched cell, or by a
        # button (docs/games.md: button_of, Brochs's master drop)
        button = pos.button_of(m) if hasattr(pos, "button_of") else ""
        if nl or na:
            key = (tuple(lset), tuple(aset))
            for other, other_touch, other_button in seen.get(key, ()):
                assert (touch >= 0 and touch != other_touch) or button != other_button, (
                    "%s: %s and %s have one footprint, touch cells %d, %d and buttons %r, %r"
                    % (where, t, pos.move_text(other), touch, other_touch, button,
                       other_button))
            seen.setdefault(key, []).append((m, touch, button))


_INFERENCES = {}  # (cells, footprint max, max moves) -> two inferences, made once


def _bulk_footprints(game, rules, settings, pos, where):
    # a game that lists its footprints itself (``footprints(moves, n, inf)``, docs/games.md)
    # fills the inference's tables exactly as the move-by-move listing does
    if not hasattr(pos, "footprints") or pos.ply % 3:  # (every third ply: the check is slow)
        return
    from xobo.runtime.inference import Inference

    key = (pos.n_cells, rules.FOOTPRINT_MAX, rules.MAX_MOVES)
    if key not in _INFERENCES:
        _INFERENCES[key] = [Inference(*key, capacity=rules.MAX_MOVES) for _ in (0, 1)]
    bulk, one = _INFERENCES[key]
    bulk.use(pos.n_cells)
    one.use(pos.n_cells)
    bulk.set_position(pos)
    n = pos.legal_moves(one.moves)
    del one.buttons[:]
    one.footprint_moves(pos, 0, n)
    assert bulk.n_moves == n, where
    fp = rules.FOOTPRINT_MAX
    for i in range(n):
        t = pos.move_text(one.moves[i])
        got = (bulk.n_l[i], bulk.n_a[i], bulk.touch_of[i],
               bulk.buttons[bulk.btn_of[i] - 1] if bulk.btn_of[i] else "",
               sorted(bulk.fp_l[i * fp + k] for k in range(bulk.n_l[i])),
               sorted(bulk.fp_a[i * fp + k] for k in range(bulk.n_a[i])))
        want = (one.n_l[i], one.n_a[i], one.touch_of[i],
                one.buttons[one.btn_of[i] - 1] if one.btn_of[i] else "",
                sorted(one.fp_l[i * fp + k] for k in range(one.n_l[i])),
                sorted(one.fp_a[i * fp + k] for k in range(one.n_a[i])))
        assert got == want, "%s: %s: bulk %r, one by one %r" % (where, t, got, want)
    assert list(bulk.liftable) == list(one.liftable), where


def _results(game, rules, settings, pos, where):
    r = pos.returns()
    assert len(r) == pos.n_players, "%s: returns %r" % (where, r)
    assert 0 <= pos.side < pos.n_players, where
    w = pos.winner()
    n = len(_legal(pos, rules))
    if not pos.is_terminal():
        assert n > 0, "%s: not terminal, no legal move" % where
        assert w == -1, "%s: winner %d before the end" % (where, w)
        for v in r:
            assert v == 0, "%s: returns %r before the end" % (where, r)
        return
    assert n == 0, "%s: terminal, %d legal moves" % (where, n)
    if w >= 0:
        for p in range(pos.n_players):
            assert p == w or r[p] < r[w], "%s: winner %d, returns %r" % (where, w, r)
    else:  # no winner: no player alone has the best return
        best = max(r)
        assert len([v for v in r if v == best]) > 1, "%s: no winner, returns %r" % (where, r)


def _no_allocation(game, rules, settings, pos, where):
    buf = rules.new_move_buffer()
    n = pos.legal_moves(buf)  # first: lazily made scratch is allowed once
    assert run_with_heap_locked(pos.legal_moves, buf) == n, where
    assert run_with_heap_locked(pos.legal_moves, buf) == n, where


def _check_computer_random_level(name):
    got = _game(name)
    if got is None:
        return
    game, rules = got
    try:
        ai = part(game, "computer")
    except ImportError as exc:
        _skip("%s: no computer player installed (%s)" % (name, exc))
        return
    assert "random" in ai.LEVELS and ai.HINT_LEVEL in ai.LEVELS, (name, ai.LEVELS)
    settings, moves = _random_games(name, game, rules)[0]
    pos = game.new_position(settings)
    for i in range(len(moves)):
        text = pos.to_string()
        m = ai.choose_move(pos, "random", seed=i)
        assert pos.is_legal(m), "%s ply %d: the computer chose %r" % (name, i, m)
        assert pos.to_string() == text, "%s: choose_move changed the position" % name
        pos.apply(moves[i])
    raises(ValueError, ai.choose_move, pos, "random")  # the game is over
    raises(ai.SearchCancelled, ai.choose_move, game.new_position(settings), "random", 0,
           1800, lambda: True)
    ai.release()


# ---------------------------------------------------------------------- one test per check


def _per_game(check, name):
    def test():
        check(name)

    return test


def _per_ply(check, name):
    def test():
        _each_ply(name, check)

    return test


_CHECKS = (
    ("description_is_complete", _per_game, _check_description),
    ("settings_make_the_start_position_of_their_area", _per_game,
     _check_settings_make_the_start),
    ("parts_are_the_modules_its_package_names", _per_game, _check_parts),
    ("random_games_keep_clone_undo_and_notation_round_trips", _per_ply, _round_trips),
    ("random_games_footprints_match_apply_and_occupancy", _per_ply, _footprints),
    ("random_games_bulk_footprints_equal_the_move_by_move_listing", _per_ply,
     _bulk_footprints),
    ("random_games_returns_winner_and_end_agree", _per_ply, _results),
    ("random_games_legal_moves_allocate_nothing_under_heap_lock", _per_ply, _no_allocation),
    ("computer_random_level_chooses_legal_moves", _per_game, _check_computer_random_level),
)

for _name in GAMES:
    for _what, _make, _check in _CHECKS:
        globals()["test_%s_%s" % (_name.replace("-", "_"), _what)] = _make(_check, _name)


def test_the_test_game_tiny_is_in_the_registry():
    # the proof that the runtime knows nothing of XoBo needs a second game that is always there
    assert "tiny" in GAMES and _game("tiny") is not None
