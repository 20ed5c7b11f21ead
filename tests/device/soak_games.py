"""A soak of one game with the computer on every side, under MicroPython with the Pico's heap
(run by tests/device/test_soak_games.py): the computer plays its sides (the ``opponent``
setting), the other side plays the computer's hint as a host move, the pieces follow each
move, and a new game starts when one ends.
Usage: micropython soak_games.py GAME BOARD MOVES FLASH_DIR

Prints ``SOAK moves=N games=G oom=O errors=E stuck=S``, ``NEWFREE a b ...`` (the free heap at
each new game's start) (``oom``: ``event error out of
memory`` lines, each recovered; ``errors``: every other ``event error``; ``stuck``: a move the
board did not commit) and the first error lines."""

import sys

from xobo.compat import collect, mem_free
from xobo.runtime.storage import Settings
from xobo.runtime.virtual_board import VirtualBoard


def main(game, board, total, flash_dir):
    # the game as the device boots it: from its saved settings (a game switched to at run time
    # is items 1-2 of the issue's, another test's)
    vb = VirtualBoard(flash_dir=flash_dir, board=board)  # files, as on the device: not heap
    Settings(vb.flash).save({"game": game, "settle": 200})
    vb.app = vb.protocol = None  # the first boot's app goes before the next one is made
    collect()
    vb.power_cut()
    app = vb.app
    app.release_ai = True  # as on the device: the computer's buffers go after each search
    app.lean = True
    app.ai_time_ms = 10  # a short search (its memory, not its strength, is soaked here)
    names = app.names
    vb.command("set opponent " + (names[0] if len(names) == 2 else names[0] + "+" + names[1]))
    oom = []
    errors = []

    def listen(line):
        if line.startswith("event error out of memory"):
            oom.append(line)
        elif line.startswith("event error"):
            errors.append(line)

    vb.subscribe(listen)
    # the player's own move list, made once: the soak's player allocates as little as it can
    # in the board's heap (a list of ~400 moves made when the heap was short once ended a
    # Brochs soak in the player's code, not the board's)
    buf = app.rules.new_move_buffer()
    vb.set_cubes(app.pos.heights)  # the start position's pieces
    vb.advance(50)
    moves = games = stuck = 0
    starts = []  # the free heap at each new game's start
    while moves < total:
        pos = app.pos
        if pos.is_terminal() or app.full():
            vb.command("new")
            vb.set_cubes(app.pos.heights)
            vb.advance(300)
            collect()
            starts.append(mem_free())
            games += 1
            continue
        start_ply = pos.ply
        if app.pending < 0 and not app.computer_player().plays(pos.side):
            r = vb.command("hint")
            if r and r[0].startswith("error out of memory"):
                # recovered (the board said so: an ``event error out of memory``, counted in
                # oom): the player plays on without the hint, as a person at the table would
                text = _a_move_without_hint(pos, buf)
            elif not r or not r[0].startswith("ok hint "):
                errors.append("hint: %s" % r)
                break
            else:
                text = r[0][8:]
            r = vb.command("move " + text)
            if not r or not r[0].startswith("ok move"):
                errors.append("move: %s" % r)
                break
        k = 0
        # the computer thinks (each cycle may search); a move that no piece plays (Brochs's
        # question and its answer, a pass) is committed at once, never pending
        while app.pending < 0 and app.pos.ply == start_ply and k < 50:
            vb.advance(10)
            k += 1
        if app.pending < 0 and app.pos.ply != start_ply:
            moves += 1
            continue
        if app.pending < 0:
            stuck += 1
            errors.append("no computer move at ply %d" % pos.ply)
            break
        ply = app.pos.ply
        after = app.pos.clone()
        after.apply(app.pending)
        vb.set_cubes(after.heights)
        vb.advance(40)  # debounced: the move is complete, ok plays it at once
        vb.press("ok")
        vb.advance(40)
        vb.release("ok")
        # ok commits it at the next cycle; a move with the same pieces before and after (onto
        # a piece) waits for the settle time: cycles until the ply moves on, at most 3.3 s (a
        # fixed 3.3 s wait after every move was 96% of the soak's time)
        waited = 0
        while app.pos.ply == ply and waited < 3320:
            vb.advance(10)
            waited += 10
        if app.pos.ply == ply:
            stuck += 1
            errors.append("not committed at ply %d: %s" % (ply, app.inf.state_name()))
            break
        moves += 1
    collect()
    print("SOAK moves=%d games=%d oom=%d errors=%d stuck=%d free=%d" % (
        moves, games, len(oom), len(errors), stuck, mem_free()))
    print("NEWFREE " + " ".join(str(x) for x in starts))
    for line in (errors + oom)[:5]:
        print("ERROR " + line)


def _a_move_without_hint(pos, buf):
    """A legal move that the pieces play (not a pass, a question or a resignation, which
    Brochs writes in parentheses or as --), chosen by the ply so that the soak stays seeded;
    the moves listed into ``buf`` (preallocated)."""
    n = pos.legal_moves(buf)
    for k in range(n):
        text = pos.move_text(buf[(pos.ply * 7 + k) % n])
        if text[0] != "(" and text != "--":
            return text
    return pos.move_text(buf[0])


main(sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4])
