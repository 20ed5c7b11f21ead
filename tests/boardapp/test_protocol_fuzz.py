"""Protocol fuzzing (hypothesis): random bytes and random command lines never crash the board,
every reply line starts with 'ok' or 'error', junk changes nothing, and whatever a host sends,
the saved game stays whole (a reboot resumes exactly the position the board had)."""

from conftest import soak_moves
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from xobo.runtime.protocol import Protocol
from xobo.runtime.virtual_board import VirtualBoard

COMMANDS = ("help", "version", "position", "record", "settings", "set", "new", "undo", "move",
            "load", "follow", "hint", "state", "selftest")
# (make soak: 60 examples a test)
FUZZ = settings(max_examples=soak_moves(60, 30), deadline=None,
                suppress_health_check=[HealthCheck.too_slow])


def _board():
    vb = VirtualBoard()
    vb.advance(20)
    for cell in ("e5", "d4"):
        vb.put(cell)
        vb.advance(1200)
    return vb


def _well_formed(lines):
    for line in lines:
        assert line.startswith("ok") or line.startswith("error "), line
        assert "internal" not in line, line  # an exception escaped a handler


def _is_command(part):
    words = part.decode("latin-1").replace("\r", "").strip().lower().split()
    return bool(words) and words[0] in COMMANDS


@FUZZ
@given(st.binary(max_size=600))
def test_random_bytes_get_errors_and_change_nothing(data):
    assume(not any(_is_command(p) for p in data.split(b"\n")))
    vb = _board()
    before = vb.app.pos.to_string()
    replies = vb.feed(data + b"\n")
    _well_formed(replies)
    assert vb.app.pos.to_string() == before
    assert vb.command("position") == ["ok " + before]
    vb.power_cut()
    assert vb.app.pos.to_string() == before


_word = st.sampled_from(COMMANDS + ("xyzzy", "", "SET", "Move"))
_arg = st.one_of(
    st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=40),
    st.sampled_from(["variant kv", "variant xobo", "first ew", "settle 250", "brightness 101",
                     "hints off", "opponent ns", "level strong", "e5", "a4->c4", "g6xf5",
                     "c3", "on", "off", "settle -1", "........./........./........./"
                     "........./........./........./........./........./......... ns 36 0 0",
                     "........./........./........./........./....3..../........./"
                     "........./........./......... ew 33 0 0"]),
)


@FUZZ
@given(st.lists(st.tuples(_word, _arg), max_size=12))
def test_random_command_lines_never_crash_and_the_saved_game_stays_whole(cmds):
    vb = _board()
    vb.app.settings["opponent"] = "off"
    for word, arg in cmds:
        line = (word + " " + arg).strip()
        if line.lower().startswith("set opponent"):
            continue  # the computer would think here: covered elsewhere
        replies = vb.command(line)
        _well_formed(replies)
        vb.advance(30)
    pos = vb.app.pos.to_string()
    settings_before = dict(vb.app.settings)
    vb.power_cut()
    assert vb.app.pos.to_string() == pos
    assert vb.app.settings == settings_before


@FUZZ
@given(st.lists(st.binary(min_size=1, max_size=80), max_size=20))
@example([b"#"])  # a request id's '#' alone: its usage reply is an error line too
def test_chunked_input_is_reassembled_into_lines(chunks):
    sent = []
    vb = _board()
    proto = Protocol(vb.app, writer=sent.append)
    for c in chunks:
        proto.feed(c)
    proto.feed(b"\nversion\n")
    _well_formed([x for x in sent if not x.startswith("event")])
    assert sent[-1].startswith("ok xobo-board")
