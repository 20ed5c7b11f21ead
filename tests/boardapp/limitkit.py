# dual-runtime helper (not a test module)
"""A game driven to its limits on the virtual board, for CPython and MicroPython alike
(tests/boardapp/test_limits.py runs the same scenarios on both).

A scenario starts from a save of ``moves`` (the saved texts of a legal game near its longest:
the game's MAX_PLIES, or its natural end for X and the test game), boots it, then does
``actions`` one after the other, each by a path a player or a host takes: the pieces, serial
``move`` (a move the pieces play, a move no piece shows), the game's buttons, ok held, the hint,
the computer opponent, undo, resign, a power cut. After every action it checks what the board
promises (docs/firmware.md, "The longest games"):

- the game never goes past its longest (``MAX_PLIES``), by any path;
- at the limit, or after the end, every way to play a move is refused, with the words that
  say why (serial ``error``, ``event error``/``event say``), and nothing changes;
- the save always holds the game the board shows: a power cut resumes it, never a new game.

Usage::

    from boardapp.limitkit import run_scenario
    trace = run_scenario("brochs", "pico_15x15", moves, ["host", "pass", "reboot", "undo"])
"""

from xobo.runtime.storage import SavedGame
from xobo.runtime.virtual_board import VirtualBoard

_SEARCH_MS = 50  # the hint's search bound (its limits are tested here, not its strength)
ACTIONS = ("pieces", "host", "pass", "buttons", "ok-held", "hint", "computer", "undo",
           "resign", "reboot")


def run_scenario(game, board, moves, actions):
    """Boot ``game`` on ``board`` from a save of ``moves``, do ``actions``; returns the
    trace (one line per action: what happened). AssertionError when a promise is broken."""
    vb = VirtualBoard(board=board, settings={"game": game, "settle": 200, "level": "random"})
    app = vb.app
    name = app.saved.file.name
    SavedGame(vb.flash, name).save(game, app.params, app.first, "", list(moves))
    vb.power_cut()
    app = vb.app
    app.ai_time_ms = _SEARCH_MS
    assert app.pos.ply == len(moves), (app.note, len(moves))
    lines = []
    vb.subscribe(lines.append)
    vb.set_cubes(app.pos.heights)
    vb.advance(300)
    trace = []
    for action in actions:
        vb.set_cubes(app.pos.heights)  # (the pieces as the position has them first)
        vb.advance(300)
        del lines[:]
        before = app.pos.ply
        ended = bool(app.ended())
        full = app.full()
        what = _do(vb, action)
        app = vb.app  # (a power cut makes the board again)
        _check(vb, action, before, ended, full, what, lines)
        trace.append("%s %d->%d %s" % (action, before, app.pos.ply, what))
    return trace


def _do(vb, action):
    """Do ``action``; returns a short word of what came of it."""
    app = vb.app
    pos = app.pos
    if action == "reboot":
        vb.power_cut()
        vb.app.ai_time_ms = _SEARCH_MS
        vb.set_cubes(vb.app.pos.heights)
        vb.advance(300)
        return "rebooted"
    if action == "undo":
        return _reply(vb.command("undo"))
    if action == "resign":
        names = app.names
        return _reply(vb.command("resign %s %s" % (names[pos.side], names[(pos.side + 1)
                                                                            % len(names)])))
    if action == "hint":
        return _reply(vb.command("hint"))
    if action == "ok-held":
        vb.hold("ok", 1600)  # (a long press: 1.5 s)
        vb.advance(1900)
        return "held"
    if action == "buttons":
        out = []
        for name in app.layers.BUTTON_NAMES:
            if name == "master":
                continue  # (picks a drop: not a move of its own)
            out.append(_reply(vb.command("press " + name)))
            app = vb.app
            if app.pos.ply != pos.ply or app.ended():
                break
        return "|".join(out) or "none"
    if action == "computer":
        vb.command("set opponent " + app.names[pos.side])
        vb.advance(1000)
        if app.pending >= 0:
            _pieces_follow(vb, app.pending)
        vb.command("set opponent off")
        return "computer"
    if action == "pass":
        m = _unseen_move(app)
        if m < 0:
            return "no-pass"
        return _reply(vb.command("move " + pos.move_text(m)))
    m = _a_move_the_pieces_play(pos) if not app.ended() and not app.full() else \
        _a_move_past_the_end(app)
    if m < 0:
        return "no-move"
    if action == "host":
        reply = _reply(vb.command("move " + pos.move_text(m)))
        if reply != "ok":
            return reply
    _pieces_follow(vb, m)
    return "played"


def _reply(reply):
    """'ok', or the error's words."""
    if reply and reply[0].startswith("ok"):
        return "ok"
    return reply[0] if reply else "none"


def _pieces_follow(vb, m):
    """The pieces of move ``m`` put as the position after it has them, ok pressed; the
    board's cycles until it commits, or for the long settle time (a move onto a piece: the
    switches see no change; at the limit: nothing is committed)."""
    app = vb.app
    ply = app.pos.ply
    after = app.pos.clone()
    after.play(m)
    vb.set_cubes(after.heights)
    vb.advance(40)
    vb.press("ok")
    vb.advance(40)
    vb.release("ok")
    waited = 0
    while app.pos.ply == ply and waited < 3300:
        vb.advance(10)
        waited += 10


def _a_move_the_pieces_play(pos):
    """The first legal move some piece shows (not a pass, a question, a declaration)."""
    for m in pos.legal_actions():
        text = pos.move_text(m)
        if text[0] != "(" and text != "--" and text[0] != "!":
            return m
    return -1


def _a_move_past_the_end(app):
    """At the limit (the game is not over by its rules): a move the rules allow, which the
    board must refuse; after the end: none is legal (-1)."""
    if app.pos.is_terminal() or app.resigned:
        return -1
    return _a_move_the_pieces_play(app.pos)


def _unseen_move(app):
    """A legal move no piece shows (Brochs's pass), -1 when the game has none."""
    pos = app.pos
    if pos.is_terminal():
        return -1
    for m in pos.legal_actions():
        sl = bytearray(app.rules.FOOTPRINT_MAX + 1)
        sa = bytearray(app.rules.FOOTPRINT_MAX + 1)
        nl, na = pos.footprint(m, sl, sa)
        if nl == 0 and na == 0 and pos.touch_cell(m) < 0:
            return m
    return -1


def _check(vb, action, before, ended, full, what, lines):
    """The promises after ``action``, done when the game was over (``ended``) or at its
    longest (``full``) or neither."""
    app = vb.app
    limit = app.rules.MAX_PLIES
    ply = app.pos.ply
    assert ply <= limit, "%s: ply %d past the longest game (%d)" % (action, ply, limit)
    if ended and action == "ok-held":  # after the end ok held starts the next game
        assert ply == 0 and not app.ended(), (action, ply)
    elif (ended or full) and action not in ("undo", "reboot", "resign"):
        assert ply == before, "%s played a move after the end or the limit: %d -> %d (%s)" % (
            action, before, ply, lines)
    why = "" if not (ended or full) else "the game is over" if ended else app.full_text()
    if why and action in ("host", "pass", "hint", "buttons") and what not in ("none",
                                                                            "no-pass",
                                                                            "no-move"):
        for word in what.split("|"):
            assert word.startswith("error " + why), (action, what, why)
    if full and not ended and action == "ok-held":
        assert "event say " + app.full_text() in lines, lines
    if app.full() and not app.ended():
        assert app.guide_text() == app.full_text(), app.guide_text()
        assert app.inf.state_name() == "over", app.inf.state_name()
    for line in lines:
        assert not line.startswith("event error") or line == "event error " + \
            app.full_text() or "is over" in line, line
    # the save holds the game the board shows (a power cut resumes it)
    g = SavedGame(vb.flash, app.saved.file.name).load()
    assert g is not None and len(g["moves"]) == ply, (action, ply, g and len(g["moves"]))
    assert (g.get("resigned") is not None) == bool(app.resigned), (action, g.get("resigned"))


def serve():
    """Scenarios from stdin, one JSON object a line (``game``, ``board``, ``moves``,
    ``actions``); for each a line ``OK <the trace as JSON>`` or ``FAIL <what broke>`` (the
    MicroPython side of tests/boardapp/test_limits.py, one process for many scenarios)."""
    import json
    import sys

    while True:
        line = sys.stdin.readline()
        if not line:
            return
        s = json.loads(line)
        try:
            trace = run_scenario(s["game"], s["board"], s["moves"], s["actions"])
        except Exception as exc:  # (the test shows it)
            print("FAIL %s: %s" % (exc.__class__.__name__, exc))
        else:
            print("OK " + json.dumps(trace))
        try:
            sys.stdout.flush()
        except AttributeError:
            pass
        import gc

        gc.collect()


if __name__ == "__main__":
    serve()
