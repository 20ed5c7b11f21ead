# dual-runtime
"""What the light shows (board.md): turn and edges, a lifted stack's spreads narrowing as the
cubes go down, Voina cells and regroup cells, the winner, colour-blind-safe codes, and the
power budget with every cell lit."""

from boardapp.boardkit import board_at
from xobo.games.xobo.rules.geometry import parse_cell
from xobo.runtime import colours as C
from xobo.runtime.meanings import MEANINGS
from xobo.runtime.virtual_board import VirtualBoard

SPREAD4 = "........./........./........./........./....4..../...11..../........./....1..../" \
    "......... ns 29 0 0"
VOINA = "........./........./........./........./1111.1111/........./........./........./" \
    "111...... ns 25 0 0"


def _code(vb, cell):
    return vb.app.light.code[parse_cell(cell)]


def test_turn_the_side_to_move_lights_its_own_two_edges():
    vb = VirtualBoard()
    vb.advance(50)
    e = vb.edge_colors()
    assert e["N"] == e["S"] == "0072b2"  # NS, Okabe-Ito blue
    assert e["E"] == e["W"] == "000000"
    vb.put("e5")
    vb.advance(1500)
    e = vb.edge_colors()
    assert e["E"] == e["W"] == "e69f00"  # EW, Okabe-Ito orange
    assert e["N"] == e["S"] == "000000"


def test_M3_lifted_stack_lights_every_legal_spread_cell_by_cell():
    vb = board_at(SPREAD4)
    vb.lift("e5")
    vb.advance(100)
    for cell in ("e3", "e1", "c3", "b2", "a1"):  # will get a cube
        assert _code(vb, cell) == C.PUT, cell
    for cell in ("e4", "e2", "d4"):  # captured pairs: to take off
        assert _code(vb, cell) == C.TAKE, cell
    assert _code(vb, "e5") == C.SOURCE
    for cell in ("f6", "d6", "e6", "f5", "d5", "f4"):  # no legal spread there
        assert _code(vb, cell) == C.OFF, cell


def test_M3_only_the_direction_still_possible_stays_lit_with_what_remains():
    vb = board_at(SPREAD4)
    vb.lift("e5")
    vb.put("e4")  # a cube on the first South target (now a pair, still occupied)
    vb.put("e3")
    vb.advance(100)
    for cell in ("c3", "b2", "a1", "d4"):  # South-West is no longer possible
        assert _code(vb, cell) == C.OFF, cell
    assert _code(vb, "e3") == C.OFF  # done
    assert _code(vb, "e1") == C.PUT
    assert _code(vb, "e4") == C.TAKE and _code(vb, "e2") == C.TAKE


def test_V1_V2_under_voina_attacker_cells_and_defender_regroup_cells():
    vb = board_at(VOINA)
    vb.advance(100)
    assert _code(vb, "e5") == C.VOINA
    for cell in ("a5", "b5", "c5", "d5", "f5", "i5", "a1", "b1", "c1"):
        assert _code(vb, cell) == C.REGROUP, cell
    assert _code(vb, "e1") == C.OFF


def test_hints_off_hides_the_voina_teaching_lights():
    vb = board_at(VOINA)
    vb.command("set hints off")
    vb.advance(100)
    assert _code(vb, "e5") == C.OFF and _code(vb, "a5") == C.OFF


def test_commit_flashes_the_move_briefly():
    vb = VirtualBoard()
    vb.put("e5")
    vb.advance(1090)
    assert _code(vb, "e5") == C.CONFIRM
    vb.advance(600)
    assert _code(vb, "e5") == C.OFF


def test_E2_loss_by_blocus_lights_the_winner_chain_and_the_loser_edges():
    col = "....1...."
    vb = board_at("/".join([col] * 4 + ["........."] + [col] * 4) + " ew 28 0 0")
    vb.put("e5")  # EW fills NS's gap: NS's edges connected, NS wins (E2)
    vb.advance(2000)
    assert vb.app.result_name() == "ns"
    for k in range(9):
        assert vb.app.light.code[k * 9 + 4] == C.WIN_NS
    assert vb.app.light.edge_code[0] == C.WIN_NS and vb.app.light.edge_code[1] == C.WIN_NS


def _game_codes():
    """The light codes of each game (their names' prefix: X_, CR_, BR_) and the common ones."""
    names = {getattr(C, n): n for n in dir(C) if n.isupper() and isinstance(getattr(C, n), int)
             and 0 < getattr(C, n) < C.N_CODES and not n.startswith("N_")}
    common = []
    games = {"X_": [], "CR_": [], "BR_": []}
    for code in range(1, C.N_CODES):
        prefix = [p for p in games if names.get(code, "").startswith(p)]
        (games[prefix[0]] if prefix else common).append(code)
    return common, games


def test_every_meaning_has_its_own_colour_and_pattern_pair_in_each_game():
    # a game shows the common meanings and its own: never two of them alike (two games'
    # own codes may look alike: they are never lit together)
    common, games = _game_codes()
    assert all(games.values()), games
    for own in games.values():
        seen = []
        for code in common + own:
            key = (C.RGB[code], C.PATTERN[code])
            if code in (C.WIN_NS, C.NS_COLOUR, C.WIN_EW, C.EW_COLOUR):
                continue  # player colours: edges steady, winner pulsing
            assert key not in seen, MEANINGS[code]
            seen.append(key)


def test_fill_and_clear_differ_by_colour_and_by_pattern():
    assert C.RGB[C.FILL] != C.RGB[C.CLEAR]
    assert C.PATTERN[C.FILL] == C.FAST and C.PATTERN[C.PUT] == C.STEADY
    assert C.PATTERN[C.TAKE] == C.BLINK


def test_power_budget_holds_with_every_cell_lit():
    vb = VirtualBoard(settings={"brightness": 100})
    for c in range(81):
        vb.switches.put(c)
    vb.advance(40)
    vb.command("new")  # every cell must be cleared: 81 cells lit
    lit_seen = False
    for _ in range(40):
        vb.advance(10)
        leds = vb.leds
        lit = 0
        for c in range(81):
            if vb.app.light.code[c] == C.CLEAR:
                lit += 1
        if lit == 81 and vb.app.light.cells[0]:
            lit_seen = True
            budget = vb.bd.budget_ma
            assert leds.last_ma <= budget, (leds.last_ma, budget)
            assert leds.last_scale < 256  # the limiter did cut the brightness
    assert lit_seen


def test_brightness_setting_scales_the_leds():
    vb = VirtualBoard(settings={"brightness": 50})
    vb.advance(50)
    assert vb.leds.brightness == 127
    vb.command("set brightness 0")
    vb.advance(20)
    r, g, b = vb.leds.cell_rgb(0)
    assert (r, g, b) == (0, 0, 0)
    assert vb.leds.edge_rgb("N")[0] == (0, 0, 0)


def test_M2_ambiguous_regroup_pulses_both_possible_stack_cells():
    vb = board_at(VOINA)
    vb.take("b5", 1)
    vb.put("a5")
    vb.take("c5", 1)
    vb.put("a5")  # a5<-b5,c5 or b5,c5->d5: the switches see the same
    vb.advance(300)
    assert vb.app.inf.ambiguous == 2
    assert _code(vb, "a5") == C.WAITING and _code(vb, "d5") == C.WAITING
    n = vb.lift("a5")  # the player touches the stack it made
    vb.advance(100)
    vb.put("a5", n)
    vb.advance(3200)
    assert vb.app.pos.heights[36] == 3  # c5->a5 committed


def test_M2_touched_stack_cell_pulses_white_alone_while_it_is_lifted():
    vb = board_at(VOINA)
    vb.lift("b5")
    vb.lift("c5")
    vb.advance(300)
    vb.lift("d5")  # the touch: {b5, c5, d5} would also be d5->a5
    vb.advance(300)
    assert vb.app.inf.touch == parse_cell("d5")
    assert _code(vb, "d5") == C.WAITING
    assert _code(vb, "a5") != C.WAITING
    vb.advance(1000)
    assert vb.app.pos.ply == 0  # not committed on the settle time


def test_E4_kv_loss_by_exhaustion_lights_both_edges_and_no_chain():
    # variant kv: common 0 and NS's own reserve 0 at the start of NS's turn: EW wins (E4)
    stacks = "3.3.3.3.."
    n3 = "/".join([stacks, ".........", stacks, ".........", stacks] + ["........."] * 4) \
        + " ns 0 0 0"
    vb = board_at(n3, variant="kv")
    vb.advance(100)
    assert vb.app.result_name() == "ew"
    light = vb.app.light
    assert vb.app.layers.loss_kind == 2  # XoBo's own layer (games/xobo/board.py)
    assert light.edge_code[2] == C.WIN_EW and light.edge_code[0] == C.LOSER
    assert sum(vb.app.layers.chain) == 0


def test_after_the_end_cubes_move_freely_and_long_ok_starts_the_next_game():
    col = "....1...."
    vb = board_at("/".join([col] * 4 + ["........."] + [col] * 4) + " ew 28 0 0")
    vb.put("e5")
    vb.advance(1500)
    assert vb.app.result_name() == "ns"
    vb.lift("e9")  # players start clearing the board
    vb.advance(1500)
    assert _code(vb, "e9") != C.FILL
    vb.hold("ok", 1700)
    vb.advance(1800)
    assert vb.app.pos.ply == 0 and vb.app.result_name() == "*"
    assert vb.app.inf.state_name() == "restore"


def test_native_pattern_levels_equal_the_reference_levels():
    # the light's per-frame levels (colours.levels_into, native code on the Pico) are the
    # ones colours.level defines, at any tick, with the opponent flash off or timed
    import array

    pl = array.array("H", [0] * C.N_PATTERNS)
    for now in (0, 1, 31, 32, 127, 128, 255, 511, 512, 1023, 1199, 1200, 1319, 1439,
                123457, (1 << 30) - 1, 987654321):
        for opp_dt in (-1, 0, 119, 120, 250, 400, 1201):
            C.levels_into(pl, now, opp_dt)
            for p in range(C.N_PATTERNS - 1):
                assert pl[p] == C.level(p, now), (p, now)
            assert pl[C.OPP_DOUBLE] == (0 if opp_dt < 0 else C.level(C.DOUBLE, opp_dt))
