"""Matches between two tables of one café: the café host relays the moves itself."""

import random

from cafe.remotekit import Cafe, boards, play_match, same_everywhere, wait_playing


def test_a_local_match_of_tiny_is_played_whole_across_two_tables(tmp_path):
    bs = boards(tmp_path, ["t1", "t2"])
    bs["t1"].play("serial set game tiny")  # (before the host reads the boards' lines)
    cafe = Cafe(tmp_path, "cafe-a", bs).start()
    try:
        code = cafe.service.invite("t1")["code"]
        ident = cafe.service.accept(code, "t2")["match"]
        wait_playing([cafe], ident)
        tables = {"t1": (cafe, bs["t1"]), "t2": (cafe, bs["t2"])}
        match = play_match([cafe], tables, ident, random.Random(3))
        assert match.state == "over"
        same_everywhere([cafe], tables, ident)
    finally:
        cafe.stop()
        for b in bs.values():
            b.unplug()
