# dual-runtime
"""Whole games played by hand on the virtual board: every move (placements, regroups under
Voina, spreads with captures in the three orders people use) is made with the cubes, and the
board must infer exactly that move, game after game, until the end (E1-E4)."""

from boardapp.boardkit import hands_on_board, play_by_hand, touch_if_ambiguous
from xobo.games.xobo.rules.moves import PLACE, move_kind, new_move_buffer
from xobo.games.xobo.rules.notation import format_move
from xobo.runtime.virtual_board import VirtualBoard

ORDERS = ("late", "early", "cube")


class _Rng:
    def __init__(self, seed):
        self.s = seed * 2654435761 % 4294967296 or 1

    def below(self, n):
        self.s = (self.s * 1103515245 + 12345) % 2147483648
        return (self.s >> 8) % n


def _pick(pos, buf, rng):
    """A legal move, preferring regroups and spreads (they are what the test is about)."""
    n = pos.legal_moves(buf)
    special = [buf[i] for i in range(n) if move_kind(buf[i]) != PLACE]
    if special and rng.below(3):
        return special[rng.below(len(special))]
    return buf[rng.below(n)]


def _noise(vb, m, rng):
    """A hand brushing the board: a cube lifted and put back, a chattering switch, a cube
    held over an empty cell; on cells the move does not touch, shorter than the settle time."""
    busy = [c for _, c, _ in hands_on_board(vb, m)]  # the cells the move's hands touch
    c = rng.below(81)
    if c in busy:
        return
    sw = vb.switches
    kind = rng.below(3)
    if kind == 0 and sw.counts[c]:
        n = sw.lift(c)
        vb.advance(150 + rng.below(300))
        sw.put(c, n)
    elif kind == 1:
        vb.bounce(c, 5 + rng.below(20))
    elif not sw.counts[c]:
        sw.put(c)
        vb.advance(100 + rng.below(400))
        sw.take(c, 1)
    vb.advance(60)


def _play_game(seed, max_moves=70, noisy=False):
    vb = VirtualBoard()
    vb.advance(50)
    committed = []
    vb.subscribe(lambda line: committed.append(line[11:]) if line.startswith("event move ")
                 else None)
    rng = _Rng(seed)
    buf = new_move_buffer()
    kinds = [0, 0, 0]
    for k in range(max_moves):
        pos = vb.app.pos
        if pos.is_terminal():
            break
        m = _pick(pos, buf, rng)
        kinds[move_kind(m)] += 1
        expected = pos.clone()
        expected.apply(m)
        ply = pos.ply
        if noisy:
            _noise(vb, m, rng)
        play_by_hand(vb, m, ORDERS[k % 3])
        if noisy:
            _noise(vb, m, rng)
        waited = 0
        while vb.app.pos.ply == ply and waited < 8000:
            vb.advance(100)
            waited += 100
            touch_if_ambiguous(vb, m)
        assert vb.app.pos.ply == ply + 1, (seed, k, format_move(m), vb.app.inf.state_name())
        assert vb.app.pos.to_string() == expected.to_string(), (seed, k, format_move(m))
        assert committed[-1].split(" ")[0] == format_move(m)
        vb.advance(200)
        # after the last move the board reports the end (nothing to infer or fix any more)
        want = "over" if vb.app.pos.is_terminal() else "match"
        assert vb.app.inf.state_name() == want, (seed, k, vb.command("state"))
    return vb, kinds


def test_random_games_by_hand_every_move_inferred_exactly():
    total = [0, 0, 0]
    for seed in range(1, 7):
        vb, kinds = _play_game(seed)
        for i in range(3):
            total[i] += kinds[i]
    assert total[0] > 20  # placements
    assert total[1] > 0 and total[2] > 0, total  # regroups and spreads were played


def test_random_games_by_hand_with_noisy_hands_still_infer_every_move_exactly():
    for seed in range(11, 15):
        _play_game(seed, 50, noisy=True)


def test_a_finished_game_by_hand_has_its_result_and_record():
    for seed in range(1, 40):
        vb, _ = _play_game(seed, 200)
        if vb.app.pos.is_terminal():
            rec = vb.command("record")
            assert rec[-1] == "ok end"
            assert ('ok [Result "%s"]' % vb.app.result_name().upper()) in rec
            return
    raise AssertionError("no game ended")
