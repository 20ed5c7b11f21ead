# dual-runtime
"""The test game's rules (docs/rules/tiny.md) and its computer player."""

from xobo_testing import message_of, raises

from xobo.errors import MoveError, PositionError
from xobo.games import load
from xobo.games.tiny import ai as computer
from xobo.games.tiny.position import LINES, Position, cell_name, new_move_buffer


def _play(pos, *moves):
    for t in moves:
        pos.play(pos.parse_move(t))
    return pos


def test_TB1_cells_are_named_from_a1_at_the_bottom_left():
    assert [cell_name(c) for c in range(9)] == ["a1", "b1", "c1", "a2", "b2", "c2",
                                                "a3", "b3", "c3"]
    assert load("tiny").area({"first": "x"}) == (3, 3)


def test_TB2_pieces_are_identical_on_the_board_owners_come_from_the_moves():
    pos = _play(Position(), "b2", "a1")
    assert list(pos.heights) == [1, 0, 0, 0, 1, 0, 0, 0, 0]
    assert list(pos.owner) == [2, 0, 0, 0, 1, 0, 0, 0, 0]


def test_TM1_a_move_fills_an_empty_cell_and_a_taken_cell_is_refused():
    pos = Position()
    buf = new_move_buffer()
    assert pos.legal_moves(buf) == 9
    _play(pos, "b2")
    assert pos.legal_actions() == [0, 1, 2, 3, 5, 6, 7, 8]
    assert message_of(MoveError, pos.parse_move, "b2") == "b2 is taken (by x)"
    assert "b2 is taken" in message_of(MoveError, pos.play, 4)
    assert "no move" in pos.why_illegal(9)


def test_TM2_players_alternate_and_the_setting_first_starts():
    game = load("tiny")
    pos = game.new_position({"first": "o"})
    assert pos.side == 1
    _play(pos, "a1")
    assert pos.side == 0 and pos.to_string() == ".../.../o.. x"
    assert game.new_position(game.DEFAULTS).side == 0


def test_TE1_three_in_a_row_wins_on_each_of_the_eight_lines():
    for i in range(0, 24, 3):
        line = (LINES[i], LINES[i + 1], LINES[i + 2])
        others = [c for c in range(9) if c not in line and c != 4][:2]
        if 4 in line:
            others = [c for c in range(9) if c not in line][:2]
        pos = Position()
        for k in range(3):
            pos.play(line[k])  # x
            if k < 2:
                pos.play(others[k])  # o
        assert pos.winner() == 0, (line, pos.to_string())
        assert pos.is_terminal() and pos.returns() == (1, -1)
        assert pos.legal_actions() == []


def test_TE1_the_game_ends_at_the_first_line():
    pos = _play(Position(1), "a1", "b1", "a2", "b2", "a3")
    assert pos.winner() == 1 and pos.returns() == (-1, 1)
    assert "the game is over: o has three in a row" in message_of(MoveError, pos.parse_move, "c3")


def test_TE2_a_full_board_without_a_line_is_a_draw():
    pos = _play(Position(), "b2", "a1", "c3", "a3", "a2", "c2", "b1", "b3", "c1")
    assert pos.to_string() == "oox/xxo/oxx o"
    assert pos.winner() == -1 and pos.is_terminal() and pos.returns() == (0, 0)
    assert pos.legal_moves(new_move_buffer()) == 0


def test_TE2_a_game_with_moves_left_and_no_line_goes_on():
    pos = _play(Position(), "b2", "a1")
    assert not pos.is_terminal() and pos.returns() == (0, 0) and pos.winner() == -1


def test_TN1_move_notation_and_its_errors():
    pos = Position()
    assert pos.parse_move(" c1 ") == 2 and pos.move_text(2) == "c1"
    assert "empty move" in message_of(MoveError, pos.parse_move, "")
    for bad in ("d1", "a4", "b", "b22", "B2", "2b"):
        assert "is not a cell" in message_of(MoveError, pos.parse_move, bad), bad


def test_TN2_position_round_trip():
    for text in (".../.../... x", ".../.../... o", "x.o/.x./... o", "xxx/oo./... o",
                 "oox/xxo/oxx o"):
        assert Position.parse(text).to_string() == text


def test_TN2_position_errors_say_what_is_wrong():
    cases = (
        ("x.o/.x./...", "a position has 2 fields"),
        ("x.o/.x. o", "the board has 3 ranks separated by '/', got 2"),
        ("x.o/.x/... o", "rank 2 has 2 cells, expected 3"),
        ("x.o/.X./... o", "b2: 'x' is not a piece"),
        ("x.o/.x./... y", "the side to move must be 'x' or 'o', got 'y'"),
        ("xxx/.../... o", "x has 3 pieces and o 0"),
        ("x../.../... x", "x has more pieces than o, so o is to move, not x"),
        ("xxx/ooo/x.. o", "x and o both have three in a row"),
        ("xxx/oo./o.. x", "x has three in a row but is to move"),
    )
    for text, words in cases:
        assert words in message_of(PositionError, Position.parse, text), (text, words)


def test_undo_is_exact_and_refused_at_the_start():
    pos = Position()
    assert "nothing to undo" in message_of(MoveError, pos.undo)
    _play(pos, "b2", "a3")
    pos.undo()
    assert pos.to_string() == ".../.x./... o" and pos.history() == [4] and pos.last_move() == 4


def test_computer_perfect_takes_a_win_and_blocks_a_line():
    assert computer.choose_move(Position.parse("xx./oo./... x"), "perfect") == 8  # c3 wins
    assert computer.choose_move(Position.parse("x../oo./x.. x"), "perfect") == 5  # c2 blocks


def test_computer_perfect_against_itself_always_draws():
    for seed in range(4):
        pos = Position()
        while not pos.is_terminal():
            pos.apply(computer.choose_move(pos, "perfect", seed=seed + pos.ply))
        assert pos.winner() == -1, pos.to_string()


def test_computer_perfect_never_loses_to_random():
    for seed in range(16):
        pos = Position(seed % 2)  # either player starts
        perfect = (seed // 2) % 2  # and either plays perfect
        while not pos.is_terminal():
            level = "perfect" if pos.side == perfect else "random"
            pos.apply(computer.choose_move(pos, level, seed=seed * 10 + pos.ply))
        assert pos.winner() in (-1, perfect), pos.to_string()


def test_computer_levels_seed_poll_and_errors():
    pos = Position.parse("x../.o./... x")
    assert computer.choose_move(pos, "random", seed=5) == computer.choose_move(pos, "random",
                                                                               seed=5)
    assert computer.HINT_LEVEL in computer.LEVELS
    assert "unknown level" in message_of(ValueError, computer.choose_move, pos, "strong")
    raises(computer.SearchCancelled, computer.choose_move, pos, "perfect", 0, 1800,
           lambda: True)
    over = Position.parse("xxx/oo./... o")
    assert "the game is over" in message_of(ValueError, computer.choose_move, over, "perfect")
    assert pos.to_string() == "x../.o./... x"
    computer.release()
