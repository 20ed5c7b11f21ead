"""Chain Reaction on the (virtual) board: the light at key points (towers, a lifted tower's
directions and goal values, a scored piece and its re-entry squares, the penalty, scores and
segments on files a and i and the goal rows), ok stepping through ambiguous segments, and the
scripted sessions (a whole game by hand, a whole game against the computer) under CPython
and MicroPython."""

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, run_micropython

from xobo.games.chain_reaction import ai
from xobo.games.chain_reaction.rules import K_STEP, Position, parse_cell
from xobo.runtime import colours as C
from xobo.runtime import inference as I
from xobo.runtime.virtual_board import VirtualBoard

SESSIONS = Path(__file__).resolve().parent / "sessions"
PENALTY = "d.dd..d/..dldd./l...dd./...l.../..l..dl/....l[ll]./.lll..d l 4 0 0 18"


def _board(position=None):
    vb = VirtualBoard(settings={"game": "chain-reaction"})
    if position is not None:
        vb.command("load " + position)
    vb.set_cubes(vb.app.pos.heights)
    vb.advance(300)
    assert vb.app.inf.state == I.MATCH
    return vb


def _code(vb, name):
    return vb.app.light.code[parse_cell(name, vb.app.pos.height)]


def _played(moves):
    pos = Position()
    for t in moves:
        pos.play(pos.parse_move(t))
    return pos


def test_pieces_in_their_owners_colours_and_the_segments_left_on_the_movers_goal_row():
    vb = _board()
    assert _code(vb, "e2") == C.NS_COLOUR and _code(vb, "e8") == C.EW_COLOUR
    assert [_code(vb, "%s1" % f) for f in "bcdefgh"] == [0] + [C.CR_SEGMENTS] * 5 + [0]
    assert _code(vb, "a1") == 0 and _code(vb, "i9") == 0  # no points yet


def test_CB4_a_tower_shows_its_top_colour_and_its_bottom_colour_as_a_second_pattern():
    pos = _played(["e4-e5", "e6-e5"])  # Dark on top of Light on e5: Dark's segment 2
    vb = _board(pos.to_string())
    assert _code(vb, "e5") == C.CR_TOWER_DX
    assert C.RGB[C.CR_TOWER_DX] == C.RGB[C.EW_COLOUR]
    assert C.PATTERN[C.CR_TOWER_DX] != C.PATTERN[C.CR_TOWER_D]
    # one segment used: four left, on Dark's own goal row
    assert sum(1 for f in "bcdefgh" if _code(vb, "%s9" % f) == C.CR_SEGMENTS) == 4


def test_CM3_a_lifted_tower_shows_each_direction_first_and_second_squares():
    pos = _played(["e4-e5", "e6-e5"])
    vb = _board(pos.to_string())
    vb.lift("e5")
    vb.advance(100)
    assert vb.app.inf.state == I.PROGRESS
    # South: bottom piece to e4 (empty), top piece onto Light's e3 (a target piece)
    assert _code(vb, "e4") == C.CR_FIRST and _code(vb, "e3") == C.PUT
    # West: d5 first, c5 second; the field's squares only
    assert _code(vb, "d5") == C.CR_FIRST and _code(vb, "c5") == C.PUT


def _scoring_position():
    """A position of the hand-played session where the tower to move can score."""
    pos = Position()
    out = (SESSIONS / "by_hand.out").read_text().splitlines()
    for line in out:
        if line.startswith("undo "):
            pos.undo()
        if not line.startswith("move "):
            continue
        m = pos.parse_move(line.split()[1])
        if 1 <= m >> 9 < K_STEP:
            return pos, m
        pos.apply(m)
    raise AssertionError("no scoring segment in the session")


def test_CS1_goal_values_while_lifted_then_the_scored_piece_and_its_reentry_squares():
    pos, m = _scoring_position()
    vb = _board(pos.to_string())
    g = pos.geo
    c = g.fi_cell[m & 63]
    d = (m >> 6) & 7
    s1 = g.nb[c * 8 + d]
    s2 = g.nb[s1 * 8 + d]
    vb.lift(c)
    vb.advance(100)
    code = vb.app.light.code
    assert code[s2] == (C.CR_GOAL_2 if pos.goal_value(s2) == 2 else C.CR_GOAL_1)
    reentry = [g.fi_cell[(x >> 9) - 1] for x in pos.legal_actions()
               if 1 <= x >> 9 < K_STEP and g.nb[g.nb[c * 8 + ((x >> 6) & 7)] * 8
                                               + ((x >> 6) & 7)] == s2]
    assert all(code[r] != C.PUT for r in reentry if not pos.top[r])  # not before it scores
    if not pos.top[s1]:
        vb.put(s1)
    else:
        vb.lift(s1)
        vb.advance(60)
        vb.put(s1, 2)
    vb.put(s2)
    vb.advance(200)
    code = vb.app.light.code
    assert code[s2] == C.TAKE
    assert all(code[r] == C.PUT for r in reentry)
    vb.lift(s2)  # off the goal square: the re-entry squares stay lit
    vb.advance(100)
    assert all(vb.app.light.code[r] == C.PUT for r in reentry)
    vb.put(g.fi_cell[(m >> 9) - 1])
    vb.advance(3500)
    assert vb.app.pos.score[pos.side] == pos.score[pos.side] + pos.goal_value(s2)
    # the points are on the player's file (a for Light, i for Dark)
    f = "a" if pos.side == 0 else "i"
    lit = [r for r in range(1, 10) if _code(vb, "%s%d" % (f, r))]
    assert len(lit) == min(9, vb.app.pos.score[pos.side])
    assert vb.cell_colors()[parse_cell("%s%d" % (f, lit[0]), 9)] != "000000"  # on the LEDs


def test_CS2_the_penalty_shows_the_tower_and_where_its_bottom_piece_goes():
    vb = _board(PENALTY)
    pos = vb.app.pos
    assert pos.penalty_due()
    assert _code(vb, "g3") == C.CR_PENALTY and pos.tower == parse_cell("g3", 9)
    for m in pos.legal_actions():
        assert vb.app.light.code[pos.geo.fi_cell[(m >> 9) - 65]] == C.PUT
    # played with the pieces: the tower lifted, its top put back, its bottom on a lit square
    m = pos.legal_actions()[0]
    vb.lift("g3")
    vb.put("g3")
    vb.put(pos.geo.fi_cell[(m >> 9) - 65])
    vb.advance(1500)
    assert vb.app.pos.ply == 1 and vb.app.pos.last_move() == m


def test_ok_steps_through_ambiguous_targets_and_commits_the_pick():
    vb = _board()
    vb.lift("d3")
    vb.put("d4")  # onto Light's d4: the switches cannot tell which piece it went on
    vb.advance(100)
    inf = vb.app.inf
    assert inf.ambiguous > 1 and inf.state == I.PROGRESS
    vb.hold("ok", 80)
    vb.advance(200)
    first = inf.stepped
    assert first >= 0 and inf.state == I.WAIT_LONGER
    while inf.stepped != parse_cell("d4", 9):
        vb.hold("ok", 80)
        vb.advance(200)
        assert inf.state == I.WAIT_LONGER
    vb.advance(3500)
    assert vb.app.pos.move_text(vb.app.pos.last_move()) == "d3-d4"
    assert vb.app.pos.tower == parse_cell("d4", 9)


def test_xobo_ok_does_not_step_through_ambiguous_moves():
    vb = VirtualBoard()
    assert not vb.app.layers.OK_STEPS and not vb.app.layers.LIGHTS_UNUSED
    assert vb.app.inf.step_ambiguous(0) == -1


def test_the_computer_answers_within_the_budget_and_every_level_honours_poll():
    pos = Position()
    for level in ai.LEVELS:
        with pytest.raises(ai.SearchCancelled):
            ai.choose_move(pos, level, poll=lambda: True)
        assert pos.is_legal(ai.choose_move(pos, level, seed=3))
    with pytest.raises(ValueError):
        ai.choose_move(pos, "perfect")


@pytest.mark.parametrize("name", ["by_hand", "vs_computer"])
def test_session_under_cpython_is_the_expected_one(name):
    proc = subprocess.run([sys.executable, "-m", "xobo_host.cli.main", "board", "run", "--script",
                           str(SESSIONS / (name + ".txt"))], capture_output=True, text=True,
                          timeout=300, cwd=str(ROOT))
    assert proc.stdout == (SESSIONS / (name + ".out")).read_text(), proc.stderr


@pytest.mark.parametrize("name", ["by_hand", "vs_computer"])
def test_session_under_micropython_is_the_same(name):
    proc = run_micropython(["-m", "xobo.runtime.script", str(SESSIONS / (name + ".txt"))],
                           heapsize="4M")
    assert proc.stdout == (SESSIONS / (name + ".out")).read_text(), proc.stderr


def test_whole_game_by_hand_has_towers_a_touch_an_ok_step_a_score_an_undo_a_power_cut():
    text = (SESSIONS / "by_hand.txt").read_text()
    out = (SESSIONS / "by_hand.out").read_text().splitlines()
    assert "press ok" in text and "press undo" in text and "power-cut" in text
    assert any(line.startswith("undo ") for line in out)
    assert any(line.startswith("boot resumed game") for line in out)
    moves = [x.split()[1] for x in out if x.startswith("move ")]
    assert any("+" in m for m in moves) and any(":" in m for m in moves)
    pos = Position()
    for line in out:  # the game replayed by the engine, the undo included
        if line.startswith("move "):
            pos.play(pos.parse_move(line.split()[1]))
        elif line.startswith("undo "):
            pos.undo()
    assert "result light" in out or "result dark" in out
    assert pos.is_terminal() and out[-1] == "position " + pos.to_string()


def test_whole_game_against_the_computer_ends_with_its_moves_announced():
    out = (SESSIONS / "vs_computer.out").read_text().splitlines()
    expected = [x.split()[2] for x in out if x.startswith("expect computer ")]
    moves = [x.split()[1] for x in out if x.startswith("move ")]
    assert expected and all(m in moves for m in expected)
    assert any(x.startswith("result ") for x in out)
    pos = _played(moves)
    assert pos.is_terminal() and out[-1] == "position " + pos.to_string()
