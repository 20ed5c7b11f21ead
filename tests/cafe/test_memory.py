"""The café host keeps nothing per move that grows: a table followed over many games holds
the same memory after the fourth game as after the first (its event lines, the recorder's
moves, the link's replies, the floor's own tables are bounded), so a host left running for
weeks behind the counter stays flat (docs/cafe.md, "Why the host runs as it does")."""

import collections
import gc
import sqlite3
import sys
import types

import pytest
from xobo_testing import wait_for

from cafe.cafekit import named_board
from xobo_host.cafe.floor import Floor
from xobo_host.cafe.table import EVENTS_KEPT

# X's first cells in board order (a1 b1 ... h1 a2 ...): 14 moves of a game of three players
# that nobody has won yet
MOVES = [f + str(r) for r in (1, 2) for f in "abcdefg"]

# not counted: what the host runs (classes, modules, functions, code), and a SQLite
# connection's insides (SQLite's page cache, bounded by the table's cache_size; CPython's
# list of weak references to the cursors made, pruned every 200 cursors)
OPAQUE = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType,
          types.CodeType, types.FrameType, sqlite3.Connection)


def reachable_bytes(root):
    """The bytes of every object reachable from ``root`` (see OPAQUE); a deque counted by
    its items (its blocks of 64 come and go as it turns)."""
    seen = set()
    todo = [root]
    total = 0
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, OPAQUE):
            continue
        seen.add(id(obj))
        if isinstance(obj, collections.deque):
            total += 64 + 8 * len(obj)
        else:
            total += sys.getsizeof(obj)
        todo.extend(gc.get_referents(obj))
    return total


@pytest.fixture
def followed(tmp_path):
    board = named_board(tmp_path, "long-1", hands_clock=True)
    board.play("serial set game x")
    floor = Floor(str(tmp_path / "games.sqlite"), ports=[board.device], scan_usb=False,
                  scan_s=0.1, poll_s=0.3).start()
    wait_for(lambda: floor.table("long-1") and floor.table("long-1").view()["game"] == "x",
             "long-1 online, playing X")
    yield board, floor
    floor.stop()
    board.unplug()


def _play_a_game(board, floor):
    table = floor.table("long-1")
    game_before = table.conn.monitor.game_id
    for ply, cell in enumerate(MOVES, 1):
        board.play("put " + cell)
        board.play("wait 300")  # the settle time passes: the move is committed
        wait_for(lambda p=ply: table.view()["ply"] == p, "move %d on the floor" % ply)
    wait_for(lambda: table.conn.monitor.recorder.moves == MOVES, "the game recorded")
    board.play("serial new")
    for cell in MOVES:
        board.play("lift " + cell)
    board.play("wait 300")
    wait_for(lambda: table.view()["ply"] == 0 and table.conn.monitor.game_id != game_before
          and not table.conn.monitor.recorder.moves, "a new game recorded")


def test_a_table_followed_over_many_games_holds_no_more_memory(followed):
    board, floor = followed
    table = floor.table("long-1")
    _play_a_game(board, floor)
    _play_a_game(board, floor)  # the event lines kept are full: every structure at its size
    first = reachable_bytes(floor)
    for _ in range(4):
        _play_a_game(board, floor)
    monitor = table.conn.monitor
    assert len(monitor.events) == EVENTS_KEPT
    assert len(floor.tables) == 1 and len(floor.by_device) == 1
    after = reachable_bytes(floor)
    # 56 moves later: the same bytes, give or take what the threads hold at that instant (a
    # number grown a digit, a lock a thread waits on, a reply in flight: up to 654 B seen
    # with the matches' worker running); one object of 40 B or more kept per move is 2.2 KB
    assert after - first < 2048, (first, after)
