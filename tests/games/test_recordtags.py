# dual-runtime
"""The record-tag reader every game's records share (xobo.recordtags): tags and move words
with their line numbers, and an error that names the line for every bad tag line."""

from xobo_testing import message_of

from xobo.errors import RecordError
from xobo.games import available, load, part
from xobo.recordtags import TaggedRecord, read_record, read_tag, tag_lines


def _error(text, known=()):
    return message_of(RecordError, read_record, text, known)


def test_tags_come_in_order_with_their_line_numbers_and_the_moves_after():
    tags, words = read_record('[Game "X"]\r\n\n[Event "café, 2nd round"]\n\n1. d5 e4\n c6\n')
    assert tags == [("Game", "X", 1), ("Event", "café, 2nd round", 3)]
    assert words == [("1.", 5), ("d5", 5), ("e4", 5), ("c6", 6)]


def test_a_value_keeps_its_inner_spaces_and_quotes():
    assert read_tag('[Donjons  "d4 l4 d12 l12" ]', 1) == ("Donjons", "d4 l4 d12 l12")
    assert read_tag('[Name ""]', 1) == ("Name", "")
    assert read_tag('[Note "say "hi""]', 1) == ("Note", 'say "hi"')


def test_the_strings_set_apart_are_words_even_when_they_touch_a_move():
    _, words = read_record("1. e5(v);d4 2. e4 ;\n", (), (";", "(v)"))
    assert [w for w, _ in words] == ["1.", "e5", "(v)", ";", "d4", "2.", "e4", ";"]
    _, words = read_record("1. e5;d4\n")
    assert [w for w, _ in words] == ["1.", "e5;d4"]  # nothing set apart: one word


def test_bad_tag_lines_say_which_line_and_what_is_wrong():
    assert "line 2: a tag line ends with ']'" in _error('[Game "X"]\n[Size "8"\n')
    assert 'line 1: a tag is [name "value"], got [result]' in _error("[Result]\n")
    assert 'line 1: a tag is [name "value"]' in _error('[ "x"]\n')
    assert "line 1: the value of tag first must be in double quotes" in _error("[First x]\n")
    assert "line 1: the value of tag first must be in double quotes" in _error('[First "]\n')
    assert "line 3: tag lines must come before the moves" in _error(
        '[First "x"]\n1. b2\n[Result "*"]\n')


def test_a_known_tag_comes_once_and_another_may_repeat():
    assert "line 3: a second result tag" in _error(
        '[Result "*"]\n[Site "here"]\n[Result "x"]\n', ("Result",))
    tags, _ = read_record('[Site "a"]\n[Site "b"]\n', ("Result",))
    assert [v for _, v, _ in tags] == ["a", "b"]


def test_the_tag_lines_written_leave_out_the_games_own():
    tags = [("White", "Ann"), ("Result", "*"), ("Date", "2026.11.26")]
    assert tag_lines(tags, ("Result",)) == ['[White "Ann"]', '[Date "2026.11.26"]']
    assert tag_lines([]) == []


class _Counter:
    def __init__(self):
        self.ply = 0

    def apply(self, m):
        self.ply += m


class _Record(TaggedRecord):
    def __init__(self):
        self.moves = [1, 2, 3]
        self.tags = [("White", "Ann")]

    def start_position(self):
        return _Counter()


def test_a_tagged_record_replays_its_moves_and_reads_and_sets_its_tags():
    rec = _Record()
    assert rec.final_position().ply == 6
    assert rec.tag("White") == "Ann" and rec.tag("Black") is None and rec.tag("Black", "-") == "-"
    rec.set_tag("White", "Bob")
    rec.set_tag("Black", "Cy")
    assert rec.tags == [("White", "Bob"), ("Black", "Cy")]


def test_every_games_record_reads_its_tags_with_the_shared_reader():
    # a bad tag line is the same error in every game's notation, and another tag is kept
    for name in available():
        game = load(name)
        if "records" not in game.PARTS:
            continue
        mod = part(game, "records")
        pos = game.new_position(game.DEFAULTS)
        text = game.record_text(pos)
        assert "line 1: a tag line ends with ']'" in message_of(
            RecordError, mod.parse_record, "[Game\n" + text)
        rec = mod.parse_record(text.replace("\n\n", '\n[Table "7"]\n\n', 1))
        assert rec.tag("Table") == "7", name
        assert '[Table "7"]' in mod.format_record(rec), name
        assert rec.final_position().to_string() == pos.to_string(), name
