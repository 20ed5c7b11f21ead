"""A conflict between two cafés' logs is resolved by the staff, not only cancelled (a real
broker, ``remotekit.Broker``): a move altered on its way makes the two logs differ; both
cafés show the conflict and learn each other's log; the staff of either café keeps the moves
both logs have (``agreed``: the boards take the rest back and the match goes on from there)
or its own café's log (``ours``: the other café adopts it, its board follows); afterwards
both cafés' logs, both boards and both records agree, and the match plays on."""

import pytest

from cafe.remotekit import (
    board_state,
    commit,
    same_everywhere,
    start_match,
    stop,
    wait_expect,
    wait_for,
)
from xobo_host.sim.backend import ActionError
from xobo_host.sim.ptyboard import PtyBoardError


def _alter_next_move(cafe, n, legal_other):
    """Café ``cafe`` receives move ``n`` as another legal move (a fault on the way: the
    position it applies to is the same, so only the hellos' hashes can tell)."""
    def alter(sender, kind, rest, msg):
        if kind == "match" and msg and msg.get("t") == "move" and msg.get("n") == n:
            match = cafe.match(msg["match"])
            msg = dict(msg, move=legal_other(match, msg["move"]))
        return [msg]

    cafe.service.filter = alter


def _another(match, move):
    pos = match.position()
    return next(t for t in (pos.move_text(m) for m in pos.legal_actions()) if t != move)


def _play_the_altered_move(board, receiving, ident):
    """The receiving café's board lights the altered move and its players play it (returns
    it), unless the cafés' hellos found the two logs apart first: the sender's café has the
    move at once, the receiver gives it to its board once its row is written, and on a
    loaded machine a hello can come between. Then the board lights nothing (None)."""
    wait_for(lambda: board_state(board)[2] is not None
             or receiving.match(ident).state == "conflict",
             "the altered move lit on the board, or the conflict found")
    lit = board_state(board)[2]
    if lit is None or receiving.match(ident).state == "conflict":
        return None
    try:
        commit(board, "play expected")
    except PtyBoardError:  # the conflict came between: nothing waits for the pieces
        assert receiving.match(ident).state == "conflict"
        return None
    return lit


def _in_conflict_knowing_each_other(cafes, ident, agreed):
    def known():
        for c in cafes:
            views = {v["id"]: v for v in c.service.views()}
            if views[ident]["state"] != "conflict" or views[ident].get("agreed") != agreed:
                return False
        return True

    wait_for(known, "both cafés in conflict, each with the other's log")


def _settle_boards(cafes, tables, ident):
    """The players put the pieces as each board asks (the taken-back moves off) until every
    board is at the match's position (or lights its next move)."""
    def settled():
        ok = True
        for cafe, board in tables.values():
            m = cafe.match(ident)
            board.play("arrange")  # (the pieces as the board shows them: a move taken off)
            ply, position, expect = board_state(board)
            if ply > m.ply or position != m.position_text(ply):
                ok = False
            elif ply < m.ply:
                if expect is not None:
                    commit(board, "play expected")
                ok = False
        return ok

    wait_for(settled, "every board at the match's position", timeout=40)


def test_a_conflict_is_resolved_keeping_the_agreed_moves_or_one_cafes_log(tmp_path):
    broker, cafes, bs, tables, ident = start_match(tmp_path, "tiny")
    a, b = bs["a0"], bs["a1"]
    try:
        commit(a, "play b2")
        wait_expect(b, "b2")
        commit(b, "play expected")
        # move 2 (the second table's) reaches the first café altered: the logs differ
        _alter_next_move(cafes[0], 2, _another)
        commit(b, "play a1")
        lit = _play_the_altered_move(a, cafes[0], ident)
        cafes[0].service.filter = None
        _in_conflict_knowing_each_other(cafes, ident, agreed=1)
        altered = cafes[0].match(ident).moves
        assert altered[0] == "b2" and altered[1] != "a1" and lit in (None, altered[1]), altered
        assert cafes[1].match(ident).moves == ["b2", "a1"]
        with pytest.raises(ActionError, match="keeping 'agreed'"):
            cafes[1].service.action(ident, {"action": "resolve", "keep": "theirs"})
        # the second café's staff keeps what both logs have: move 1; both boards take
        # move 2 back; the second table's players, whose move it was, play on
        out = cafes[1].service.action(ident, {"action": "resolve", "keep": "agreed"})
        assert out["reply"] == "conflict resolved: the match goes on after move 1"
        wait_for(lambda: all(c.match(ident).state == "playing" and c.match(ident).epoch == 1
                             for c in cafes), "the resolution in both cafés")
        _settle_boards(cafes, tables, ident)
        wait_for(lambda: cafes[0].match(ident).moves == cafes[1].match(ident).moves,
                 "the same log in both cafés")
        with pytest.raises(ActionError, match="no conflict to resolve"):
            cafes[0].service.action(ident, {"action": "resolve"})
        # the match goes on: the next move crosses as any move
        n = cafes[0].match(ident).ply
        mover = a if cafes[0].match(ident).side() == 0 else b
        other = b if mover is a else a
        move = _another(cafes[0].match(ident), "")
        commit(mover, "play " + move)
        wait_expect(other, move)
        commit(other, "play expected")
        wait_for(lambda: all(c.match(ident).ply == n + 1 for c in cafes), "the move logged")
        same_everywhere(cafes, tables, ident)
        # a second conflict; the first café's staff keeps its own log: the other adopts it
        n = cafes[0].match(ident).ply
        mover = a if cafes[0].match(ident).side() == 0 else b
        other = b if mover is a else a
        receiving = cafes[1] if mover is a else cafes[0]
        _alter_next_move(receiving, n + 1, _another)
        move = _another(cafes[0].match(ident), "")
        commit(mover, "play " + move)
        _play_the_altered_move(other, receiving, ident)
        receiving.service.filter = None
        wait_for(lambda: all(c.match(ident).state == "conflict" for c in cafes),
                 "the second conflict in both cafés")
        _in_conflict_knowing_each_other(cafes, ident, agreed=n)
        ours = list(cafes[0].match(ident).moves)
        cafes[0].service.action(ident, {"action": "resolve", "keep": "ours"})
        wait_for(lambda: all(c.match(ident).moves == ours and c.match(ident).epoch == 2
                             and c.match(ident).state in ("playing", "over") for c in cafes),
                 "the first café's log adopted by the second")
        _settle_boards(cafes, tables, ident)
        same_everywhere(cafes, tables, ident)
    finally:
        stop(broker, cafes, bs)
