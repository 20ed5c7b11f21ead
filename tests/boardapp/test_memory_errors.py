# dual-runtime
"""A MemoryError anywhere in a cycle is caught: the board says so (``event error out of memory
...``), collects and goes on, and the saved game is never harmed (the device issue: a 10,000-move
soak on a Pico-sized heap once let one escape ``App.step``)."""

from boardapp.boardkit import Recorder
from xobo.games.xobo.rules.geometry import parse_cell
from xobo.runtime.storage import SavedGame
from xobo.runtime.virtual_board import VirtualBoard


class _FailOnce:
    """Wraps a method so that its next call raises MemoryError, once."""

    def __init__(self, fn):
        self.fn = fn
        self.armed = True

    def __call__(self, *args):
        if self.armed:
            self.armed = False
            raise MemoryError("memory allocation failed, allocating 9216 bytes")
        return self.fn(*args)


def test_memory_error_during_a_commit_is_reported_and_the_move_is_saved_once():
    vb = VirtualBoard()
    vb.advance(50)
    rec = Recorder(vb)
    app = vb.app
    # after the move is applied: the light's layers for the new position fail
    app.light.set_position = _FailOnce(app.light.set_position)
    vb.switches.put(parse_cell("e5"))
    vb.advance(1500)
    errors = [x for x in rec.lines if x.startswith("event error out of memory in the scan")]
    assert len(errors) == 1, rec.lines
    assert app.pos.ply == 1 and app.inf.state_name() == "match"
    g = SavedGame(vb.flash).load()
    assert g["moves"] == ["e5"]  # saved by the recovery: the commit was cut short
    vb.switches.put(parse_cell("d4"))  # and the game goes on
    vb.advance(1500)
    assert app.pos.ply == 2
    assert SavedGame(vb.flash).load()["moves"] == ["e5", "d4"]


def test_memory_error_in_the_light_is_caught_and_the_board_renders_again():
    vb = VirtualBoard()
    vb.advance(50)
    rec = Recorder(vb)
    app = vb.app
    app.light.render = _FailOnce(app.light.render)
    vb.advance(100)
    assert rec.has("event error out of memory in the light")
    assert app.mem_errors == 1
    vb.switches.put(parse_cell("e5"))
    vb.advance(1500)
    assert app.pos.ply == 1


def test_memory_error_in_a_serial_command_replies_an_error_and_keeps_the_game():
    vb = VirtualBoard()
    vb.advance(50)
    vb.switches.put(parse_cell("e5"))
    vb.advance(1500)
    app = vb.app
    app.undo = _FailOnce(app.undo)
    reply = vb.command("undo")
    assert reply[0].startswith("error out of memory running 'undo'"), reply
    assert app.pos.ply == 1
    assert SavedGame(vb.flash).load()["moves"] == ["e5"]
    assert vb.command("undo")[0] == "ok undo e5"


def test_mem_command_reports_free_and_allocated_bytes():
    vb = VirtualBoard()
    reply = vb.command("mem")
    assert len(reply) == 1 and reply[0].startswith("ok mem free=")
    words = reply[0].split()
    free = int(words[2][len("free="):])
    alloc = int(words[3][len("alloc="):])
    import sys

    if sys.implementation.name == "micropython":
        assert free > 0 and alloc > 0
    else:
        assert free == -1 and alloc == -1  # CPython has no MicroPython heap
    assert vb.command("mem 1")[0].startswith("error mem takes no argument")


def test_timing_command_reports_counts_mean_and_worst_then_starts_again():
    vb = VirtualBoard()
    vb.advance(500)  # 50 cycles
    reply = vb.command("timing")
    assert len(reply) == 1 and reply[0].startswith("ok timing scan=")
    fields = {}
    for word in reply[0].split()[2:]:
        name, _, value = word.partition("=")
        fields[name] = [int(x) for x in value.split("/")]
    assert fields["scan"][0] >= 50 and fields["light"][0] >= 50
    assert fields["write"][0] >= 1  # the first frame is written
    for _count, mean, worst in fields.values():
        assert 0 <= mean <= worst
    assert vb.command("timing")[0] == "ok timing scan=0/0/0 light=0/0/0 write=0/0/0"


class _FailTwice:
    """Its next call raises MemoryError, the one after (inside the recovery) IndexError, as
    Inference.set_position did after `set game brochs` ran out of memory on the 15x15 board."""

    def __init__(self, fn):
        self.fn = fn
        self.calls = 0

    def __call__(self, *args):
        self.calls += 1
        if self.calls == 1:
            raise MemoryError("memory allocation failed, allocating 4096 bytes")
        if self.calls == 2:
            raise IndexError("bytearray index out of range")
        return self.fn(*args)


def test_out_of_memory_recovery_never_raises_and_says_what_failed():
    vb = VirtualBoard()
    vb.advance(50)
    rec = Recorder(vb)
    app = vb.app
    app.inf.set_position = _FailTwice(app.inf.set_position)
    vb.switches.put(parse_cell("e5"))
    vb.advance(1500)  # no exception out of the cycle
    assert rec.has("event error out of memory in the scan, then IndexError"), rec.lines
    assert not app.unrecovered  # rebuilt by the next cycle
    assert app.mem_errors >= 1
    vb.advance(100)
    vb.switches.put(parse_cell("d4"))
    vb.advance(1500)
    assert app.pos.ply == 2, app.inf.state_name()


def test_out_of_memory_while_a_new_size_is_made_keeps_the_game_in_progress_whole():
    # X's size is a new game's setting: its buffers are made again at the new size. Out of
    # memory there once left a board with no position, failing at every cycle after
    from xobo.runtime import loading

    vb = VirtualBoard(settings={"game": "x", "settle": 200})
    vb.advance(50)
    app = vb.app
    assert vb.command("move d4")[0].startswith("ok move")
    after = app.pos.clone()
    after.apply(app.pending)
    vb.set_cubes(after.heights)
    vb.advance(500)
    assert app.pos.ply == 1
    assert vb.command("set size 6")[0] == "ok size 6 (from the next new game)"
    real = loading.make_game
    loading.make_game = _FailOnce(real)
    try:
        reply = vb.command("new")
    finally:
        loading.make_game = real
    assert reply[0].startswith("error out of memory running 'new'"), reply
    assert vb.app.pos.ply == 1 and vb.app.pos.size == 8  # the game in progress, whole
    vb.advance(100)
    assert vb.command("state")[0].startswith("ok state")
    assert vb.command("new")[0].startswith("ok new game x")  # and the next try works
    assert vb.app.pos.size == 6 and vb.app.pos.ply == 0
