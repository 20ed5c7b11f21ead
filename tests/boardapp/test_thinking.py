# dual-runtime
"""The computer thinks without stopping the board (the device issue): its search calls the
board back (``Computer.poll``) and the board runs its scan and its light every 10 ms meanwhile;
a switch change is seen and answered, a button stops the search (the board's
own cycle then handles it; cubes moved meanwhile never become its move), and the computer's
edges pulse yellow (THINKING) while it thinks.

The clock here advances 1 ms each time it is read, so that a search takes virtual time."""

from boardapp.boardkit import Recorder
from xobo.games.xobo.rules.geometry import parse_cell
from xobo.runtime import colours as C
from xobo.runtime.virtual_board import VirtualBoard


class _TickingClock:
    """The board's virtual clock, advanced 1 ms at every reading (a search takes time)."""

    def __init__(self, clock):
        self.clock = clock

    def ticks_ms(self):
        return self.clock.advance(1)

    def __getattr__(self, name):
        return getattr(self.clock, name)


class _Spy:
    """Wraps the computer's poll (Computer.poll): counts the calls and runs ``action(n)``
    at each."""

    def __init__(self, app, action=None):
        self.app = app
        self.computer = app.computer_player()
        self.poll = self.computer.poll
        self.action = action
        self.calls = 0
        self.cycles = 0
        self.edges = []

    def __call__(self):
        self.calls += 1
        before = self.computer.polled_at
        if self.action is not None:
            self.action(self.calls)
        stop = self.poll()
        if self.computer.polled_at != before:
            self.cycles += 1
            self.edges.append(self.app.light.edge_code[0])
        return stop


def _board_thinking(action=None):
    vb = VirtualBoard()
    vb.advance(50)
    app = vb.app
    app.d.clock = _TickingClock(app.d.clock)
    spy = _Spy(app, action)
    app.computer_player().poll_fn = spy
    return vb, app, spy


def test_the_board_scans_and_lights_while_the_computer_thinks():
    vb, app, spy = _board_thinking()
    rec = Recorder(vb)
    reply = vb.command("set opponent ns")  # NS is to move: the computer thinks now
    assert reply[0].startswith("ok opponent ns")
    vb.advance(20)
    assert rec.has("event expect computer "), rec.lines
    assert spy.calls > 100 and spy.cycles >= 2  # board cycles ran inside the search
    assert C.THINKING in spy.edges  # North-South's edges pulsed yellow meanwhile
    assert app.light.thinking == -1  # and no longer after it


def test_a_cube_put_while_the_computer_thinks_is_seen_and_never_becomes_its_move():
    cell = parse_cell("a1")
    vb = None

    def put_a_cube(n):
        if n == 30:
            vb.switches.put(cell)

    vb, app, spy = _board_thinking(put_a_cube)
    rec = Recorder(vb)
    vb.command("set opponent ns")
    vb.advance(10)  # the next cycle starts the search
    # the change was debounced and announced from inside the search, which went on: the
    # computer's move is the one the board waits for, the stray cube is a mistake to fix
    switch = [k for k, x in enumerate(rec.lines) if x == "event switch a1 on"]
    expect = [k for k, x in enumerate(rec.lines) if x.startswith("event expect computer ")]
    assert switch and expect and switch[0] < expect[0], rec.lines
    assert rec.lines[expect[0]] != "event expect computer a1"  # (not this test's case)
    vb.advance(1500)
    assert app.pos.ply == 0 and app.inf.state_name() == "fix"
    vb.switches.take(cell, 1)
    vb.advance(100)
    assert app.inf.state_name() == "match" and app.pending >= 0


def test_a_button_pressed_while_the_computer_thinks_stops_it_and_is_handled():
    vb = None

    def tap_undo(n):
        if n == 30:
            vb.buttons.press("undo")
        elif n == 120:
            vb.buttons.release("undo")

    vb, app, spy = _board_thinking(tap_undo)
    rec = Recorder(vb)
    vb.command("set opponent ns")
    vb.advance(10)
    assert not rec.has("event expect computer")  # stopped for the button
    spy.action = None
    vb.advance(100)
    assert rec.has("event button undo short"), rec.lines  # handled by the board's cycle
    assert rec.has("event error nothing to undo")
    vb.advance(100)
    assert rec.has("event expect computer "), rec.lines  # then it thought again


def test_a_hint_runs_the_board_while_it_searches():
    vb, app, spy = _board_thinking()
    reply = vb.command("hint")
    assert reply[0].startswith("ok hint "), reply
    assert spy.cycles >= 2 and C.THINKING in spy.edges


def test_switching_the_computer_on_imports_the_ai_at_once_not_at_its_turn():
    # the import pauses the board (0.33 s on a Pico): at the gesture, not mid-game
    vb, app, spy = _board_thinking()
    loads = []
    computer = app.computer_player()
    load = computer.load
    computer.load = lambda: loads.append(app.pos.ply) or load()
    vb.command("set opponent ew")  # EW is not to move: the computer waits for its turn
    assert loads == [0]
    vb.command("set opponent off")
    assert loads == [0]
