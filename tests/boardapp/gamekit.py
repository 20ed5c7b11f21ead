# dual-runtime helper (not a test module)
"""Any game's moves played on the virtual board as players play them: the board is told the
move (serial ``move``), the pieces are set as the position after it has them, and the board
commits it when it sees them (docs/games.md: a position's ``heights`` are its pieces).

Usage::

    from boardapp.gamekit import game_board, play
    vb = game_board("x")                 # X on the 9 x 9 board, pieces in place, settle 200
    play(vb, "d4")                        # committed (AssertionError if the board would not)
"""

from xobo.runtime.virtual_board import VirtualBoard

SETTLE = 200


def settle(vb, ms=2000):
    """Let the board see the pieces: advance until nothing waits (or ``ms`` passed)."""
    inf = vb.app.inf
    t = 0
    while t < ms:
        vb.advance(50)
        t += 50
        if inf.state_name() == "match" and vb.app.pending < 0:
            return


def sync(vb):
    """The pieces on the board become those of the board's position (a game switched, a
    power cut with the pieces moved since: what players do when the board asks)."""
    vb.set_cubes(bytearray(vb.app.topo.n_cells))
    vb.set_cubes(vb.app.pos.heights)
    settle(vb)


def game_board(game, board="pico_gpio"):
    vb = VirtualBoard(board=board, settings={"game": game, "settle": SETTLE})
    vb.advance(50)
    sync(vb)
    return vb


def play(vb, text):
    """Play the move ``text`` (the game's notation) with the pieces; returns the ply after."""
    app = vb.app
    ply = app.pos.ply
    reply = vb.command("move " + text)
    assert reply[0].startswith("ok"), reply
    if app.pos.ply == ply:
        after = app.pos.clone()
        after.apply(after.parse_move(text))
        vb.set_cubes(after.heights)
        t = 0
        while app.pos.ply == ply and t < 5000:
            vb.advance(50)
            t += 50
    assert app.pos.ply == ply + 1, (text, app.pos.ply, app.inf.state_name())
    settle(vb)
    return app.pos.ply


def legal_texts(pos):
    """The legal moves of ``pos`` in its notation."""
    out = []
    for m in pos.legal_actions():
        out.append(pos.move_text(m))
    return out
