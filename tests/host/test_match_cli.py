"""xobo match: nonsense counts are usage errors, not an empty match that 'succeeds'."""

import pytest

from xobo_host.cli.main import main


@pytest.mark.parametrize("args, word", [
    (["--games", "0"], "--games"),
    (["--games", "-3"], "--games"),
    (["--max-moves", "0"], "--max-moves"),
    (["--max-moves", "-4"], "--max-moves"),
    (["--workers", "0"], "--workers"),
    (["--games", "abc"], "--games"),
])
def test_match_refuses_counts_below_one(args, word, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["match", "--a", "pico", "--b", "random"] + args)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert word in err and ("at least 1" in err or "whole number" in err)
