# dual-runtime
"""The learn mode (xobo.runtime.learn) as scripted physical sessions: a learner who does only
what the board says and lights completes every game's course, a wrong try is explained and
taken back, and the player's own game comes back unchanged and unsaved over."""

from boardapp.learnkit import SETTLE_MS, Learner


def _course(game):
    ln = Learner(game)
    ln.vb.command("set level random")  # the computer's strength is not what is tested here
    ln.start()
    seen = ln.complete_course()
    assert seen[-2] == game + " done", seen
    assert seen[-1] == "off"
    assert ln.state()["learn"] is None
    return ln, seen


def test_learn_xobo_course_completes_by_doing_what_the_board_says():
    ln, seen = _course("xobo")
    assert len(seen) >= 8  # six lessons, done, off


def test_learn_x_course_completes_by_doing_what_the_board_says():
    _course("x")


def test_learn_chain_reaction_course_completes_by_doing_what_the_board_says():
    _course("chain-reaction")


def test_learn_brochs_course_completes_by_doing_what_the_board_says():
    _course("brochs")


def test_learn_tiny_course_completes_by_doing_what_the_board_says():
    _course("tiny")


def test_learn_a_wrong_move_is_explained_and_taken_back():
    ln = Learner("xobo")
    ln.start()
    ln.set_up()
    pos_before = ln.state()["position"]
    ln.vb.put(ln.board_cell("a1"))  # the lesson asks for e9
    ln.vb.advance(SETTLE_MS)
    words = ln.say()
    assert words.find("a1: that joins nothing yet") >= 0, words
    st = ln.state()
    assert st["position"] == pos_before  # nothing was played
    assert st["inference"] == "restore" and st["clear"] == ["a1"], st
    ln.vb.lift(ln.board_cell("a1"))
    ln.vb.advance(SETTLE_MS)
    assert ln.state()["inference"] == "match"
    assert ln.state()["learn"] == "learn 1/7"


def test_learn_leaves_the_players_game_as_it_was_and_unsaved_over():
    ln = Learner("tiny")
    vb = ln.vb
    vb.put("e5")
    vb.advance(SETTLE_MS)
    own = vb.command("position")
    assert vb.command("state")[0].find("ply 1") >= 0
    # undo held with a move played is an undo, not the lessons: serial learn instead
    ln.start()
    ln.lesson_move()
    vb.power_cut()  # learning is never saved: the board resumes the player's game
    assert vb.command("position") == own
    ln.start()
    ln.lesson_move()
    reply = vb.command("learn off")
    assert reply == ["ok learn off"], reply
    assert vb.command("position") == own
    assert ln.state()["learn"] is None


def test_learn_gesture_undo_held_at_the_start_of_a_game():
    ln = Learner("tiny")
    ln.hold("undo")
    assert ln.state()["learn"] == "learn 1/6", ln.state()
    ln.click("ok")  # nothing to play yet: ok says the lesson again
    assert ln.said[-1].startswith("Lesson 1/6")
    ln.hold("ok")  # ok held skips a lesson
    assert ln.state()["learn"] == "learn 2/6"
    ln.hold("undo")  # undo held leaves
    assert ln.state()["learn"] is None


def test_learn_hint_lights_the_lesson_move_and_state_says_the_lesson():
    ln = Learner("xobo")
    ln.start()
    ln.set_up()
    ln.click("hint")
    assert ln.hints[-1] == "e9"
    line = ln.vb.command("state")[0]
    assert line.find(" learn 1/7 say Lesson 1/7, the goal.") >= 0, line


def test_learn_of_another_game_switches_to_it_and_next_skips():
    ln = Learner("xobo")
    reply = ln.vb.command("learn x")
    assert reply[0].startswith("ok learn 1/") and reply[0].endswith(" x"), reply
    assert ln.vb.command("learn next")[0].startswith("ok learn 2/")
    assert ln.vb.command("learn off") == ["ok learn off"]
    assert ln.vb.command("learn off")[0].startswith("error not learning")


def test_learn_code_and_lessons_are_forgotten_when_learning_ends():
    import sys

    ln = Learner("x")
    ln.start()
    assert "xobo.games.x.lessons" in sys.modules
    ln.vb.command("learn off")
    assert "xobo.runtime.learn" not in sys.modules
    assert "xobo.games.x.lessons" not in sys.modules


def test_learn_every_lesson_names_legal_moves_of_its_position():
    from xobo import games
    from xobo.runtime import course
    from xobo.runtime.learn import lessons_of

    for name in games.available():
        game = games.load(name)
        module = lessons_of(game)
        lessons = module.LESSONS
        assert len(lessons) >= 3, name
        assert lessons[-1][4] == "play", name  # every course ends with a real game
        for lesson in lessons:
            title, text, look, ask, expect = lesson[:5]
            settings = dict(game.DEFAULTS)
            pos = game.parse_position(text, settings) if text else game.new_position(settings)
            assert not pos.is_terminal(), (name, title)
            if expect == "play":
                continue
            cond = course.Condition(module, expect, lambda c, w=pos.width: "%s%d" % (
                chr(97 + c % w), c // w + 1), game.PLAYER_NAMES)
            for cell in cond.fill(look, pos, look=True).split():
                assert ord(cell[0]) - 97 < pos.width and int(cell[1:]) <= pos.height
            for w in cond.moves:  # the moves it names (after a condition: the hint's)
                m = pos.parse_move(w)
                assert pos.is_legal(m), (name, title, w)
                assert cond.meets(pos, m), (name, title, w)
            assert cond.lesson_moves(pos), (name, title)  # some move does it


def test_learn_ok_in_the_last_lesson_plays_a_complete_move_as_in_play():
    ln = Learner("tiny")
    ln.start()
    for _ in range(5):
        ln.vb.command("learn next")
    assert ln.state()["learn"] == "learn 6/6"
    ln.set_up()
    ln.vb.put(ln.board_cell("b2"))
    ln.vb.advance(300)  # less than the settle time: ok commits it at once
    ln.click("ok")
    assert ln.vb.app.pos.ply >= 1 and ln.state()["learn"] == "learn 6/6"


def test_learn_ends_when_a_host_loads_a_position_and_that_game_is_saved():
    ln = Learner("tiny")
    ln.start()
    reply = ln.vb.command("load x../.o./... x")
    assert reply[0].startswith("ok load"), reply
    ln.vb.advance(50)
    assert ln.state()["learn"] is None
    assert ln.vb.command("position") == ["ok x../.o./... x"]
    ln.vb.power_cut()  # the loaded game was saved, as a load outside learning is
    assert ln.vb.command("position") == ["ok x../.o./... x"]


def test_learn_off_right_after_a_host_load_keeps_the_host_s_game_as_a_cycle_would():
    ln = Learner("tiny")
    ln.start()
    assert ln.vb.command("load x../.o./... x")[0].startswith("ok load")
    # no cycle has run since: learn off finds the host's game as the cycle would
    assert ln.vb.command("learn off") == ["ok learn off"]
    assert ln.vb.command("position") == ["ok x../.o./... x"]
    assert ln.state()["learn"] is None
    ln.vb.power_cut()  # and saved
    assert ln.vb.command("position") == ["ok x../.o./... x"]


def test_learn_a_lesson_waiting_for_its_move_allocates_nothing_per_cycle():
    from xobo_testing import run_with_heap_locked

    ln = Learner("xobo")
    ln.start()
    ln.set_up()
    vb = ln.vb

    def cycles(n):
        for _ in range(n):
            vb.clock.advance(10)
            vb.app.step(vb.clock.ticks_ms())
        return n

    assert run_with_heap_locked(cycles, 300) == 300
    assert ln.state()["learn"] == "learn 1/7"


def _to_lesson(ln, title):
    """Skip to the lesson called ``title`` (serial learn next) and set it up."""
    for _ in range(12):
        if ln.lessons[-1].split(" ", 2)[2] == title:
            ln.set_up()
            return
        ln.vb.command("learn next")
    raise AssertionError("no lesson %r: %s" % (title, ln.lessons))


def test_learn_xobo_exhaustion_a_player_with_no_move_at_all_loses_E4():
    ln = Learner("xobo")
    ln.start()
    _to_lesson(ln, "exhaustion")
    ln.vb.put(ln.board_cell("a5"))  # on an edge: the stack on a1 can be spread over it
    ln.vb.advance(SETTLE_MS)
    assert ln.say().find("a5: a stack can now be spread over that cube") >= 0, ln.say()
    assert ln.vb.app.pos.ply == 0
    ln.vb.lift(ln.board_cell("a5"))
    ln.vb.advance(SETTLE_MS)
    ln.vb.put(ln.board_cell("c5"))  # where no stack reaches
    ln.vb.advance(SETTLE_MS)
    assert ln.vb.app.result_text() == "ns exhaustion", ln.vb.app.result_text()
    assert "wins by exhaustion (E4)" in ln.say(), ln.say()


def test_learn_x_settled_corner_lights_bright_once_nobody_can_go_around_XS4():
    ln = Learner("x")
    ln.start()
    _to_lesson(ln, "a settled corner")
    pos = ln.vb.app.pos
    assert pos.corner_owner(2) == 0 and not pos.corner_settled(2)  # North-West: Red's, open
    dim = ln.vb.leds.cell_rgb(ln.board_cell("a8"))
    ln.vb.put(ln.board_cell("c8"))
    ln.vb.advance(SETTLE_MS)
    assert "North-West is settled" in ln.say(), ln.say()
    assert ln.vb.app.pos.corner_settled(2)
    bright = ln.vb.leds.cell_rgb(ln.board_cell("a8"))
    assert sum(bright) > sum(dim), (dim, bright)


def test_learn_brochs_donjon_occupant_falls_only_when_enclosed_twice_BC3():
    ln = Learner("brochs")
    ln.start()
    _to_lesson(ln, "a donjon's occupant")
    ln.vb.put(ln.board_cell("c5"))  # next to d4 but no second pair
    ln.vb.advance(SETTLE_MS)
    assert ln.say().find("that does not enclose d4 a second time") >= 0, ln.say()
    ln.vb.lift(ln.board_cell("c5"))
    ln.vb.advance(SETTLE_MS)
    ln.vb.put(ln.board_cell("e4"))
    ln.vb.advance(SETTLE_MS)
    assert ln.vb.app.pos.ply == 0  # complete once the captured man is off
    ln.vb.lift(ln.board_cell("d4"))  # the captured White man comes off
    ln.vb.advance(SETTLE_MS)
    assert "d4 is taken" in ln.say(), ln.say()


def test_learn_brochs_submission_asked_with_hint_held_or_press():
    ln = Learner("brochs")
    ln.start()
    _to_lesson(ln, "submission")
    ln.vb.put(ln.board_cell("h9"))  # a drop is a move, not the question
    ln.vb.advance(SETTLE_MS)
    assert "this lesson asks for submission" in ln.say(), ln.say()
    ln.vb.lift(ln.board_cell("h9"))
    ln.vb.advance(SETTLE_MS)
    ln.hold("hint")  # on the 15 x 15 board: hint held plays the lesson's button
    assert ln.vb.app.pos.submission() == "b?", ln.vb.app.pos.submission()
    assert "Asked. White answers" in ln.say(), ln.say()
    ln.click("undo")  # the lesson again: serial press works too
    ln.set_up()
    assert ln.vb.command("press submission")[0].startswith("ok played (s?)")
    assert "Asked. White answers" in ln.say(), ln.say()
