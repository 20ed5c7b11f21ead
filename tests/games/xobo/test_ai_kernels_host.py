"""Hypothesis: the viper kernels, run by the MicroPython unix port, equal the plain-Python
references (the old 0-1 BFS, the rules engine) on random boards: heights 0, 1 and 3-8
anywhere (walls of stacks), any reserves, both variants, either side to move."""

from conftest import run_micropython
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.xobo.reference_kernels import distance_ref, flood_ref
from xobo.games.xobo.rules.moves import new_move_buffer
from xobo.games.xobo.rules.position import Position

UPY_SCRIPT = """
import sys
from xobo.games.xobo.ai import evaluate as ev
from xobo.games.xobo.rules.moves import new_move_buffer
from xobo.games.xobo.rules.position import Position
buf = new_move_buffer()
a = bytearray(81)
for line in sys.stdin.read().split(chr(10)):
    if not line.strip():
        continue
    variant, text = line.split(",")
    pos = Position.parse(text, variant)
    h = pos.heights
    out = []
    for p in (0, 1):
        for start in (True, False):
            out.append("%d:%s" % (ev.flood(h, p, start, a), ",".join(str(x) for x in a)))
        out.append(str(ev.distance(h, p)))
        out.append(str(int(ev.threatens(pos, p))))
    out.append(str(ev.winner(pos)))
    n = ev.legal_moves(pos, buf)
    out.append(",".join(str(buf[i]) for i in range(n)))
    print(";".join(out))
"""


def reference(variant, text):
    pos = Position.parse(text, variant)
    h = pos.heights
    a = bytearray(81)
    buf = new_move_buffer()
    out = []
    for p in (0, 1):
        for start in (True, False):
            out.append("%d:%s" % (flood_ref(h, p, start, a), ",".join(str(x) for x in a)))
        out.append(str(distance_ref(h, p)))
        out.append(str(int(pos.threatens(p))))
    out.append(str(pos.winner()))
    n = pos.legal_moves(buf)
    out.append(",".join(str(buf[i]) for i in range(n)))
    return ";".join(out)


@st.composite
def boards(draw):
    cells = draw(st.lists(st.sampled_from([0, 0, 0, 1, 1, 1, 3, 4, 5, 6, 8]), min_size=81,
                          max_size=81))
    total = 0
    for i, v in enumerate(cells):
        if total + v > 36:
            cells[i] = 0
        total += cells[i]
    rest = 36 - total
    common = draw(st.integers(0, rest))
    own_ns = draw(st.integers(0, rest - common))
    rows = []
    for rank in range(8, -1, -1):
        rows.append("".join("." if v == 0 else str(v) for v in cells[rank * 9: rank * 9 + 9]))
    text = "%s %s %d %d %d" % ("/".join(rows), draw(st.sampled_from(["ns", "ew"])), common,
                               own_ns, rest - common - own_ns)
    return draw(st.sampled_from(["xobo", "kv"])), text


@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example,
                           HealthCheck.data_too_large],
)
@given(st.lists(boards(), min_size=30, max_size=30))
def test_viper_kernels_equal_the_references_on_random_boards(tmp_path_factory, cases):
    script = tmp_path_factory.mktemp("kernels") / "kernels.py"
    script.write_text(UPY_SCRIPT)
    text = "\n".join("%s,%s" % c for c in cases) + "\n"
    proc = run_micropython([str(script)], heapsize="2M", input_text=text)
    assert proc.returncode == 0, proc.stderr
    got = proc.stdout.splitlines()
    assert len(got) == len(cases)
    for (variant, board), line in zip(cases, got, strict=True):
        assert line == reference(variant, board), "%s %s" % (variant, board)
