"""``xobo match --opponent SPEC --record FILE / --reuse FILE``
(xobo_host/bench/matchplay/yardstick.py): a match replays a recorded one's opponent replies
while a game follows the record, without
asking the opponent, and plays live from the level's first different move on, so the result
is the one a live match gives; a record of another match is refused with the reason."""

import json

import pytest

from xobo_host.bench import uct
from xobo_host.bench.matchplay.yardstick import run_opponent_match
from xobo_host.cli.main import main


def _games(path):
    with open(path) as f:
        return [json.loads(line) for line in f]


def _never_asked(*args, **kwargs):
    raise AssertionError("the opponent was asked for a move the record holds")


@pytest.mark.parametrize("name, level", [("tiny", "random"), ("xobo", "greedy")])
def test_a_match_that_follows_its_record_never_asks_the_opponent(tmp_path, monkeypatch, name,
                                                                  level):
    first = tmp_path / "first.jsonl"
    again = tmp_path / "again.jsonl"
    out = run_opponent_match(name, level, "uct:10", 4, seed=3, max_moves=30, workers=1,
                             record=str(first))
    monkeypatch.setattr(uct, "choose_move", _never_asked)
    out2 = run_opponent_match(name, level, "uct:10", 4, seed=3, max_moves=30, workers=1,
                              record=str(again), reuse=str(first))
    for key in ("games", "wins", "losses", "unfinished", "moves"):
        assert out2[key] == out[key], key
    assert _games(again) == _games(first)
    assert [g["seat"] for g in _games(first)] == [0, 1, 0, 1]


def test_a_level_that_plays_otherwise_gets_the_live_match_result(tmp_path):
    # recorded with `random`, replayed with `perfect`: from perfect's first different move the
    # opponent searches again, and every game is the one a match without the record plays
    rec = tmp_path / "random.jsonl"
    live = tmp_path / "live.jsonl"
    reused = tmp_path / "reused.jsonl"
    run_opponent_match("tiny", "random", "uct:30", 6, seed=11, workers=1, record=str(rec))
    out = run_opponent_match("tiny", "perfect", "uct:30", 6, seed=11, workers=1,
                             record=str(live))
    out2 = run_opponent_match("tiny", "perfect", "uct:30", 6, seed=11, workers=1,
                              record=str(reused), reuse=str(rec))
    assert _games(reused) == _games(live)
    assert (out2["wins"], out2["losses"], out2["unfinished"]) == (
        out["wins"], out["losses"], out["unfinished"])
    assert [g["moves"] for g in _games(live)] != [g["moves"] for g in _games(rec)]


def test_a_record_of_another_match_is_refused_with_the_reason(tmp_path):
    rec = tmp_path / "rec.jsonl"
    run_opponent_match("tiny", "random", "uct:30", 2, seed=1, workers=1, record=str(rec))
    with pytest.raises(ValueError, match="its opponent is 'uct:30', this match's 'uct:40'"):
        run_opponent_match("tiny", "random", "uct:40", 2, seed=1, workers=1, reuse=str(rec))
    with pytest.raises(ValueError, match="its max_moves is 200, this match's 50"):
        run_opponent_match("tiny", "random", "uct:30", 2, seed=1, max_moves=50, workers=1,
                           reuse=str(rec))
    with pytest.raises(ValueError, match="with --time-ms the opponent's reply depends on"):
        run_opponent_match("tiny", "random", "uct:30", 2, seed=1, workers=1, time_ms=500,
                           reuse=str(rec))
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"game": "tiny"}\n')
    with pytest.raises(ValueError, match="bad.jsonl line 1 is not a line of a match record"):
        run_opponent_match("tiny", "random", "uct:30", 2, seed=1, workers=1, reuse=str(bad))
    with pytest.raises(ValueError, match="cannot read the record"):
        run_opponent_match("tiny", "random", "uct:30", 2, seed=1, workers=1,
                           reuse=str(tmp_path / "missing.jsonl"))


def test_match_cli_records_and_reuses(tmp_path, capsys):
    rec = tmp_path / "rec.jsonl"
    args = ["match", "--game", "tiny", "--a", "perfect", "--opponent", "uct:30", "--games", "4",
            "--workers", "2", "--quiet"]
    assert main(args + ["--record", str(rec)]) == 0
    first = capsys.readouterr().out.split(";")[0]
    assert len(_games(rec)) == 4
    assert main(args + ["--reuse", str(rec)]) == 0
    assert capsys.readouterr().out.split(";")[0] == first
    assert main(args[:-3] + ["--games", "2", "--reuse", str(tmp_path / "none")]) == 2
    assert "cannot read the record" in capsys.readouterr().err


def test_a_record_that_cannot_be_written_is_a_clear_error_before_any_game(tmp_path):
    with pytest.raises(ValueError, match="cannot write the record"):
        run_opponent_match("tiny", "random", "uct:10", 2, workers=1,
                           record=str(tmp_path / "no-such-dir" / "match.jsonl"))
