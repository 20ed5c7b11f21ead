# dual-runtime
"""The games' move histories (xobo.gamekit): fixed-size pages, never one block that grows;
a clone shares the pages it has seen and either side copies a shared page before writing;
the limit (the game's MAX_PLIES, with room for the computer's search) is a clear MoveError."""

from xobo_testing import message_of, raises

from xobo.errors import MoveError
from xobo.gamekit import PAGE, History
from xobo.games.chain_reaction import rules as cr


def test_pages_are_made_as_the_game_reaches_them_all_the_same_size():
    h = History(23, 2000)
    assert h.pages == []
    h.for_write(0)
    h.for_write(PAGE - 1)
    assert len(h.pages) == 1
    h.for_write(PAGE)
    assert len(h.pages) == 2
    assert all(len(p) == PAGE * 23 for p in h.pages)


def test_the_limit_is_a_move_error_saying_so():
    h = History(3, 40)  # rounded up to whole pages: 64 plies
    h.for_write(63)
    assert raises(MoveError, h.for_write, 64)
    assert "the longest this board keeps" in message_of(MoveError, h.for_write, 64)


def test_a_clone_shares_pages_and_copies_one_before_writing_into_it():
    h = History(2, 1000)
    for ply in range(70):
        h.for_write(ply)[(ply % PAGE) * 2] = ply
    c = h.copy(40)
    # the pages before the clone's ply are shared; its ply's own page (where both write
    # next) is the clone's own copy at once, so the game's page never moves
    assert c.pages[0] is h.pages[0] and len(c.pages) == 2
    assert not c.ready[0] and not h.ready[0]  # shared: the fast path must ask for_write
    game_page = h.pages[1]
    assert c.pages[1] is not game_page and c.pages[1] == game_page and c.ready[1]
    c.for_write(40)[(40 % PAGE) * 2] = 99
    h.for_write(40)[(40 % PAGE) * 2] = 77
    assert h.pages[1] is game_page  # the game's page did not move
    assert c.pages[1][(40 % PAGE) * 2] == 99 and h.pages[1][(40 % PAGE) * 2] == 77
    assert c.pages[0] is h.pages[0]  # never written: still one page for both
    c.for_write(5)[(5 % PAGE) * 2] = 55  # (a clone writing into a shared page copies it)
    assert c.pages[0] is not h.pages[0] and h.pages[0][(5 % PAGE) * 2] == 5


def test_reserve_makes_the_pages_of_a_saved_game_at_once():
    h = History(23, 100)
    h.reserve(70)
    assert len(h.pages) == 3 and all(h.ready[k] for k in range(3))
    h.reserve(10000)  # never past the limit
    assert len(h.pages) == 4 and not h.ready[4]


def test_a_long_chain_reaction_game_undoes_exactly_through_its_clone():
    pos = cr.Position()
    buf = cr.new_move_buffer()
    seen = []
    while pos.ply < 300 and not pos.is_terminal():
        n = pos.legal_moves(buf)
        seen.append(pos.to_string())
        pos.apply(buf[(pos.ply * 7) % n])
    c = pos.clone()
    moves = pos.history()
    assert c.history() == moves
    while c.ply:
        c.undo()
        assert c.to_string() == seen[c.ply]
    assert pos.history() == moves  # the original is untouched by the clone's undo
