# dual-runtime
"""Guidance a player can follow: what the board waits for, in words as well as in light
(serial ``state ... say WORDS``, ``event say WORDS`` when ok has nothing to commit), a
complete move left after a fix offered to ok, and a host/computer move shown alone.

Positions used:

- AMBIG: NS is under Voina (V2); rank 2 holds the run c2-d2-e2-f2, so lifting d2, e2 is a
  regroup onto c2 or onto f2 (M2) that the switches cannot tell apart.
- VOINA: EW threatens e5 (a5-d5, f5-i5): NS under Voina may regroup.
"""

from boardapp.boardkit import EMPTY, Recorder, board_at
from xobo.games.xobo.rules.geometry import parse_cell
from xobo.games.xobo.rules.notation import parse_move
from xobo.games.xobo.rules.position import Position
from xobo.games.xobo.words import move_words
from xobo.runtime import colours as C

AMBIG = "...1...../........./11......./1......../...1...../...11..../.1.111..1/1.1111.1./" \
    "..1111.11 ns 4 2 6"
VOINA = "........./........./........./........./1111.1111/........./........./........./" \
    "111...... ns 25 0 0"
SAY = "c2 or f2? lift the stack you chose and put it back"


def _press_ok(vb):
    vb.press("ok")
    vb.advance(100)
    vb.release("ok")
    vb.advance(100)


def _regroup_onto_c2_unseen(vb):
    """The player of the report: e2 and d2 lifted, both cubes put on c2 (closed already)."""
    vb.lift("e2")
    vb.advance(150)
    vb.lift("d2")
    vb.advance(150)
    vb.put("c2", 2)
    vb.advance(3000)


def test_M2_ambiguous_regroup_state_says_which_stacks_to_touch():
    vb = board_at(AMBIG)
    _regroup_onto_c2_unseen(vb)
    line = vb.command("state")[0]
    assert line.endswith(" say " + SAY), line


def test_M2_ok_on_an_ambiguous_regroup_says_what_to_do():
    vb = board_at(AMBIG)
    rec = Recorder(vb)
    vb.command("follow on")
    _regroup_onto_c2_unseen(vb)
    _press_ok(vb)
    assert "event say " + SAY in rec.lines, rec.lines
    assert rec.moves() == []


def test_M2_ambiguous_regroup_touch_then_decides_it():
    vb = board_at(AMBIG)
    rec = Recorder(vb)
    _regroup_onto_c2_unseen(vb)
    n = vb.lift("c2")
    vb.advance(150)
    assert "say put c2 back" in vb.command("state")[0]
    vb.put("c2", n)
    vb.advance(3500)  # the longer settle time: the four of c2-f2 could still regroup
    assert rec.moves() == ["e2->c2"]


def _two_stray_one_cleared(vb):
    vb.put("e5")
    vb.advance(100)
    vb.put("d4")
    vb.advance(1500)  # a fix: both to clear (no single nearest move)
    vb.lift("d4")
    vb.advance(3500)  # longer than any settle time: still not committed


def test_fix_two_stray_cubes_one_cleared_offers_the_other_in_light_and_words():
    vb = board_at(EMPTY)
    rec = Recorder(vb)
    _two_stray_one_cleared(vb)
    assert rec.moves() == []
    line = vb.command("state")[0]
    assert line.startswith("ok state offer ") and " offer e5 say e5 is a legal move: press ok "\
        "to play it, taking the cube off cancels" in line, line
    assert rec.has("event say e5 is a legal move")
    assert vb.app.light.code[parse_cell("e5")] == C.WAITING  # pulses white


def test_fix_two_stray_cubes_one_cleared_ok_plays_the_other():
    vb = board_at(EMPTY)
    rec = Recorder(vb)
    _two_stray_one_cleared(vb)
    _press_ok(vb)
    assert rec.moves() == ["e5"]


def test_fix_two_stray_cubes_one_cleared_taking_the_other_off_cancels():
    vb = board_at(EMPTY)
    rec = Recorder(vb)
    _two_stray_one_cleared(vb)
    vb.lift("e5")
    vb.advance(1500)
    assert rec.moves() == [] and vb.app.inf.state_name() == "match"


def test_move_words_of_each_kind():
    pos = Position.parse(VOINA)
    assert move_words(parse_move("e6", pos)) == "put a cube on e6"
    assert move_words(parse_move("a5->d5", pos)) == "regroup a5, b5, c5 onto d5"
    spread = Position.parse("........./........./........./........./....4..../...11..../"
                            "........./....1..../......... ns 29 0 0")
    assert move_words(parse_move("e5xd4", spread)) == "spread e5 towards d4"


def test_move_in_progress_state_names_what_is_left():
    vb = board_at("........./........./........./........./....4..../...11..../"
                  "........./....1..../......... ns 29 0 0")
    vb.lift("e5")
    vb.advance(150)
    assert vb.command("state")[0].endswith(" say spread e5 towards e4 or spread e5 towards d4")
    vb.put("e4")  # e4 holds a cube: still both ways (its switch stays closed)
    vb.put("e3")
    vb.advance(150)
    line = vb.command("state")[0]
    assert line.endswith(" say put a cube on e1; take the pairs off e4, e2"), line


def test_V1_computer_move_under_voina_is_shown_without_the_regroup_cells():
    vb = board_at(VOINA, settings={"opponent": "ns", "level": "greedy"})
    vb.advance(200)
    m = vb.app.pending
    assert m >= 0
    light = vb.app.light
    for c in range(81):
        assert light.code[c] != C.REGROUP, c
    assert vb.command("state")[0].endswith(" say the computer plays %s: %s" % (
        vb.command("state")[0].split(" expect ")[1].split()[0], move_words(m)))
