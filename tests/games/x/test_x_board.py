"""X on the (virtual) board (firmware/xobo/games/x/board.py, docs/rules/x.md "On the sensing
board"): the owners' colours, the turn on the edges, the corners dim while provisional and
bright once settled, the neighbours of a lifted piece, and the end's winning groups."""

from xobo.games.x import ai
from xobo.games.x.rules import Position, parse_cell
from xobo.runtime import colours as C
from xobo.runtime.virtual_board import VirtualBoard

PIECE = (C.X_RED, C.X_YELLOW, C.X_GREEN)
DIM = (C.X_RED_CORNER, C.X_YELLOW_CORNER, C.X_GREEN_CORNER)
WIN = (C.X_WIN_RED, C.X_WIN_YELLOW, C.WIN_P3)


def _board():
    vb = VirtualBoard(settings={"game": "x"})
    events = []
    vb.app.subscribe(events.append)
    vb.advance(100)
    return vb, events


def _play(vb, cell):
    vb.put(cell)
    vb.advance(1500)


def _cell(vb, name):
    return parse_cell(name, 8)


def _edges(vb):
    return set(vb.app.light.edge_code)


def _loaded(vb, pos):
    """The board set to ``pos``, its pieces put."""
    vb.command("load " + pos.to_string())
    vb.set_cubes(pos.heights)
    vb.advance(1500)
    assert vb.app.inf.state_name() == "match"


def test_XM2_each_piece_in_its_owners_colour_and_the_player_to_move_on_every_edge():
    vb, events = _board()
    assert _edges(vb) == {C.X_RED}
    _play(vb, "e5")
    assert ("move", "e5", "") in events
    assert _edges(vb) == {C.X_YELLOW}
    _play(vb, "d4")
    assert _edges(vb) == {C.X_GREEN}
    _play(vb, "c6")
    assert _edges(vb) == {C.X_RED}
    code = vb.app.light.code
    assert [code[_cell(vb, c)] for c in ("e5", "d4", "c6")] == list(PIECE)
    assert code[_cell(vb, "a2")] == 0


def test_XS2_XS4_corner_cell_dim_while_provisional():
    vb, _ = _board()
    _play(vb, "a1")  # red holds SW through the corner cell alone: provisional
    assert vb.app.light.code[0] == C.X_RED_CORNER
    _play(vb, "h8")  # yellow holds NE
    assert vb.app.light.code[63] == C.X_YELLOW_CORNER


def test_XS4_settled_corner_cell_is_bright_and_an_open_corners_cell_shows_its_piece():
    # a position where some corner is settled and the game goes on
    found = None
    for seed in range(40):
        pos = Position(8, 0)
        while not pos.is_terminal() and found is None:
            pos.apply(ai.choose_move(pos, "greedy", seed=seed))
            settled = [k for k in range(4) if pos.corner_settled(k)]
            if settled and pos.filled < 50:
                found = (pos.clone(), settled[0])
        if found:
            break
    pos, k = found
    vb, _ = _board()
    _loaded(vb, pos)
    corner = (0, 7, 56, 63)[k]
    assert vb.app.light.code[corner] == PIECE[pos.corner_owner(k)]
    for j in range(4):
        c = (0, 7, 56, 63)[j]
        o = pos.corner_owner(j)
        if o >= 0 and not pos.corner_settled(j):
            assert vb.app.light.code[c] == DIM[o]
        elif o < 0:
            assert vb.app.light.code[c] == 0


def test_XB3_a_lifted_piece_shows_its_six_neighbours_and_putting_it_back_plays_nothing():
    vb, events = _board()
    _play(vb, "e5")
    _play(vb, "d4")
    vb.lift("e5")
    vb.advance(200)
    code = vb.app.light.code
    shown = sorted(vb.app.cell_name(c) for c in range(64) if code[c] == C.X_NEIGHBOUR)
    assert shown == ["d5", "d6", "e4", "e6", "f4", "f5"]  # not d4 (SW) nor f6 (NE)
    vb.put("e5")
    vb.advance(1500)
    assert vb.app.pos.ply == 2
    assert [e for e in events if e[0] == "move"] == [("move", "e5", ""), ("move", "d4", "")]
    assert C.X_NEIGHBOUR not in vb.app.light.code


def test_XB3_a_lifted_piece_is_to_put_back_at_once_never_an_unknown_situation():
    # X's pieces never move: a lifted piece can start no move, so the board asks for it
    # back from the first scan, with its neighbours lit (it said "unknown" for the settle
    # time first: the page showed "unknown situation" under the neighbours)
    vb, events = _board()
    _play(vb, "e5")
    vb.lift("e5")
    seen = set()
    for _ in range(30):
        vb.advance(50)
        seen.add(vb.state()["inference"])
        assert C.X_NEIGHBOUR in vb.app.light.code
    assert seen == {"fix"}, seen
    assert vb.state()["fill"] == ["e5"]
    assert vb.app.guide_text() == "put e5 back: its six neighbours are blinking"
    assert ("fix", "fill e5") in events
    vb.put("e5")
    vb.advance(1500)
    assert vb.state()["inference"] == "match" and vb.app.pos.ply == 1


def test_XB3_the_piece_being_put_shows_its_neighbours_before_it_is_played():
    vb, _ = _board()
    vb.put("a8")
    vb.advance(100)
    code = vb.app.light.code
    assert sorted(vb.app.cell_name(c) for c in range(64) if code[c] == C.X_NEIGHBOUR) == \
        ["a7", "b7", "b8"]


def test_XE2_the_end_shows_the_four_winning_groups_and_the_winner_on_the_edges():
    pos = Position(8, 0)
    while pos.filled < 63:
        pos.apply(ai.choose_move(pos, "greedy", seed=4))
    last = pos.legal_actions()[0]
    after = pos.clone()
    after.apply(last)
    w = after.winner()
    vb, events = _board()
    _loaded(vb, pos)
    _play(vb, pos.move_text(last))
    s = after.scores(bytearray(3))
    assert ("result", ("red", "yellow", "green")[w], "%d-%d-%d" % (s[0], s[1], s[2])) in events
    assert _edges(vb) == {WIN[w]}
    code = vb.app.light.code
    group = bytearray(64)
    in_groups = bytearray(64)
    for k in range(4):
        o = after.corner_owner(k)
        after.corner_cells(k, group)
        for c in range(64):
            if group[c]:
                in_groups[c] = 1
                assert code[c] == (WIN[o] if o == w else PIECE[o])
    for c in range(64):
        if not in_groups[c] and c not in (0, 7, 56, 63):
            assert code[c] == DIM[after.owner[c] - 1]


def test_the_three_owners_differ_by_pattern_as_well_as_colour():
    # red and green look alike to some players: Green's pieces breathe slowly, Red's and
    # Yellow's are steady, and Yellow's is far brighter (the issue: no meaning rests on colour
    # alone)
    red, yellow, green = PIECE
    assert C.PATTERN[red] == C.STEADY and C.PATTERN[green] == C.SLOW
    assert C.RGB[red] != C.RGB[green] != C.RGB[yellow]
    assert C.level(C.SLOW, 0) >= 112 and C.level(C.SLOW, 1024) == 256


def test_x_on_the_15x15_board_sits_in_its_middle_and_plays():
    vb = VirtualBoard(board="pico_15x15", settings={"game": "x"})
    vb.advance(300)
    place = vb.app.place
    topo = vb.app.topo
    assert (place.ox, place.oy) == (3, 3)  # the 8 x 8 rhombus on d4-k11
    assert topo.cell_name(place.to_board[0]) == "d4"
    assert topo.cell_name(place.to_board[63]) == "k11"
    for board_cell in ("d4", "k11", "g7"):
        vb.put(board_cell)
        vb.advance(1500)
    assert [vb.app.pos.move_text(m) for m in vb.app.pos.history()] == ["a1", "h8", "d4"]
    colours = vb.cell_colors()
    lit = {topo.cell_name(b) for b in range(225) if colours[b] != "000000"}
    assert lit <= {topo.cell_name(b) for b in place.board_cells()}
    vb.put("a1")  # outside the rhombus: never a move
    vb.advance(1500)
    assert vb.app.pos.ply == 3


def test_x_state_has_the_corners_each_player_wins_now_xs2():
    from xobo.runtime.virtual_board import VirtualBoard

    vb = VirtualBoard(settings={"game": "x"})
    vb.advance(50)
    assert vb.state()["score"] == {"red": 0, "yellow": 0, "green": 0}
    vb.put("a1")  # Red on the South-West corner cell: SW is Red's for now (XS1)
    vb.advance(1500)
    st = vb.state()
    assert st["score"] == {"red": 1, "yellow": 0, "green": 0}
    assert st["score_label"] == "Corners"
