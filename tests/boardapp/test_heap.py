# dual-runtime
"""The scan-debounce-infer-render cycle allocates nothing in steady state (board.md, CONTRIBUTING:
"the scan loop allocates nothing"): N cycles under micropython.heap_lock() on the unix port,
idle, with a stack lifted and a spread in progress, with a fix shown, under Voina, at the end.
Under CPython the same cycles just run."""

from xobo_testing import HEAP_LOCK_WORKS, run_with_heap_locked

from boardapp.boardkit import board_at

CYCLES = 300


def _cycles(app, clock, n):
    done = 0
    while done < n:
        clock.advance(10)
        app.step(clock.ticks_ms())
        done += 1
    return done


def _cycles_locked(vb, n=CYCLES):
    """Run n cycles (10 ms each) with the heap locked; returns how many ran."""
    return run_with_heap_locked(_cycles, vb.app, vb.clock, n)


STACK = "........./........./........./........./....4..../...1...../........./........./" \
    "......... ns 31 0 0"


def test_idle_cycle_allocates_nothing():
    vb = board_at(STACK)
    vb.advance(500)
    assert vb.app.inf.state_name() == "match"
    assert _cycles_locked(vb) == CYCLES


def test_lifted_stack_cycle_allocates_nothing():
    vb = board_at(STACK)
    vb.lift("e5")
    vb.advance(200)
    assert vb.app.inf.state_name() == "progress"
    assert _cycles_locked(vb) == CYCLES
    assert vb.app.inf.state_name() == "progress"


def test_spread_in_progress_cycle_allocates_nothing():
    vb = board_at(STACK)
    vb.lift("e5")
    vb.put("d4")  # the capture cell now holds the pair
    vb.put("c3")
    vb.advance(200)
    assert vb.app.inf.state_name() == "progress"
    assert _cycles_locked(vb) == CYCLES


def test_fix_shown_cycle_allocates_nothing():
    vb = board_at(STACK)
    vb.put("a9")
    vb.put("i1")
    vb.advance(1500)
    assert vb.app.inf.state_name() == "fix"
    assert _cycles_locked(vb) == CYCLES


COL = "....1...."
VOINA = "/".join([COL] * 4 + ["........."] + [COL] * 4) + " ew 28 0 0"


def test_voina_and_game_over_cycles_allocate_nothing():
    vb = board_at(VOINA)
    vb.advance(300)
    assert vb.app.pos.under_voina()
    assert _cycles_locked(vb) == CYCLES
    vb.put("e5")  # EW fills the gap: North-South is connected, NS wins (E2)
    vb.advance(1500)
    assert vb.app.result_name() == "ns", vb.app.pos.to_string()
    vb.advance(600)
    assert _cycles_locked(vb) == CYCLES


def _allocate():
    x = [1, 2, 3]
    x.append(4)
    return x


def test_heap_lock_really_catches_an_allocation():
    # guards the tests above: under MicroPython an allocation in the locked window must fail
    if not HEAP_LOCK_WORKS:
        return
    caught = False
    try:
        run_with_heap_locked(_allocate)
    except MemoryError:
        caught = True
    assert caught
    assert _allocate() == [1, 2, 3, 4]  # and the heap is unlocked again afterwards
