# dual-runtime
"""The game kit (xobo.gamekit.GamePosition): what every game's Position has in common is
written once, and inherited by every game; each game keeps its own hot paths."""

from xobo_testing import message_of

from xobo.errors import MoveError
from xobo.gamekit import GamePosition
from xobo.games import available, load, part

SHARED = ("play", "is_legal", "legal_actions", "history", "last_move", "__str__")
OWN = ("legal_moves", "apply", "undo", "why_illegal", "move_at", "clone", "to_string")


def _engines():
    for name in available():
        yield name, part(load(name), "engine")


def test_every_games_position_inherits_the_kit_and_keeps_its_hot_paths():
    for name, engine in _engines():
        cls = engine.Position
        assert issubclass(cls, GamePosition), name
        for attr in SHARED:
            assert attr not in cls.__dict__, "%s redefines %s" % (name, attr)
        for attr in OWN:
            assert attr in cls.__dict__, "%s has no %s of its own" % (name, attr)
        assert cls.max_moves == engine.MAX_MOVES, name


def test_play_history_and_last_move_of_every_game():
    for name, _ in _engines():
        game = load(name)
        pos = game.new_position(game.DEFAULTS)
        assert pos.last_move() == -1 and pos.history() == [], name
        assert str(pos) == pos.to_string()
        played = []
        for _ in range(3):
            moves = pos.legal_actions()
            assert moves and all(pos.is_legal(m) for m in moves), name
            pos.play(moves[len(moves) // 2])
            played.append(moves[len(moves) // 2])
            assert pos.last_move() == played[-1], name
        assert pos.history() == played, name


def test_play_refuses_an_illegal_move_saying_why_and_changes_nothing():
    for name, _ in _engines():
        game = load(name)
        pos = game.new_position(game.DEFAULTS)
        before = pos.to_string()
        bad = 65535
        assert not pos.is_legal(bad), name
        assert message_of(MoveError, pos.play, bad) == pos.why_illegal(bad).lower(), name
        assert pos.to_string() == before and pos.ply == 0, name


def test_legal_actions_are_the_legal_moves_in_their_order():
    for name, engine in _engines():
        game = load(name)
        pos = game.new_position(game.DEFAULTS)
        buf = engine.new_move_buffer()
        n = pos.legal_moves(buf)
        assert pos.legal_actions() == [buf[i] for i in range(n)], name
