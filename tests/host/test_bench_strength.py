"""The long strength matches (``xobo_host.bench.strength``): every match names a game, a
level and an opponent that ``xobo match`` accepts, and a match writes its results file with
the level's record, share and interval."""

import json

from xobo_host.bench import strength as bench_strength
from xobo_host.bench.matchplay.yardstick import player as _player


def test_every_strength_match_names_a_game_level_and_opponent_xobo_match_accepts():
    from xobo.games import load

    found = bench_strength.matches()
    assert "xobo-pico-uct20000" in found  # the figure docs/ai.md rates the board's level by
    for match, (name, level, opponent, games, _seed, plies, rates) in found.items():
        game = load(name)
        assert match.startswith(name + "-" + level + "-"), match
        for spec in (level, opponent):
            _player(game, spec, plies, None)  # raises on an unknown level or opponent
        assert games > 0 and rates


def test_a_strength_match_writes_the_levels_record_share_and_interval(tmp_path, monkeypatch):
    monkeypatch.setattr(bench_strength, "matches", lambda: {
        "tiny-perfect-random": ("tiny", "perfect", "random", 4, 1, 20, "the test game")})
    path = bench_strength.run_match("tiny-perfect-random", workers=1, folder=tmp_path,
                                    say=lambda *a: None)
    data = json.loads(path.read_text())
    assert data["bench"] == "match-tiny-perfect-random" and data["standard"]
    figs = data["figures"]
    assert figs["won"]["unit"] == "of 4 games"
    assert figs["won"]["value"] + figs["lost"]["value"] + figs["unfinished"]["value"] == 4
    assert figs["lost"]["value"] == 0  # tiny's perfect level never loses
    assert figs["share"]["unit"] == "%" and "-" in figs["ci"]["value"]
