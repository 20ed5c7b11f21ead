# dual-runtime
"""Move inference (board.md "From occupancy to moves"), on the engine alone, in virtual time.

Positions used:

- SPREAD4: a stack of 4 on e5, singles on e4, e2 and d4: it can be spread South (captures e4
  and e2) or South-West (captures d4); no other direction has a capture (M3).
- VOINA: EW threatens e5 (a5-d5 and f5-i5 singles), so NS is under Voina (V2) and may
  regroup a5-d5, f5-i5 and the 3-run a1-c1 (M2).
"""

from xobo.games.xobo.rules.geometry import parse_cell
from xobo.games.xobo.rules.notation import format_move
from xobo.games.xobo.rules.position import FOOTPRINT_MAX, MAX_MOVES, Position
from xobo.runtime import inference as I
from xobo.runtime.inference import Inference

SPREAD4 = "........./........./........./........./....4..../...11..../........./....1..../" \
    "......... ns 29 0 0"
VOINA = "........./........./........./........./1111.1111/........./........./........./" \
    "111...... ns 25 0 0"
SETTLE = 1000


class Hand:
    """A position, its inference and the occupancy the switches see, in virtual time."""

    def __init__(self, n3, variant="xobo"):
        self.pos = Position.parse(n3, variant)
        self.inf = Inference(81, FOOTPRINT_MAX, MAX_MOVES, SETTLE)
        self.inf.set_position(self.pos)
        self.occ = bytearray(81)
        self.pos.occupancy(self.occ)
        self.now = 0
        self.inf.observe(self.occ, self.now)

    def set(self, cell, v):
        self.occ[parse_cell(cell)] = v
        self.now += 50
        self.inf.observe(self.occ, self.now)

    def lift(self, *cells):
        for c in cells:
            self.set(c, 0)

    def put(self, *cells):
        for c in cells:
            self.set(c, 1)

    def wait(self, ms):
        """Poll every 10 ms; returns the notation of a committed move, or None."""
        end = self.now + ms
        while self.now < end:
            self.now += 10
            m = self.inf.poll(self.now)
            if m >= 0:
                return format_move(m)
        return None

    def state(self):
        return self.inf.state_name()

    def candidates(self):
        inf = self.inf
        return sorted(format_move(inf.moves[inf.cand[j]]) for j in range(inf.n_cand))

    def fix(self):
        inf = self.inf
        fill = [c for c in range(81) if inf.fill[c]]
        clear = [c for c in range(81) if inf.clear[c]]
        return fill, clear


def test_nothing_happening_is_match():
    h = Hand(SPREAD4)
    assert h.state() == "match"
    assert h.wait(5000) is None


def test_M1_placement_commits_after_the_settle_time_not_before():
    h = Hand(SPREAD4)
    h.put("a9")
    assert h.state() == "complete"
    assert h.wait(SETTLE - 100) is None
    assert h.wait(200) == "a9"


def test_M1_ok_button_commits_a_complete_move_at_once():
    h = Hand(SPREAD4)
    h.put("a9")
    assert format_move(h.inf.confirm()) == "a9"


def test_ok_button_commits_nothing_while_a_move_is_only_in_progress():
    h = Hand(SPREAD4)
    h.lift("e5")
    assert h.inf.confirm() == -1


def test_noise_a_cube_lifted_and_put_back_never_commits():
    h = Hand(SPREAD4)
    h.lift("d4")
    h.wait(300)
    h.put("d4")
    assert h.state() == "match"
    assert h.wait(5000) is None


def test_noise_a_cube_brushing_an_empty_cell_shorter_than_settle_never_commits():
    h = Hand(SPREAD4)
    h.put("a9")
    assert h.wait(400) is None
    h.lift("a9")
    assert h.wait(5000) is None
    assert h.state() == "match"


def test_noise_a_chattering_empty_cell_never_stays_long_enough():
    h = Hand(SPREAD4)
    for _ in range(40):
        h.put("b8")
        assert h.wait(300) is None
        h.lift("b8")
        assert h.wait(300) is None


def test_M3_a_lifted_stack_is_in_progress_with_its_legal_spreads_only():
    h = Hand(SPREAD4)
    h.lift("e5")
    assert h.state() == "progress"
    assert h.candidates() == ["e5xd4", "e5xe4"]  # SW (1 capture) and S (2 captures)
    assert h.wait(5000) is None


def test_M3_the_spread_narrows_to_the_direction_the_cubes_go():
    h = Hand(SPREAD4)
    h.lift("e5")
    h.put("e3")
    assert h.candidates() == ["e5xe4"]
    h.put("e1")
    assert h.state() == "progress"  # the captured pairs on e4 and e2 are still there


def test_M4_spread_commits_only_once_the_captured_pairs_are_off():
    h = Hand(SPREAD4)
    h.lift("e5")
    h.put("e3", "e1")  # cubes also went onto e4 and e2 (still occupied: invisible)
    assert h.wait(3000) is None
    h.lift("e4")
    assert h.state() == "progress"
    h.lift("e2")
    assert h.state() == "complete"
    assert h.wait(1100) == "e5xe4"


def test_M4_captured_pairs_taken_off_first_then_the_empty_targets():
    h = Hand(SPREAD4)
    h.lift("e5")
    h.lift("e4")
    h.lift("e2")
    assert h.state() == "progress"
    h.put("e3")
    h.put("e1")
    assert h.wait(1100) == "e5xe4"


def test_M3_stack_taken_cube_by_cube_waits_the_longer_settle_time():
    # e5 keeps a cube until the last one is taken: a cube on e3 alone looks like a placement,
    # but it is also a part of the longer spread e5xe4, so the board waits
    h = Hand(SPREAD4)
    h.put("e3")
    assert h.state() == "wait-longer"
    assert h.wait(2500) is None
    h.put("e1")
    h.lift("e5")
    assert h.state() == "progress"
    h.lift("e4", "e2")
    assert h.wait(1100) == "e5xe4"


def test_longer_settle_time_commits_the_placement_if_nothing_follows():
    h = Hand(SPREAD4)
    h.put("e3")
    assert h.wait(2800) is None
    assert h.wait(400) == "e3"


def test_M2_regroup_of_a_3_run_onto_its_east_end():
    h = Hand(VOINA)
    h.lift("a1", "b1")
    assert h.state() == "complete"
    assert h.wait(1100) == "a1->c1"


def test_M2_regroup_of_a_3_run_onto_its_west_end_is_told_by_the_cells_lifted():
    h = Hand(VOINA)
    h.lift("b1", "c1")
    assert h.wait(1100) == "c1->a1"


def test_M2_three_of_four_regrouped_waits_for_the_longer_move():
    h = Hand(VOINA)
    h.lift("a5", "b5")
    assert h.state() == "wait-longer"
    assert h.wait(2000) is None
    h.lift("c5")
    assert h.state() == "complete"
    assert h.wait(1100) == "a5->d5"


def test_M2_three_of_four_commits_after_the_longer_settle_time():
    h = Hand(VOINA)
    h.lift("a5", "b5")
    assert h.wait(2900) is None
    assert h.wait(200) == "a5->c5"


def test_M2_ambiguous_regroup_waits_until_the_stack_cell_is_touched():
    # b5, c5 lifted: a5<-(b5,c5) or (b5,c5)->d5: the switches cannot tell
    h = Hand(VOINA)
    h.lift("b5", "c5")
    assert h.state() == "progress"
    assert h.inf.ambiguous == 2
    assert h.wait(5000) is None
    h.lift("d5")  # the player touches the stack cell d5
    h.put("d5")
    assert h.wait(3100) == "b5->d5"


def test_M2_touch_that_completes_the_longer_regroup_waits_then_decides_the_touched_stack():
    # b5, c5 lifted (ambiguous); lifting d5 makes {b5, c5, d5} = d5->a5, a complete move in
    # the other direction: it used to commit after the settle time (QA's rg2). A touch in
    # progress waits the longer settle time and, when d5 comes back, decides b5,c5->d5.
    h = Hand(VOINA)
    h.lift("b5", "c5")
    assert h.wait(4000) is None
    h.lift("d5")
    assert h.state() == "wait-longer"
    assert h.inf.touch == parse_cell("d5")
    assert h.wait(1100) is None  # formerly d5->a5 here
    h.put("d5")
    assert h.inf.touch == -1
    assert h.wait(3100) == "b5->d5"


def test_M2_touch_held_for_the_longer_settle_time_is_the_longer_regroup():
    h = Hand(VOINA)
    h.lift("b5", "c5")
    h.lift("d5")  # really the regroup of four onto a5
    assert h.wait(2900) is None
    assert h.wait(200) == "d5->a5"


def test_M2_touch_of_the_other_stack_cell_decides_the_other_regroup():
    h = Hand(VOINA)
    h.lift("b5", "c5")
    h.lift("a5")  # {a5, b5, c5} = a5->d5: a touch in progress too
    assert h.state() == "wait-longer" and h.inf.touch == parse_cell("a5")
    assert h.wait(1100) is None
    h.put("a5")
    assert h.wait(3100) == "c5->a5"


def test_M2_latest_touch_of_an_ambiguous_regroup_wins():
    h = Hand(VOINA)
    h.lift("b5", "c5")
    h.lift("d5")
    h.put("d5")
    h.lift("a5")  # the player changes their mind
    h.put("a5")
    assert h.wait(3100) == "c5->a5"


def test_M2_kv_touch_longer_than_the_settle_time_is_no_fix():
    # variant kv: {g5, h5, i5} lifted is no move at all; the touch gets the longer time
    h = Hand(VOINA, variant="kv")
    h.lift("g5", "h5")
    h.lift("i5")
    assert h.state() == "unknown" and h.inf.touch == parse_cell("i5")
    assert h.wait(1500) is None
    assert h.state() == "unknown"
    h.put("i5")
    assert h.wait(1100) == "g5->i5"


def test_impossible_situation_becomes_fix_after_the_settle_time():
    h = Hand(SPREAD4)
    h.lift("d4", "e4")  # two singles lifted: no move empties d4 and e4 without e5
    assert h.state() == "progress" or h.state() == "unknown"
    h.put("a9")
    assert h.state() == "unknown"
    assert h.wait(SETTLE + 50) is None
    assert h.state() == "fix"


def test_fix_shows_the_stray_cube_not_the_lifted_stack():
    h = Hand(SPREAD4)
    h.lift("e5")
    h.put("a9")  # a cube off the spread's line
    h.wait(1100)
    assert h.state() == "fix"
    fill, clear = h.fix()
    assert fill == [] and clear == [parse_cell("a9")]
    h.lift("a9")  # fixed, one step: the spread is in progress again
    assert h.state() == "progress"


def test_fix_prefers_the_move_that_explains_the_lifted_cubes():
    # e5 and d4 lifted fit the South-West spread; the cube on e3 (South) is the slip
    h = Hand(SPREAD4)
    h.lift("e5")
    h.put("e3")
    h.lift("d4")
    h.wait(1100)
    assert h.state() == "fix"
    fill, clear = h.fix()
    assert fill == [] and clear == [parse_cell("e3")]
    h.lift("e3")
    assert h.candidates() == ["e5xd4"]


def test_fix_of_a_lifted_single_no_move_empties_is_to_put_it_back():
    h = Hand(VOINA.replace(" ns ", " ew "))  # EW to move: not under Voina, no regroup
    h.lift("b5")
    h.wait(1100)
    assert h.state() == "fix"
    fill, clear = h.fix()
    assert fill == [parse_cell("b5")] and clear == []
    h.put("b5")
    assert h.state() == "match"


def test_a_lifted_single_waits_the_settle_time_where_a_piece_may_go_under_another():
    # XoBo's spreads put cubes onto stacks: a lifted cube may be one lifted to put another
    # under it, so it is unknown for the settle time, then a fix
    h = Hand(VOINA.replace(" ns ", " ew "))  # EW to move: not under Voina, no regroup
    h.lift("b5")
    assert h.state() == "unknown"


def test_a_lifted_capture_target_is_a_move_in_progress_not_a_fix():
    h = Hand(SPREAD4)
    h.lift("e4")  # the South spread captures e4: a part of a move
    assert h.state() == "progress"


def test_a_lifted_x_piece_is_a_fix_at_once_never_unknown():
    # X's moves never put a piece onto a piece and never empty a cell: a lifted piece can
    # only be put back, so the board asks for it from the first scan (it was "unknown" for
    # the settle time: the page said "unknown situation" under the neighbours' light)
    from xobo.games.x import rules as X

    pos = X.Position.parse("......../......../......../......../....r.../......../......../"
                           "........ y")
    inf = Inference(pos.n_cells, X.FOOTPRINT_MAX, X.MAX_MOVES, SETTLE)
    inf.set_position(pos)
    occ = bytearray(pos.n_cells)
    pos.occupancy(occ)
    e4 = X.parse_cell("e4", 8)  # the piece
    occ[e4] = 0
    inf.observe(occ, 50)
    assert inf.state_name() == "fix" and inf.fill[e4] == 1
    assert inf.poll(50 + 3 * SETTLE) == -1 and inf.state_name() == "fix"
    occ[e4] = 1
    inf.observe(occ, 4000)
    assert inf.state_name() == "match"


def test_position_never_changes_in_a_fix():
    h = Hand(SPREAD4)
    before = h.pos.to_string()
    h.put("a9", "b9")
    assert h.wait(10000) is None
    assert h.pos.to_string() == before


def test_restore_waits_for_an_exact_match_and_infers_nothing():
    h = Hand(SPREAD4)
    h.put("a9")  # the player put a cube: in restore mode it is only a difference
    h.inf.set_position(h.pos, restore=True)
    assert h.state() == "restore"
    assert h.wait(5000) is None
    fill, clear = h.fix()
    assert clear == [parse_cell("a9")]
    h.lift("a9")
    assert h.state() == "match"
    assert not h.inf.restoring


def test_expected_move_only_that_move_commits():
    h = Hand(SPREAD4)
    m = -1
    for i in range(h.inf.n_moves):
        if format_move(h.inf.moves[i]) == "b8":
            m = h.inf.moves[i]
    assert h.inf.set_target(m)
    h.put("a9")  # another legal placement: not the expected one
    assert h.wait(1500) is None
    assert h.state() == "fix"
    h.lift("a9")
    h.put("b8")
    assert h.wait(1100) == "b8"


def test_set_target_refuses_an_illegal_move():
    h = Hand(SPREAD4)
    assert not h.inf.set_target(0xFFFF)


def test_long_settle_is_three_times_settle_at_most_3000():
    assert I.long_settle(1000) == 3000
    assert I.long_settle(500) == 1500
    assert I.long_settle(2000) == 3000
    assert I.long_settle(4000) == 4000


def test_fix_of_two_stray_cubes_asks_to_clear_both():
    h = Hand(SPREAD4)
    h.put("a9", "i9")  # two placements at once: no single nearest move
    h.wait(1100)
    assert h.state() == "fix"
    assert h.fix() == ([], [parse_cell("a9"), parse_cell("i9")])


def test_fix_clearing_one_stray_cube_offers_the_other_but_never_commits_it_by_time():
    h = Hand(SPREAD4)
    h.put("a9", "i9")
    h.wait(1100)
    h.lift("a9")
    assert h.state() == "offer"  # i9 alone is a placement: ok plays it, time does not
    assert h.fix() == ([], [])
    assert h.wait(5000) is None
    h.lift("i9")
    assert h.state() == "match"


def test_fix_offer_is_played_by_ok():
    h = Hand(SPREAD4)
    h.put("a9", "i9")
    h.wait(1100)
    h.lift("a9")
    assert format_move(h.inf.confirm()) == "i9"


def test_fix_ends_when_the_cubes_are_back_on_the_way_to_its_move():
    h = Hand(SPREAD4)
    h.lift("e5")
    h.put("e3", "e1")
    h.lift("e4", "e2")
    h.put("a9")  # the South spread is done but for a stray cube
    h.wait(1100)
    assert h.state() == "fix"
    h.lift("a9")
    assert h.state() == "complete"
    assert h.wait(1100) == "e5xe4"


def test_fix_ends_as_soon_as_another_move_is_merely_in_progress():
    h = Hand(SPREAD4)
    h.lift("e5")
    h.put("a9")
    h.wait(1100)
    assert h.state() == "fix"
    h.put("c3")  # the player goes on with the South-West spread meanwhile
    assert h.state() == "fix"
    h.lift("a9")
    assert h.state() == "progress" and h.candidates() == ["e5xd4"]


def test_M2_touched_ambiguous_regroup_waits_longer_when_a_longer_regroup_fits():
    # g5,h5 lifted in the run f5-g5-h5-i5: f5<-g5,h5 or g5,h5->i5; after the touch of i5
    # the regroups of all four still fit, so the longer settle time applies
    h = Hand(VOINA)
    h.lift("g5", "h5")
    assert h.inf.ambiguous == 2
    h.lift("i5")
    h.put("i5")
    assert h.state() == "wait-longer"
    assert h.wait(3100) == "g5->i5"


def test_M2_kv_touched_ambiguous_regroup_of_three_commits_after_the_settle_time():
    # variant kv: only regroups of exactly 3 (M2), so nothing is longer than g5,h5->i5
    h = Hand(VOINA, variant="kv")
    h.lift("g5", "h5")
    assert h.inf.ambiguous == 2
    h.lift("i5")
    h.put("i5")
    assert h.state() == "complete"
    assert h.wait(1100) == "g5->i5"


def test_footprint_buffers_grow_for_a_position_with_more_moves_than_their_capacity():
    # the footprints are kept for FOOTPRINT_CAPACITY moves (the heap of a Pico); a position
    # with more legal moves grows them once, and the inference is the same
    pos = Position.parse(SPREAD4)
    inf = Inference(81, FOOTPRINT_MAX, MAX_MOVES, SETTLE, capacity=8)
    inf.set_position(pos)
    assert inf.n_moves > 8 and inf.capacity >= inf.n_moves
    occ = bytearray(81)
    pos.occupancy(occ)
    occ[parse_cell("e5")] = 0
    occ[parse_cell("e4")] = 0  # the pair e4 taken off: only the spread South is left
    inf.observe(occ, 50)
    assert sorted(format_move(inf.moves[inf.cand[j]]) for j in range(inf.n_cand)) == ["e5xe4"]
