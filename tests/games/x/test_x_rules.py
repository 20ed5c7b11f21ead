# dual-runtime
"""X rules (docs/rules/x.md): the spec's test vectors, the rules one by one, records, round
trips over random games and the allocation-free move generation."""

from xobo_testing import message_of, raises, run_with_heap_locked

from xobo.errors import MoveError, PositionError, RecordError
from xobo.games.x.record import format_record, parse_record, record_from_position
from xobo.games.x.rules import (
    MAX_MOVES,
    Position,
    corner_cell,
    new_move_buffer,
    unique_max_player,
)

R, Y, G = 0, 1, 2
# the spec's vectors (XS2, XE2): (position, owners SW SE NW NE, score, winner)
VECTORS = (
    ("rryg/ggrr/ygyr/gyyr", (R, R, R, R), (4, 0, 0), R),
    ("rryr/ygyg/gygg/rryr", (Y, R, R, R), (3, 1, 0), R),
    ("rggr/rryy/gryr/gyyg", (G, Y, R, R), (2, 1, 1), R),
    ("rygy/rgrg/gryr/yygr", (Y, R, R, G), (2, 1, 1), R),
    ("gyrr/ryrg/gryy/rgyg", (G, Y, G, Y), (0, 2, 2), R),
    # the spec only claims SW for this one; the other corners make it 1-1-2, Green's
    ("grggr/ggygg/yrryy/rrryy/gyryr", (R, Y, G, G), (1, 1, 2), G),
)


class Lcg:
    """A tiny deterministic generator, the same under both runtimes."""

    def __init__(self, seed):
        self.x = seed * 2654435761 + 12345

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 8) % n


def random_game(size, seed, plies=None, first=0):
    rng = Lcg(seed)
    pos = Position(size, first)
    buf = new_move_buffer()
    limit = size * size if plies is None else plies
    while pos.ply < limit:
        n = pos.legal_moves(buf)
        pos.apply(buf[rng.below(n)])
    return pos


def owners(pos):
    return tuple(pos.corner_owner(k) for k in range(4))


def test_XS2_XE2_spec_vectors_owners_scores_and_winner():
    for text, own, score, win in VECTORS:
        pos = Position.parse(text)
        assert owners(pos) == own, text
        assert tuple(pos.scores(bytearray(3))) == score, text
        assert pos.winner() == win, text
        assert pos.is_terminal()
        assert all(pos.corner_settled(k) for k in range(4)), text


def test_XS2_farther_chain_beats_the_corner_cell():
    pos = Position.parse("grggr/ggygg/yrryy/rrryy/gyryr")
    assert pos.owner[0] == G + 1  # a1 is Green's
    assert pos.corner_owner(0) == R
    assert [pos.move_text(c) for c in pos.corner_chain(0)] == ["c1", "b2", "a2"]
    cells = bytearray(pos.n_cells)
    assert pos.corner_cells(0, cells) == 6
    assert sorted(pos.move_text(c) for c in range(25) if cells[c]) == [
        "a2", "b2", "b3", "c1", "c2", "c3"]


def test_XS1_corner_cell_alone_is_a_candidate():
    pos = Position.parse("..../..../..../r... y")
    assert owners(pos) == (R, -1, -1, -1)
    assert pos.corner_chain(0) == [0]


def test_XS3_empty_board_corners_open_and_no_winner():
    pos = Position(8)
    assert owners(pos) == (-1, -1, -1, -1)
    assert tuple(pos.scores(bytearray(3))) == (0, 0, 0)
    assert pos.winner() == -1 and not pos.is_terminal() and pos.returns() == (0, 0, 0)
    assert not any(pos.corner_settled(k) for k in range(4))


def test_XS4_corner_cell_not_settled_while_a_path_around_it_is_possible():
    pos = Position.parse("..../..../..../r... y")
    assert pos.corner_owner(0) == R and not pos.corner_settled(0)


def test_XS4_settled_when_the_owner_walls_off_both_edges():
    # Red's wall a4 b3 c2 d1 joins West to South at the far ends: nothing beyond it remains
    pos = Position.parse("r.../.ry./gyr./ggyr y")
    assert pos.corner_owner(0) == R and pos.corner_settled(0)
    # the same wall with a hole: yellow could still go around
    pos = Position.parse("..../.ry./gyr./ggyr r")
    assert pos.corner_owner(0) == G and not pos.corner_settled(0)


def test_XB3_six_hex_neighbours_and_not_the_ne_sw_diagonals():
    pos = Position(8)
    out = bytearray(6)
    d4 = pos.parse_move("d4")
    k = pos.neighbours(d4, out)
    names = sorted(pos.move_text(out[i]) for i in range(k))
    assert names == ["c4", "c5", "d3", "d5", "e3", "e4"]
    assert pos.neighbours(0, out) == 2 and pos.neighbours(7, out) == 3
    assert pos.neighbours(63, out) == 2 and pos.neighbours(56, out) == 3


def test_XB4_corner_cells():
    assert [corner_cell(k, 8) for k in range(4)] == [0, 7, 56, 63]
    assert [corner_cell(k, 5) for k in range(4)] == [0, 4, 20, 24]


def test_XE2_unique_maximum_winner():
    assert unique_max_player((4, 0, 0)) == 0
    assert unique_max_player((1, 3, 0)) == 1
    assert unique_max_player((1, 1, 2)) == 2
    assert unique_max_player((2, 2, 0)) == 2
    assert unique_max_player((0, 2, 2)) == 0
    assert unique_max_player((1, 1, 1)) == -1  # not a final score: no winner


def test_XM1_a_piece_goes_on_an_empty_cell():
    pos = Position(8)
    pos.play(pos.parse_move("d5"))
    assert "taken by red" in message_of(MoveError, pos.parse_move, "d5")
    assert "taken" in message_of(MoveError, pos.play, pos.parse_move("e5") - 1)
    assert "off the 8 x 8 board" in message_of(MoveError, pos.parse_move, "i9")
    assert "not a cell" in message_of(MoveError, pos.parse_move, "5d")
    assert "not a cell" in message_of(MoveError, pos.parse_move, "d0")
    assert "no cell" in pos.why_illegal(64)


def test_XM2_turns_cycle_red_yellow_green_and_undo_restores():
    pos = Position(6)
    start = pos.to_string()
    for expected in (R, Y, G, R):
        assert pos.side == expected
        pos.apply(pos.legal_actions()[0])
    for _ in range(4):
        pos.undo()
    assert pos.to_string() == start and pos.ply == 0
    assert "nothing to undo" in message_of(MoveError, pos.undo)


def test_XM2_first_setting_starts_with_that_player():
    pos = Position(8, Y)
    assert pos.to_string().endswith(" y")
    pos.apply(0)
    assert pos.side == G and pos.owner[0] == Y + 1
    back = Position.parse(pos.to_string(), Y)
    assert back == pos
    assert "impossible piece counts" in message_of(PositionError, Position.parse,
                                                   pos.to_string(), R)


def test_XN2_start_position_and_round_trip():
    start = "......../......../......../......../......../......../......../........ r"
    assert Position(8).to_string() == start
    assert Position.parse(start) == Position(8)
    assert Position.parse("..../..../..../....").side == R  # the side follows from counts


def test_XN2_errors_name_the_problem():
    cases = (
        ("", "empty position"),
        ("..../.../..../.... r", "same length"),
        (".../.../... r", "size must be 4-9"),
        ("........../........../........../........../........../........../........../"
         "........../........../.......... r", "size must be 4-9"),
        ("..../..../.... r", "needs 4 ranks"),
        ("..../..x./..../.... r", "'x' is not a cell"),
        ("..../..../..../yy.. r", "impossible piece counts"),
        ("..../..../..../rr.. r", "impossible piece counts"),
        ("..../..../..../r... r", "'r' cannot be to move"),
        ("..../..../..../r... x", "side to move must be"),
        ("..../..../..../r... y extra", "board and the side to move"),
    )
    for text, words in cases:
        assert words in message_of(PositionError, Position.parse, text), (text, words)


def test_XN1_move_text_round_trip_every_cell():
    for n in (4, 8, 9):
        pos = Position(n)
        for c in range(n * n):
            assert pos.parse_move(pos.move_text(c)) == c


def test_XN1_record_round_trip_and_errors():
    pos = random_game(5, 7)
    rec = record_from_position(pos, [("Red", "ann")])
    text = format_record(rec)
    assert '[Size "5"]' in text and '[Red "ann"]' in text and "1. " in text
    back = parse_record(text)
    assert back.final_position() == pos and back.moves == pos.history()
    assert format_record(back) == text
    assert "move 2 (a1)" in message_of(RecordError, parse_record, "1. a1 a1")
    assert "round number 2." in message_of(RecordError, parse_record, "1. a1 b1 c1 d1")
    assert "line 2" in message_of(RecordError, parse_record, '[Size "4"]\n1. a1 e5')
    assert "moves give" in message_of(RecordError, parse_record, '[Result "Red"]\n\n1. a1')


def test_XN1_record_with_another_first_player():
    pos = random_game(4, 3, first=G)
    text = format_record(record_from_position(pos))
    assert '[First "Green"]' in text
    assert parse_record(text).final_position() == pos


def test_XS2_edge_a_and_edge_b_measures_agree_on_random_boards():
    for seed in range(40):
        for n in (4, 5, 8):
            pos = random_game(n, seed, plies=(seed * 7) % (n * n + 1))
            for k in range(4):
                assert pos.corner_owner(k) == pos.corner_owner_by_edge_b(k), (pos, k)


def test_XS3_XE2_full_boards_four_owned_corners_one_winner():
    for seed in range(30):
        for n in (4, 5, 6, 8, 9):
            pos = random_game(n, seed)
            assert pos.is_terminal()
            assert all(pos.corner_owner(k) >= 0 for k in range(4))
            assert sum(pos.scores(bytearray(3))) == 4
            w = pos.winner()
            assert w >= 0 and pos.returns()[w] == 1 and sum(pos.returns()) == -1


def test_apply_undo_clone_and_notation_round_trips():
    for seed in range(10):
        pos = random_game(8, seed, plies=seed * 6)
        text = pos.to_string()
        copy = pos.clone()
        assert copy == pos and copy.history() == pos.history()
        assert Position.parse(text) == pos
        for m in pos.legal_actions():
            pos.apply(m)
            assert Position.parse(pos.to_string()).to_string() == pos.to_string()
            pos.undo()
            assert pos.to_string() == text
        if copy.ply:
            copy.undo()
            assert copy.ply == pos.ply - 1


def test_footprint_heights_and_occupancy():
    pos = Position(8)
    lifted = bytearray(1)
    added = bytearray(1)
    assert pos.footprint(27, lifted, added) == (0, 1) and added[0] == 27
    assert pos.touch_cell(27) == -1
    pos.apply(27)
    occ = bytearray(64)
    pos.occupancy(occ)
    assert occ[27] == 1 and sum(occ) == 1 and pos.heights[27] == 1 and len(pos.used) == 64


def _exercise(pos, buf, rounds):
    total = 0
    for _ in range(rounds):
        n = pos.legal_moves(buf)
        total += n
        for i in range(n):
            pos.apply(buf[i])
            total += pos.corner_owner(0) + pos.corner_owner(3)
            pos.undo()
    return total


def test_no_allocation_legal_moves_apply_undo_corners():
    pos = random_game(8, 5, plies=30)
    buf = new_move_buffer()
    assert len(buf) == MAX_MOVES
    expected = _exercise(pos, buf, 1)
    assert run_with_heap_locked(_exercise, pos, buf, 2) == 2 * expected
    assert raises(MoveError, Position(4).undo)


def test_XS4_a_settled_corner_keeps_its_owner_to_the_end():
    settled_seen = 0
    for seed in range(12):
        for n in (4, 6, 8):
            pos = random_game(n, seed)
            final = owners(pos)
            # walk back: a corner settled at any ply has the final owner
            while pos.ply:
                pos.undo()
                for k in range(4):
                    if pos.corner_settled(k):
                        settled_seen += 1
                        assert pos.corner_owner(k) == final[k], (pos, k)
    assert settled_seen > 100  # the property was exercised before the board filled


def test_game_description_area_positions_and_settings():
    from xobo.games import load

    game = load("x")
    assert game.area({"size": 6}) == (6, 6)
    assert game.new_position(game.DEFAULTS).to_string() == Position(8).to_string()
    assert game.parse_position("..../..../..../.... y", {"size": 4, "first": "yellow"}).side == 1
    assert "size setting is 8" in message_of(PositionError, game.parse_position,
                                             "..../..../..../....", game.DEFAULTS)
