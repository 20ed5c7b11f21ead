"""Property tests (hypothesis): invariants of the rules over random games (OpenSpiel style)."""

from conftest import soak_moves
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xobo.errors import MoveError
from xobo.games.xobo.rules.geometry import EW, N_CELLS, NS
from xobo.games.xobo.rules.moves import make_place, make_regroup, make_spread
from xobo.games.xobo.rules.notation import format_move, parse_move
from xobo.games.xobo.rules.position import Position
from xobo.games.xobo.rules.record import format_record, parse_record, record_from_position

# 30 random games a property in make test, 60 under make soak (the brute-force checks take
# 7 s of CPU a property at 60)
SETTINGS = settings(max_examples=soak_moves(60, 30), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def random_game(choices, variant, first, limit=400):
    """Play moves picked by ``choices`` (ints) until the game ends or they run out."""
    pos = Position(variant, first)
    trail = []
    for k in range(limit):
        moves = pos.legal_actions()
        if not moves:
            break
        m = moves[choices[k % len(choices)] % len(moves)]
        trail.append((pos.to_string(), m))
        pos.apply(m)
    return pos, trail


games = st.tuples(
    st.lists(st.integers(0, 10**6), min_size=1, max_size=60),
    st.sampled_from(["xobo", "kv"]),
    st.sampled_from([NS, EW]),
)


def all_candidate_moves():
    out = []
    for c in range(N_CELLS):
        out.append(make_place(c))
        for d in range(8):
            for n in range(2, 9):
                out.append(make_regroup(c, d, n))
                out.append(make_spread(c, d, n))
    return out


CANDIDATES = all_candidate_moves()


@SETTINGS
@given(games)
def test_B5_cubes_are_conserved_and_B6_no_cell_holds_two(game):
    pos, trail = random_game(*game)
    for text, _ in trail + [(pos.to_string(), None)]:
        p = Position.parse(text, pos.variant)  # parse re-checks B5 and B6
        assert sum(p.heights) + p.common + p.own[0] + p.own[1] == 36
        assert 2 not in p.heights


@SETTINGS
@given(games)
def test_apply_then_undo_restores_the_position_exactly(game):
    pos, trail = random_game(*game)
    for text, _ in reversed(trail):
        pos.undo()
        assert pos.to_string() == text
    assert pos.ply == 0


@SETTINGS
@given(games)
def test_N1_N3_notation_and_position_round_trips(game):
    pos, trail = random_game(*game)
    for text, m in trail:
        p = Position.parse(text, pos.variant)
        assert p.to_string() == text
        assert parse_move(format_move(m), p) == m


@SETTINGS
@given(games)
def test_N2_record_round_trip_of_random_games(game):
    pos, _ = random_game(*game)
    rec = record_from_position(pos)
    again = parse_record(format_record(rec))
    assert again.moves == rec.moves
    assert again.final_position().to_string() == pos.to_string()
    assert again.result == rec.result


@SETTINGS
@given(games)
def test_generator_agrees_with_the_move_checker(game):
    """Every encodable move is generated iff why_illegal finds nothing wrong with it."""
    pos, trail = random_game(*game)
    for text, _ in trail[-3:] + [(pos.to_string(), None)]:
        p = Position.parse(text, pos.variant)
        legal = set(p.legal_actions())
        checked = {m for m in CANDIDATES if p.why_illegal(m) is None}
        assert legal == checked, text


@SETTINGS
@given(games)
def test_V1_voina_cells_match_brute_force(game):
    pos, trail = random_game(*game)
    out = bytearray(N_CELLS)
    for text, _ in trail[-6:]:
        p = Position.parse(text, pos.variant)
        for player in (NS, EW):
            p.voina_cells(player, out)
            fast = {c for c in range(N_CELLS) if out[c]}
            slow = set()
            if p.common or p.own[player]:
                for c in range(N_CELLS):
                    if p.heights[c]:
                        continue
                    q = p.clone()
                    q.side = player
                    q.apply(make_place(c))
                    if q.connected(player) and not q.connected(player ^ 1):
                        slow.add(c)
            assert fast == slow, (text, player)


@SETTINGS
@given(games)
def test_random_games_end_properly(game):
    """E1-E5: a finished game has no legal move and a winner; an unfinished one has moves."""
    pos, _ = random_game(*game)
    moves = pos.legal_actions()
    w = pos.winner()
    if w >= 0:
        assert moves == [] and pos.is_terminal()
        assert sorted(pos.returns()) == [-1, 1]
        if pos.connected(w):
            chain = pos.winning_chain()
            assert chain and all(pos.heights[c] == 1 for c in chain)
    else:
        assert moves and not pos.is_terminal() and pos.returns() == (0, 0)


@SETTINGS
@given(games)
def test_clone_is_independent_and_equal(game):
    pos, _ = random_game(*game)
    c = pos.clone()
    assert c == pos and c.history() == pos.history()
    moves = c.legal_actions()
    if moves:
        c.apply(moves[0])
        assert c != pos or c.to_string() == pos.to_string()
        c.undo()
        assert c.to_string() == pos.to_string()


def test_random_games_reach_the_end_in_both_variants():
    import random

    rng = random.Random(7)
    ended = 0
    for i in range(60):
        pos = Position("kv" if i % 2 else "xobo")
        for _ in range(1000):
            moves = pos.legal_actions()
            if not moves:
                break
            pos.apply(rng.choice(moves))
        ended += pos.winner() >= 0
    assert ended == 60


def test_illegal_encodings_are_refused_by_play():
    pos = Position()
    try:
        pos.play(make_spread(40, 0, 3))
    except MoveError as exc:
        assert "no stack" in str(exc)
    else:
        raise AssertionError("a spread from an empty cell was accepted")


def _brute_force_threat(p, player):
    """V1 by definition: some placement or (kv) legal spread of player's wins for them."""
    if p.common or p.own[player]:
        for c in range(N_CELLS):
            if not p.heights[c]:
                q = p.clone()
                q.side = player
                q.apply(make_place(c))
                if q.connected(player) and not q.connected(player ^ 1):
                    return True
    if p.variant == "kv":
        for m in CANDIDATES:
            if (m & 3) == 2 and p.why_illegal(m) is None:
                q = p.clone()
                q.side = player
                q.apply(m)
                if q.connected(player) and not q.connected(player ^ 1):
                    return True
    return False


@SETTINGS
@given(games)
def test_V1_threats_match_brute_force_in_both_variants(game):
    pos, trail = random_game(*game)
    for text, _ in trail[-8:] + [(pos.to_string(), None)]:
        p = Position.parse(text, pos.variant)
        if p.winner() >= 0:
            continue
        for player in (NS, EW):
            fresh = Position.parse(text, pos.variant)
            assert fresh.threatens(player) == _brute_force_threat(p, player), (text, player)
            # the answer does not depend on what was asked before (cached labels)
            fresh.voina_cells(player ^ 1, bytearray(N_CELLS))
            fresh.legal_actions()
            assert fresh.threatens(player) == _brute_force_threat(p, player), (text, player)
