# dual-runtime
"""Brochs rules (docs/rules/brochs.md), one test per rule or behaviour; runs under MicroPython
too."""

from xobo_testing import message_of, run_with_heap_locked

from games.brochs.util import board
from xobo.errors import MoveError, PositionError, RecordError
from xobo.games.brochs.cli import listed_moves
from xobo.games.brochs.record import format_record, parse_record, record_from_position
from xobo.games.brochs.rules import (
    ACCEPT,
    ASK,
    BLACK,
    DECLARE,
    DROP,
    MAX_MOVES,
    N_CELLS,
    NEIGHBOUR,
    NO_QUADRANT,
    PASS,
    QUADRANT,
    REFUSE,
    REMOTE,
    RESIGN,
    SE,
    WHITE_P,
    Position,
    as_master_drop,
    is_master_drop,
    is_move,
    moves_only,
    new_move_buffer,
    parse_cell,
)
from xobo.rulescli import perft

START = (".....wwwww...../.............../.............../...w.......w.../.............../"
         "w.............w/w.............w/w.............w/w.............w/w.............w/"
         ".............../...w.......w.../.............../.............../.....wwwww....."
         " b 12 1 -")


def texts(pos):
    return sorted(pos.move_text(m) for m in pos.legal_actions())


def sq(name):
    return parse_cell(name)


def play(pos, *moves):
    for t in moves:
        pos.play(pos.parse_move(t))
    return pos


# ------------------------------------------------------------------ board (BB1-BB5)

def test_BB1_BB4_BN2_start_position_is_the_spec_string():
    pos = Position()
    assert pos.to_string() == START
    assert Position.parse(START).to_string() == START
    assert pos.on_board(WHITE_P) == 24 and pos.pieces_left(BLACK) == 13
    assert sq("a1") == 0 and sq("o15") == 224


def test_BB2_quadrants_and_the_central_cross():
    assert sum(1 for c in range(N_CELLS) if QUADRANT[c] == NO_QUADRANT) == 29
    assert QUADRANT[sq("h8")] == NO_QUADRANT and QUADRANT[sq("h2")] == NO_QUADRANT
    assert [QUADRANT[sq(n)] for n in ("a15", "o15", "a1", "o1")] == [0, 1, 2, 3]


def test_BB3_donjons_default_and_the_setting():
    assert sorted(Position().donjons) == sorted(sq(n) for n in ("d4", "l4", "d12", "l12"))
    assert sorted(Position(donjon=2).donjons) == sorted(sq(n) for n in ("b2", "n2", "b14",
                                                                        "n14"))
    assert "donjon" in message_of(PositionError, Position, 8)


def test_BB5_white_may_start():
    pos = Position(first=WHITE_P)
    assert pos.side == WHITE_P
    assert "*e5" not in texts(pos) and "f1-f2" in texts(pos)


# ------------------------------------------------------------------ moves (BM1-BM4)

def test_BM1_drops_of_men_and_master_on_every_empty_square():
    pos = Position()
    ms = pos.legal_actions()
    assert sum(1 for m in ms if DROP <= m < DROP + N_CELLS) == 201
    assert sum(1 for m in ms if is_master_drop(m)) == 201
    play(pos, "M*e5", "d4-d5")  # the donjon d4 is now empty: Black may drop on it
    assert "*d4" in texts(pos) and "M*f5" not in texts(pos)


def test_BM1_no_drop_once_the_reserve_is_empty():
    pos = board(b="a1", m="a2", men=0, w="o15")
    assert "no black man left" in message_of(MoveError, pos.parse_move, "*e5")
    assert "not in reserve" in message_of(MoveError, pos.parse_move, "M*e5")


def test_BM2_black_jumps_black_pieces_but_not_white_ones():
    pos = board(b="e5 e6", w="e9", m="a1")
    t = texts(pos)
    assert "e5-e7" in t and "e5-e8" in t and "e5-e10" not in t
    assert "jump black pieces only" in message_of(MoveError, pos.parse_move, "e5-e10")


def test_BM2_white_jumps_nothing_and_nobody_moves_diagonally():
    pos = board(w="e5 e7", b="a1", side="w")
    assert "e5-e6" in texts(pos) and "e5-e8" not in texts(pos)
    assert "cannot jump" in message_of(MoveError, pos.parse_move, "e5-e8")
    assert "rank or file" in message_of(MoveError, pos.parse_move, "e5-f6")


def test_BM2_an_empty_donjon_is_an_ordinary_square():
    pos = board(w="a4", b="o15", side="w")
    assert "a4-d4" in texts(pos) and "a4-g4" in texts(pos)


def test_BM3_remote_capture_with_black_choosing_the_piece():
    pos = board(b="d12", m="a15", w="l4 m3 h2 i9")
    remote = sorted(pos.move_text(m) for m in pos.legal_actions() if m & 0xFF00 == REMOTE)
    assert remote == ["!l4", "!m3"]  # SE only; h2 is on the central cross (BB2)
    play(pos, "!l4")
    assert pos.piece(sq("l4")) == 0 and pos.side == WHITE_P


def test_BM3_remote_capture_needs_the_master_on_the_board_and_an_empty_quadrant():
    assert "master on the board" in message_of(
        MoveError, board(b="d12", w="m3").parse_move, "!m3")
    pos = board(b="d12 n2", m="a15", w="m3")
    assert "no black piece in se" in message_of(MoveError, pos.parse_move, "!m3")
    pos = board(b="d12 h2", m="a15", w="m3")  # BR4: the central cross blocks nothing
    assert pos.is_legal(pos.parse_move("!m3"))


def test_BM3_remote_capture_with_white_choosing_the_piece():
    pos = board(b="d12", m="a15", w="l4 m3", imprecation="white")
    assert "!SE" in texts(pos) and "!m3" not in texts(pos)
    play(pos, "!SE")
    assert pos.side == WHITE_P and pos.to_string().endswith(" !SE")
    assert texts(pos) == ["!l4", "!m3"]
    again = Position.parse(pos.to_string(), imprecation="white")
    assert again.to_string() == pos.to_string()
    play(pos, "!m3")
    assert pos.side == WHITE_P and pos.pick < 0 and pos.piece(sq("m3")) == 0
    assert "l4-l5" in texts(pos)
    pos.undo()
    pos.undo()
    assert pos.side == BLACK and pos.piece(sq("m3")) != 0


def test_BM4_BR5_both_sides_may_pass_at_any_turn():
    pos = Position()
    for _ in range(6):
        assert pos.is_legal(PASS)
        pos.play(PASS)
    assert not pos.is_terminal() and pos.to_string() == START


# ------------------------------------------------------------------ captures (BC1-BC4)

def test_BC1_custodian_capture_by_the_arriving_piece():
    pos = board(w="e5", b="e6")
    assert pos.move_text(pos.parse_move("*e4")) == "*e4xe5"
    play(pos, "*e4")
    assert pos.piece(sq("e5")) == 0


def test_BC1_a_piece_walking_between_two_enemies_is_safe():
    pos = board(w="a5", b="e4 e6", side="w")
    play(pos, "a5-e5")
    assert pos.owner(sq("e5")) == WHITE_P


def test_BC1_BR1_the_edge_never_captures():
    pos = board(w="a5")
    assert pos.move_text(pos.parse_move("*b5")) == "*b5"


def test_BC1_BE1_white_captures_the_master_and_wins():
    pos = board(w="f6 a4", m="f5", side="w")
    assert pos.move_text(pos.parse_move("a4-f4")) == "a4-f4xf5"
    play(pos, "a4-f4")
    assert pos.is_terminal() and pos.master_captured() and pos.winner() == WHITE_P
    assert pos.legal_actions() == []  # BR7


def test_BC2_the_master_captures_diagonally():
    pos = board(w="f6", b="g7")
    assert pos.move_text(pos.parse_move("M*e5")) == "M*e5xf6"
    assert pos.move_text(pos.parse_move("*e5")) == "*e5"


def test_BC2_BR3_a_man_captures_diagonally_with_the_master_beyond():
    pos = board(w="f6", m="g7")
    assert pos.move_text(pos.parse_move("*e5")) == "*e5xf6"
    pos = board(w="f6", m="g7", master_diagonal="master-moves")
    assert pos.move_text(pos.parse_move("*e5")) == "*e5"


def test_BC2_white_never_captures_diagonally():
    pos = board(w="g7 a5", b="f6", side="w")
    assert pos.move_text(pos.parse_move("a5-e5")) == "a5-e5"


def test_BC3_a_donjon_occupant_falls_to_two_pairs():
    pos = board(w="d4", b="c4 e4 d5")
    assert pos.move_text(pos.parse_move("*d3")) == "*d3xd4"
    pos = board(w="d4", b="c4")
    assert pos.move_text(pos.parse_move("*e4")) == "*e4"  # one pair only; BC1 does not apply


def test_BC3_BR2_diagonal_pairs_count_and_white_captures_this_way_too():
    pos = board(w="d4", b="c3 e5 c5")
    assert pos.move_text(pos.parse_move("*e3")) == "*e3xd4"
    pos = board(b="d4", w="c3 e5 c5 a3", m="o15", side="w")
    assert pos.move_text(pos.parse_move("a3-b3")) == "a3-b3"  # b3 ends no flanked line
    pos = board(b="d4", w="c3 e5 c5 e1", m="o15", side="w")
    assert pos.move_text(pos.parse_move("e1-e3")) == "e1-e3xd4"


def test_BC4_BR8_several_captures_at_once_in_string_order():
    pos = board(w="e5 g5 f10", b="d5 h5 f11", m="o1")
    m = pos.parse_move("*f5")
    assert pos.move_text(m) == "*f5xe5xg5"
    pos = board(w="e9 f10", b="e8 g10", m="o1")
    assert pos.move_text(pos.parse_move("*e10")) == "*e10xe9xf10"


# ------------------------------------------------------------------ end (BE1-BE3, BR6)

def test_BE1_black_takes_the_four_donjons():
    pos = board(b="d4 l4 d12", m="h8", w="a1")
    play(pos, "*l12")
    assert pos.is_terminal() and pos.end_reason() == "four donjons"
    assert pos.winner() == BLACK and pos.returns() == (1, -1)


def test_BE1_BE3_the_last_white_piece_is_captured():
    pos = board(w="e5", b="e6", m="h8")
    play(pos, "*e4")
    assert pos.end_reason() == "last white piece captured" and pos.winner() == BLACK


def test_BE1_BR6_submission_accepted_the_proposer_wins():
    pos = Position()
    play(pos, "(s?)")
    assert pos.side == WHITE_P and sorted(pos.legal_actions()) == [ACCEPT, REFUSE]
    assert "must answer" in message_of(MoveError, pos.parse_move, "f1-f2")
    play(pos, "(s!)")
    assert pos.is_terminal() and pos.winner() == BLACK and pos.submission() == "wR"


def test_BR6_refused_without_countdown_no_second_question_this_turn():
    pos = play(Position(), "(s?)", "(pass!)")
    assert pos.side == BLACK and pos.submission() == "bx"
    assert "already asked" in message_of(MoveError, pos.parse_move, "(s?)")
    play(pos, "*e5")
    assert pos.submission() == "-" and pos.is_legal(ASK)


def test_BE1_BR6_refused_countdown_ends_after_four_rounds():
    pos = board(w="a1 a3", b="c1 c15", m="h8")
    play(pos, "(s?)", "(pass!)")
    assert pos.submission() == "b4"
    assert "countdown is running" in message_of(MoveError, pos.parse_move, "(s?)")
    for k in range(4):
        play(pos, "--")
        assert pos.submission() == "b%d" % (4 - k)
        play(pos, "--")
    assert pos.submission() == "b0" and pos.is_terminal()
    assert pos.end_reason() == "submission countdown" and pos.winner() == BLACK  # 3 v 2


def test_BR6_a_drop_or_a_capture_cancels_the_countdown():
    pos = board(w="a1 a3", b="c1", m="h8")
    play(pos, "(s?)", "(pass!)", "--", "a3-a4")
    assert pos.submission() == "b3"
    play(pos, "*e5")
    assert pos.submission() == "-"


def test_BE3_the_order_of_the_winner_tests():
    def end(**kw):
        return board(sub="b0", **kw).winner()
    assert end(w="d4 a1", m="h8", b="b2 b3 b5") == WHITE_P  # more donjons
    assert end(w="a1 a2 a3", m="h8", b="d4") == BLACK  # more donjons, master free
    assert end(w="a1 a2 a3", m="h8", b="b2") == WHITE_P  # more pieces
    assert end(w="a1 a2", m="h8", b="b2") == -1  # a draw
    assert board(w="a1", b="b2", master=0, sub="b0").winner() == WHITE_P  # master captured


def test_BE1_a_player_resigns():
    pos = Position()
    pos.play(RESIGN)
    assert pos.winner() == WHITE_P and pos.end_reason() == "resigned"
    assert "game is over" in message_of(MoveError, pos.play, PASS)


# ------------------------------------------------------------------ notation (BN1, BN2)

def test_BN1_move_texts_round_trip():
    pos = board(w="e5 l4 m3", b="e6 d12", m="a15")
    cases = {"*e4xe5": "*e4xe5", "*e4": "*e4xe5", "e6-e10": "e6-e10",
             "!m3": "!m3", "--": "--", "(s?)": "(s?)", "(resign)": "(resign)"}
    for text, shown in cases.items():
        assert pos.move_text(pos.parse_move(text)) == shown
    pos = board(w="e5", b="e6")
    assert pos.move_text(pos.parse_move("M*e4")) == "M*e4xe5"


def test_BN1_wrong_captures_and_bad_moves_are_named():
    pos = board(w="e5", b="e6")
    assert "captures e5, not e7" in message_of(MoveError, pos.parse_move, "*e4xe7")
    assert "no move" in message_of(MoveError, pos.parse_move, "zz")
    assert "no square" in message_of(MoveError, pos.parse_move, "*p5")
    assert "occupied" in message_of(MoveError, pos.parse_move, "*e5")


def test_BN2_BR7_bad_positions_are_rejected_with_reasons():
    cases = (
        (START.replace(".....wwwww....", "....wwwwww....", 1), "24"),
        (START.replace("...w.......w...", "...m.......m...", 1), "more than one master"),
        (START.replace(" 12 1 -", " 13 1 -"), "0-12"),
        (START.replace("w.............w/", "w.............w/bbbbbbbbbbbbb../", 1)
         .replace("/.............../...w", "/...w", 1), "12 men"),
        (START.replace(" b 12 1", " x 12 1"), "side to move"),
        (START.replace(" -", " b9"), "submission"),
        (START.replace(".....wwwww..... b", ".....wwwww.... b"), "rank 1 has 14"),
        (START.replace("...w.......w.../", "...m.......w.../", 1), "in reserve at once"),
        (START.replace(" -", " -", 1).replace(" b 12", " w 12").replace(" -", " w?"),
         "answered by the other side"),
    )
    for text, words in cases:
        assert words in message_of(PositionError, Position.parse, text), (text, words)


# ------------------------------------------------------------------ the board interface

def test_footprints_a_master_drop_needs_the_master_button():
    pos = board(w="e5", b="e6")
    lifted = bytearray(10)
    added = bytearray(10)
    a = pos.parse_move("*e4")
    b = pos.parse_move("M*e4")
    assert pos.footprint(a, lifted, added) == (1, 1) and lifted[0] == sq("e5")
    assert pos.footprint(b, lifted, added) == (1, 1) and added[0] == sq("e4")
    assert is_master_drop(b) and not is_master_drop(a) and as_master_drop(a) == b
    assert pos.touch_cell(a) == -1 and pos.touch_cell(b) == -1


def test_footprints_of_moves_remote_captures_and_buttons():
    pos = board(b="d12 c4 e6", m="a15", w="m3 e5", imprecation="white")
    lifted = bytearray(10)
    added = bytearray(10)
    assert pos.footprint(pos.parse_move("c4-e4"), lifted, added) == (2, 1)
    assert sorted(lifted[:2]) == [sq("c4"), sq("e5")] and added[0] == sq("e4")
    declare = DECLARE + SE
    assert pos.footprint(declare, lifted, added) == (0, 0)
    assert pos.touch_cell(declare) == sq("d12")
    assert pos.button_move("pass") == PASS and pos.button_move("accept") == -1
    pos.play(declare)
    assert pos.footprint(REMOTE + sq("m3"), lifted, added) == (1, 0) and lifted[0] == sq("m3")


def test_targets_of_a_lifted_piece():
    pos = board(b="e5 e6", w="e9", m="a1")
    out = bytearray(N_CELLS)
    n = pos.targets(sq("e5"), out)
    assert out[sq("e7")] and out[sq("e8")] and not out[sq("e9")] and n == sum(out)


def test_legal_moves_allocate_nothing():
    pos = board(b="d12 e6 e7", m="a15", w="m3 e5 l4")
    buf = new_move_buffer()
    expected = pos.legal_moves(buf)
    assert run_with_heap_locked(pos.legal_moves, buf) == expected
    start = Position()
    assert run_with_heap_locked(start.legal_moves, buf) == 405 <= MAX_MOVES


def test_br6_be1_asking_and_resigning_are_actions_not_moves():
    # the board's legal_moves keeps them (its buttons); moves_only and perft leave them out
    start = Position()
    buf = new_move_buffer()
    n = start.legal_moves(buf)
    kept = run_with_heap_locked(moves_only, buf, n)
    assert kept == 403 and n - kept == 2
    assert [buf[i] for i in range(kept)] == [m for m in start.legal_actions() if is_move(m)]
    assert not is_move(ASK) and not is_move(RESIGN)
    assert is_move(PASS) and is_move(ACCEPT) and is_move(REFUSE)
    assert perft(start, 1, listed_moves) == 403


# ------------------------------------------------------------------ random games, records

class _Lcg:
    def __init__(self, seed):
        self.x = seed * 2654435 + 12345

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x3FFFFFFF
        return (self.x >> 8) % n


def _random_game(seed, imprecation, plies):
    rng = _Lcg(seed)
    pos = Position(imprecation=imprecation)
    occ = bytearray(N_CELLS)
    lifted = bytearray(10)
    added = bytearray(10)
    trail = []
    for _ in range(plies):
        ms = [m for m in pos.legal_actions() if m != RESIGN and m != ACCEPT]
        if not ms:
            break
        m = ms[rng.below(len(ms))]
        text = pos.move_text(m)
        assert pos.parse_move(text) == m, text
        s = pos.to_string()
        assert Position.parse(s, imprecation=imprecation).to_string() == s
        pos.occupancy(occ)
        before = bytes(occ)
        nl, na = pos.footprint(m, lifted, added)
        trail.append(s)
        pos.play(m)
        pos.occupancy(occ)
        changed = sorted(c for c in range(N_CELLS) if occ[c] != before[c])
        assert changed == sorted(list(lifted[:nl]) + list(added[:na])), text
    return pos, trail


def test_random_games_undo_notation_and_footprints_agree():
    for seed, imprecation in ((1, "black"), (2, "white")):
        pos, trail = _random_game(seed, imprecation, 120)
        c = pos.clone()
        assert c.to_string() == pos.to_string() and c.history() == pos.history()
        for s in reversed(trail):
            pos.undo()
            assert pos.to_string() == s
        assert "nothing to undo" in message_of(MoveError, pos.undo)


def test_the_footprint_of_every_legal_move_is_what_playing_it_changes():
    # drops next to no enemy take the short way (no capture scan): every legal move of
    # the positions of random games, its footprint against the board after playing it
    lifted = bytearray(10)
    added = bytearray(10)
    occ = bytearray(N_CELLS)
    buf = new_move_buffer()
    for seed, imprecation in ((3, "black"), (4, "white")):
        game, _ = _random_game(seed, imprecation, 60)
        pos = Position(imprecation=imprecation)
        for ply, m in enumerate(game.history()):
            if ply % 6 == 0:
                pos.occupancy(occ)
                before = bytes(occ)
                for i in range(pos.legal_moves(buf)):
                    nl, na = pos.footprint(buf[i], lifted, added)
                    pos.play(buf[i])
                    pos.occupancy(occ)
                    pos.undo()
                    changed = sorted(c for c in range(N_CELLS) if occ[c] != before[c])
                    assert changed == sorted(list(lifted[:nl]) + list(added[:na])), \
                        pos.move_text(buf[i])
            pos.play(m)


def test_neighbour_table_steps_one_square_in_each_direction():
    steps = ((0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (1, -1), (-1, -1), (-1, 1))
    for c in range(N_CELLS):
        f, r = c % 15, c // 15
        for d, (df, dr) in enumerate(steps):
            inside = 0 <= f + df < 15 and 0 <= r + dr < 15
            assert NEIGHBOUR[c * 8 + d] == ((r + dr) * 15 + f + df if inside else 255)


def test_BN1_records_round_trip():
    pos, _ = _random_game(3, "white", 80)
    rec = record_from_position(pos)
    text = format_record(rec)
    again = parse_record(text)
    assert again.moves == rec.moves and format_record(again) == text


def test_BN1_record_errors_name_the_line_and_the_move():
    text = '[Game "Brochs"]\n\n1. *e5 ; f1-f2 2. *e5\n'
    msg = message_of(RecordError, parse_record, text)
    assert "line 3, move 3 ('*e5')" in msg and "occupied" in msg
    assert "donjons" in message_of(RecordError, parse_record, '[Donjons "d4 l4 d12 k12"]\n')
    assert "numbered 3" in message_of(RecordError, parse_record, "1. *e5 ; f1-f2 3. *e6\n")
    text = '[Result "white"]\n\n1. (s?) (s!)\n'
    assert "result" in message_of(RecordError, parse_record, text)
