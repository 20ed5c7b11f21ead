# dual-runtime helper (not a test module)
"""The lesson checker: every legal move at every step of a game's course, played by hand on
the virtual board, judged against the game's engine (not against the lesson's own words).

For each lesson but the last (the game against the computer), with its pieces set up:

- the cells its words name are the cells it lights, and no other (the look layer);
- its hint's move is one it praises;
- every legal move of its position is played with a player's hands; the board must praise it
  exactly when it meets the lesson's condition (``xobo.runtime.course``), never praise a move
  after which the engine ends the game against the mover (unless the lesson teaches a draw), and
  say no word with a cell left unfilled; the cells a praise names must be lit;
- after a move it refuses, the board must say how to put the lesson back, and doing that (the
  cells its words name) must give the lesson's position again, ready for its move.

A problem is a line of text: ``check_course(game)`` returns them all (an empty list: the
course is right). ``check_lesson`` takes a ``moves`` filter for the mutants' test.

Usage::

    from boardapp.lessonkit import check_course
    assert check_course("xobo") == []
"""

from boardapp.boardkit import touch_if_ambiguous
from boardapp.learnkit import Learner

LETTERS = "abcdefghijklmno"
DIGITS = "0123456789"
PLAY = 2  # xobo.runtime.learn's phases
DONE = 1


def cells_in(text):
    """The cell names in ``text`` ('e9', 'l12'): a lower-case file letter and a rank, neither
    glued to a letter or digit (rule numbers such as 'CM2' are upper case)."""
    out = []
    n = len(text)
    i = 0
    while i < n:
        ch = text[i]
        if ch in LETTERS and (i == 0 or not (text[i - 1].isalpha() or text[i - 1] in DIGITS)):
            j = i + 1
            while j < n and text[j] in DIGITS:
                j += 1
            if 1 < j - i <= 3 and (j == n or not text[j].isalpha()) and text[i + 1] != "0":
                name = text[i:j]
                if name not in out:
                    out.append(name)
            i = j
        else:
            i += 1
    return out


def lit_cells(app):
    look = app.light.look
    return [app.cell_name(c) for c in range(len(look)) if look[c]]


def engine_verdict(pos, m):
    """(ends, mover_won): whether the engine ends the game after ``m``, and whether the mover
    then has won."""
    side = pos.side
    q = pos.clone()
    q.apply(m)
    if not q.is_terminal():
        return False, False
    return True, q.winner() == side


def footprint_key(pos, m):
    """What the hands do for ``m``: the cells it empties and fills, its touch cell, its
    button."""
    lifted = bytearray(16)
    added = bytearray(16)
    nl, na = pos.footprint(m, lifted, added)
    button = pos.button_of(m) if hasattr(pos, "button_of") else ""
    return (bytes(lifted[:nl]), bytes(added[:na]), pos.touch_cell(m), button)


def play_move(ln, text):
    """A legal move of the position, by a player's hands (its button when no piece shows it),
    then the settle time; a touch when the board asks which of several."""
    vb = ln.vb
    pos = vb.app.pos
    m = pos.parse_move(text)
    ln.play_shown(text)
    settle(vb)
    if touch_if_ambiguous(vb, m):
        settle(vb)
    return m


BUSY = (1, 2, 3, 4)  # the inference's progress, complete, wait-longer, unknown


def settle(vb, most_ms=5000):
    """Let the board's time pass until it has judged the pieces: no switch still bouncing,
    the inference no longer waiting (a move in progress, complete, or unknown)."""
    vb.advance(40)  # the debounce sees the hands' last change
    for _ in range(most_ms // 10):
        if not vb.settling() and vb.app.inf.state not in BUSY:
            return
        vb.advance(10)
    raise AssertionError("the board never settled: %s" % vb.command("state"))


def restore(ln, problems, where):
    """Do what the board's words say to put the lesson back; True when it is back."""
    app = ln.vb.app
    st = ln.state()
    if st["inference"] == "match":
        return True
    words = ln.say()
    asked = st["fill"] + st["clear"] + list(st["heights"])
    if "put the lesson back" not in words and "Set up the lesson" not in words:
        problems.append("%s: the pieces to put back are not said: %r" % (where, words))
    named = cells_in(words.split("lesson back:")[-1].split("Set up the lesson:")[-1])
    for c in asked:
        if c.split("=")[0] not in named:
            problems.append("%s: the words do not name %s to put back: %r" % (where, c, words))
    try:
        ln.set_up()
    except AssertionError as exc:
        problems.append("%s: the learner cannot put the lesson back: %s" % (where, exc))
        return False
    return app.inf.state == 0


def quick(ln):
    """The shortest settle time (serial ``set settle``): the lessons are the same, and the
    hands wait for the board to settle (``settle``)."""
    ln.vb.command("set settle 200")
    ln.settle_ms = 100


def check_lesson(ln, problems, moves=None):
    """Check the lesson on the board now (the module docstring); ``moves``: only the legal
    moves whose notation is in it (all when None)."""
    app = ln.vb.app
    mode = app.mode
    k = mode.k
    field = "learn %d/%d" % (k + 1, len(mode.lessons))
    where = "%s lesson %d (%s)" % (app.settings["game"], k + 1, mode.lesson[0])
    ln.set_up()
    if "{" in mode.ask:
        problems.append("%s: a cell left unfilled in %r" % (where, mode.ask))
    named = cells_in(mode.ask)
    lit = lit_cells(app)
    for c in named:
        if c not in lit:
            problems.append("%s: names %s, not lit (lit: %s)" % (where, c, " ".join(lit)))
    for c in lit:
        if c not in named:
            problems.append("%s: lights %s, not named: %r" % (where, c, mode.ask))
    start = app.pos.to_string()
    work = app.pos.clone()
    hint = mode.expected_move()
    if hint < 0 or not mode.cond.meets(work, hint):
        problems.append("%s: the hint's move does not meet the lesson's condition" % where)
    kind = mode.cond.kind
    seen = []  # the hands' actions already made (moves of one footprint: the same hands)
    for m in work.legal_actions():
        text = work.move_text(m)
        if moves is not None and text not in moves:
            continue
        hands = footprint_key(work, m)
        if hands in seen:
            continue
        seen.append(hands)
        del ln.said[:]  # (the learner's record of the board's words: thousands of moves)
        del ln.hints[:]
        play_move(ln, text)
        if app.mode is not mode or ln.state()["learn"] != field:
            problems.append("%s: %s left the lesson" % (where, text))
            return
        praised = mode.phase == DONE
        said = mode.told
        # the move the board saw (of several with one footprint, the one it infers)
        if praised:
            m = app.pos.last_move()
        elif said:
            m = work.parse_move(said.split(": ")[0])
        text = work.move_text(m)
        meets = mode.cond.meets(work, m)
        ends, won = engine_verdict(work, m)
        at = "%s, %s" % (where, text)
        if "{" in said:
            problems.append("%s: a cell left unfilled in %r" % (at, said))
        if praised and ends and not won and kind != "draws":
            problems.append("%s: praised, but the engine ends the game against the mover" % at)
        if praised and not meets:
            problems.append("%s: praised, but it does not meet the condition %r" % (
                at, mode.lesson[4]))
        if meets and not praised:
            problems.append("%s: meets the condition %r, but refused: %r" % (
                at, mode.lesson[4], ln.say()))
        if praised:
            colours = ln.vb.cell_colors()
            for sentence in said.split(". "):
                if "(lit)" not in sentence:
                    continue
                for c in cells_in(sentence):
                    if colours[ln.board_cell(c)] == "000000":
                        problems.append("%s: the praise names %s lit, dark on the board: %r"
                                        % (at, c, said))
            ln.click("undo")  # the lesson again
            ln.set_up()
        elif not restore(ln, problems, at):
            return
        if app.pos.to_string() != start or mode.phase == DONE:
            problems.append("%s: the lesson did not come back" % at)
            return


def check_course(game, skip=()):
    """Every lesson of ``game``'s course but the last, each legal move; the problems found."""
    problems = []
    ln = Learner(game)
    ln.vb.command("set level random")
    quick(ln)
    ln.start()
    app = ln.vb.app
    while app.mode.phase != PLAY:
        if app.mode.k + 1 not in skip:
            check_lesson(ln, problems)
        ln.vb.command("learn next")
    return problems
