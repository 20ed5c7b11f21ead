"""The newcomer test: someone who knows none of the games completes every game's course on the
simulator's page by doing only what the page says (the lesson's words, the cells lit white,
the board's words under them: ``newcomer.py`` reads them, the one place that does), sets each
lesson up with the page's own button, and then plays a legal game against the computer: each of
its own moves the hint's, each of the computer's as the board says it (no "Play it for me", no
notation typed). A lesson that refuses what its words say, or leaves the newcomer stuck, fails.

The whole courses are long (``make test-long``); ``make test`` walks two lessons of every
course (those of its moves of several hands: a regroup and a spread, a step onto a piece the
board asks to lift and put back, a move and a remote capture...), and the test game's course
from its fifth lesson to its end, its game against the computer included."""

import pytest

from sim.newcomer import Newcomer

pytestmark = pytest.mark.browser
# each test is long (a course on the page) and makes its own simulator: they go to whichever
# worker is free (tests/conftest.py), a browser started on each
SPREAD_OVER_WORKERS = True

COURSES = {  # game: (board, lessons)
    "xobo": ("pico_gpio", 7), "x": ("pico_gpio", 7), "chain-reaction": ("pico_gpio", 7),
    "brochs": ("pico_15x15", 8), "tiny": ("pico_gpio", 6)}


def open_course(open_page, game):
    board, lessons = COURSES[game]
    pg = open_page(board)
    if game != "xobo":
        pg.select_option('[data-role="game"]', game)
        pg.wait_for_selector('.grid[data-game="%s"]' % game, timeout=30000)
        pg.sim.wait(lambda s: s["state"]["game"] == game, what="game " + game)
    pg.sim.command("set settle 200")  # the shortest settle time: the course is the same
    pg.select_option('[data-role="level"]', "random")
    nc = Newcomer(pg)
    nc.start_course()
    assert nc.lesson() == (1, lessons), nc.words()
    return nc


def walk(nc, first=1, last=None):
    """Lessons ``first`` to ``last`` as the newcomer reads them (the ones before ``first``
    skipped: 'Skip this lesson'), and the game when the walk goes to the end."""
    k, n = nc.lesson()
    while k < first:
        nc.pg.click('[data-role="learn-next"]')
        nc.wait_words("t => t.startsWith('Lesson %d/')" % (k + 1), "lesson %d" % (k + 1))
        k += 1
    while k <= (last or n) and k < n:
        nc.do_lesson()
        k += 1
        assert nc.lesson() == (k, n), nc.words()
    if last is None or last >= n:
        nc.play_out()


@pytest.mark.slow
@pytest.mark.long
@pytest.mark.parametrize("game", sorted(COURSES))
def test_a_newcomer_completes_every_course_by_what_the_page_says_then_plays_the_computer(
        open_page, game):
    walk(open_course(open_page, game))


@pytest.mark.parametrize("game, first, last", [
    ("xobo", 4, 5), ("chain-reaction", 2, 3), ("x", 1, 2), ("brochs", 4, 5), ("tiny", 5, 6)])
def test_a_newcomer_does_two_lessons_of_each_course_by_what_the_page_says(open_page, game,
                                                                           first, last):
    walk(open_course(open_page, game), first, last)
