"""A long soak of the board under MicroPython (run by tests/device/test_soak.py): moves by hand
and from a host, undos, new games and hints, on the virtual drivers, with the heap measured
after a collection at 20 checkpoints. Usage: micropython soak.py MOVES SEED

Prints ``SOAK moves=N undos=U games=G hints=H errors=E`` and ``HEAP a b c ...`` (bytes
allocated at each checkpoint)."""

import gc
import sys

from xobo.compat import forget_module
from xobo.games.xobo.ai.rng import Rng
from xobo.games.xobo.rules.moves import new_move_buffer
from xobo.games.xobo.rules.notation import format_move
from xobo.runtime.virtual_board import VirtualBoard


def main(total, seed):
    rng = Rng(seed)
    # as on the device: the saves are files (an in-memory flash would hold both slots of
    # every game in the heap), the loading code is forgotten after use, the computer's
    # buffers after each search
    vb = VirtualBoard(flash_dir="soak-flash")
    vb.app.lean = True
    vb.app.release_ai = True
    forget_module("xobo.runtime.loading")
    forget_module("xobo.runtime.saveread")
    errors = []
    vb.subscribe(lambda line: errors.append(line) if line.startswith("event error") else None)
    vb.advance(50)
    buf = new_move_buffer()
    moves = undos = games = hints = 0
    heap = []
    app = vb.app
    while moves < total:
        pos = app.pos
        n = pos.legal_moves(buf)
        if n == 0 or app.full():  # the game is over (or the longest the board keeps): new
            vb.command("new")
            vb.set_cubes(bytearray(81))
            vb.advance(200)
            games += 1
            continue
        r = rng.below(100)
        if r < 6 and pos.ply > 0:
            reply = vb.command("undo")
            assert reply[0].startswith("ok undo"), reply
            vb.set_cubes(app.pos.heights)
            vb.advance(100)
            undos += 1
            continue
        if r < 8:
            reply = vb.command("hint")
            assert reply[0].startswith("ok hint"), reply
            hints += 1
        m = buf[rng.below(n)]
        after = pos.clone()
        after.apply(m)
        if r < 50:  # a host's move: only that move counts, then the cubes
            reply = vb.command("move " + format_move(m))
            assert reply[0].startswith("ok move"), reply
        vb.set_cubes(after.heights)  # a player's hands, all at once
        vb.advance(1100)
        if app.pos.ply != after.ply:  # the switches cannot tell two regroups apart: ok
            c = (m >> 2) & 127
            k = vb.switches.lift(c)
            vb.advance(100)
            vb.switches.put(c, k)
            vb.advance(3200)
        assert app.pos.ply == after.ply and app.pos.to_string() == after.to_string(), (
            format_move(m), app.pos.to_string(), app.inf.state_name())
        moves += 1
        if moves % (total // 20) == 0:  # 20 checkpoints
            gc.collect()
            heap.append(gc.mem_alloc())
    print("SOAK moves=%d undos=%d games=%d hints=%d errors=%d" % (moves, undos, games, hints,
                                                                   len(errors)))
    print("HEAP " + " ".join(str(x) for x in heap))
    for line in errors[:5]:
        print("ERROR " + line)


main(int(sys.argv[1]), int(sys.argv[2]))
