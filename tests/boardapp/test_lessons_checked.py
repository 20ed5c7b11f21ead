# dual-runtime per-game
"""The lesson checker (``boardapp.lessonkit``) on every game's course: every legal move at every
lesson, played by hand on the virtual board, judged by the game's engine. A lesson that praises
a move the engine ends the game against the mover with, refuses a move that meets its
condition, names a cell it does not light (or lights one it does not name), or leaves a wrong
try that the learner cannot take back by doing what the board says, fails here; and the
mutants show the checker catches each of these."""

from boardapp.learnkit import Learner
from boardapp.lessonkit import check_course, check_lesson, quick


def _clean(game):
    problems = check_course(game)
    assert problems == [], "\n".join(problems)


def test_xobo_lessons_are_right_by_the_rules_for_every_legal_move():
    _clean("xobo")


def test_x_lessons_are_right_by_the_rules_for_every_legal_move():
    _clean("x")


def test_chain_reaction_lessons_are_right_by_the_rules_for_every_legal_move():
    _clean("chain-reaction")


def test_brochs_lessons_are_right_by_the_rules_for_every_legal_move():
    _clean("brochs")


def test_tiny_lessons_are_right_by_the_rules_for_every_legal_move():
    _clean("tiny")


def _mutant(game, k, change, moves=None):
    """The problems the checker finds in lesson ``k`` (1-based) of ``game`` once ``change``
    (lesson tuple -> lesson tuple) has been made to it."""
    ln = Learner(game)
    quick(ln)
    ln.start()
    mode = ln.vb.app.mode
    lessons = list(mode.lessons)
    lessons[k - 1] = change(lessons[k - 1])
    mode.lessons = tuple(lessons)
    mode.begin(k - 1, ln.vb.clock.ticks_ms())
    problems = []
    check_lesson(ln, problems, moves)
    return problems


def _with(lesson, field, value):
    out = list(lesson)
    out[field] = value
    return tuple(out)


def test_xobo_mutant_lesson_praising_a_losing_move_is_caught():
    # the lesson as it once was: "anywhere but e9", while d9 and f9 finish the opponent's
    # chain too (a corner touches, E1)
    problems = _mutant("xobo", 3, lambda l: _with(_with(_with(
        l, 4, "a1 b1 d9 f9"), 2, "e9"), 3, "Put a cube anywhere but e9."),
        moves=("a1", "d9", "e9"))
    assert any("d9: praised, but the engine ends the game against the mover" in p
               for p in problems), problems


def test_xobo_mutant_lesson_refusing_a_move_that_meets_its_condition_is_caught():
    # the goal's lesson judged as it once was, by its typed move e9 alone, while the engine
    # says d9 and f9 win too (a corner touches, E1)
    ln = Learner("xobo")
    quick(ln)
    ln.start()
    mode = ln.vb.app.mode
    mode.is_lesson_move = lambda m: mode.work.move_text(m) == "e9"
    problems = []
    check_lesson(ln, problems, moves=("d9", "e9"))
    assert any("d9: meets the condition 'wins e9', but refused" in p for p in problems), \
        problems
    assert not any(", e9:" in p for p in problems), problems


def test_x_mutant_lesson_naming_a_cell_it_does_not_light_is_caught():
    problems = _mutant("x", 5, lambda l: _with(l, 2, "h1 f1 f2 g2"), moves=("h2",))
    assert any("names h2, not lit" in p for p in problems), problems
    problems = _mutant("x", 5, lambda l: _with(l, 2, "h1 f1 f2 g2 h2 a8"), moves=("h2",))
    assert any("lights a8, not named" in p for p in problems), problems


def test_x_mutant_lesson_leaving_the_learner_stuck_after_a_wrong_try_is_caught():
    # a lesson whose position the board cannot set back: a piece the words never name
    ln = Learner("x")
    quick(ln)
    ln.start()
    for _ in range(4):
        ln.vb.command("learn next")
    ln.set_up()
    mode = ln.vb.app.mode
    original = mode.setup_words
    mode.setup_words = lambda: "put the pieces as lit."  # words that name no cell
    problems = []
    check_lesson(ln, problems, moves=("g3",))
    mode.setup_words = original
    assert any("the words do not name g3" in p for p in problems), problems


def test_x_wrong_try_then_the_lesson_move_before_taking_it_back_is_accepted():
    # X lesson 5: after g3, the board says to block at h2; a learner who puts h2 first and
    # then takes g3 off has done the lesson's move
    from boardapp.lessonkit import settle

    ln = Learner("x")
    quick(ln)
    ln.start()
    for _ in range(4):
        ln.vb.command("learn next")
    ln.set_up()
    vb = ln.vb
    vb.put(ln.board_cell("g3"))
    settle(vb)
    words = ln.say()
    assert "g3: Yellow would then take a corner of yours with h2" in words, words
    assert words.endswith("First put the lesson back: take the piece off g3 (lit)."), words
    vb.put(ln.board_cell("h2"))
    settle(vb)
    vb.lift(ln.board_cell("g3"))
    settle(vb)
    assert ln.say().endswith("ok: next lesson."), ln.say()
    assert vb.app.pos.move_text(vb.app.pos.last_move()) == "h2"
