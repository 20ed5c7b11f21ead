"""Take-backs and resignations shared between the tables of a match across two cafés (a
real broker, ``remotekit.Broker``): undo pressed on one board proposes, undo pressed on the
other agrees (both boards go back); a decline gives the proposing board its move back; a
resignation ends the match in both cafés."""

from cafe.remotekit import board_state, commit, same_everywhere, wait_for
from cafe.test_match_remote import start_match, stop


def test_undo_on_both_boards_takes_the_move_back_everywhere_and_a_decline_restores_it(
        tmp_path):
    broker, cafes, bs, tables, ident = start_match(tmp_path, "tiny")
    a, b = bs["a0"], bs["a1"]
    try:
        commit(a, "play b2")
        wait_for(lambda: board_state(b)[2] == "b2", "b2 lit at the other café")
        commit(b, "play expected")
        # undo pressed at the first table: a proposal, its board takes the move back
        a.play("press undo")
        wait_for(lambda: all(c.match(ident).undo is not None for c in cafes),
                 "the take-back proposed in both cafés")
        a.play("arrange")  # the players take the piece off, as the board shows
        assert board_state(b)[0] == 1  # nothing happens at the other table yet
        # undo at the other table: agreed; both boards back at the start
        b.play("press undo")
        b.play("arrange")
        wait_for(lambda: all(c.match(ident).ply == 0 and c.match(ident).epoch == 1
                             for c in cafes), "the take-back agreed in both cafés")
        wait_for(lambda: board_state(a)[0] == 0 and board_state(b)[0] == 0,
                 "both boards back at the start")
        # a move again, a proposal, declined from the page: the move comes back
        commit(a, "play a1")
        wait_for(lambda: board_state(b)[2] == "a1", "a1 lit at the other café")
        commit(b, "play expected")
        a.play("press undo")
        a.play("arrange")
        wait_for(lambda: cafes[1].match(ident).undo is not None, "the proposal across")
        assert cafes[1].service.action(ident, {"action": "decline"})["ok"]
        wait_for(lambda: board_state(a)[2] == "a1", "a1 lit again at the first table")
        commit(a, "play expected")
        wait_for(lambda: all(c.match(ident).undo is None for c in cafes), "no proposal left")
        same_everywhere(cafes, tables, ident)
        # a resignation from the page ends the match for both
        out = cafes[1].service.action(ident, {"action": "resign", "table": "a1"})
        assert out["reply"] == "o resigned"
        wait_for(lambda: all(c.match(ident).state == "over"
                             and c.match(ident).result_text() == "o resigned" for c in cafes),
                 "the resignation in both cafés")
    finally:
        stop(broker, cafes, bs)
