"""Matches between tables of two or three cafés through a real MQTT broker on loopback
(Debian's mosquitto, started by each test on a free port: ``remotekit.Broker``)."""

import random

from cafe.remotekit import (
    Broker,
    Cafe,
    boards,
    greedy_move,
    play_match,
    random_move,
    same_everywhere,
    seat_match,
)

# every game, whole, at once on one broker (each its own cafés and tables): the players'
# choices are seeded so that each game is short (measured with the game's own engine)
GAMES = [  # game, cafés, board, settings of the inviting board, seed, greedy players
    ("xobo", 2, "pico_gpio", [], 11, False),
    ("x", 3, "pico_gpio", ["size 4"], 0, False),
    ("chain-reaction", 2, "pico_gpio", ["field 6", "target 12"], 67, True),
    ("brochs", 2, "pico_15x15", [], 58, False),
    ("tiny", 2, "pico_gpio", [], 4, False),
]


def test_every_game_is_played_whole_across_cafes_and_the_records_agree(tmp_path):
    import threading

    broker = Broker(tmp_path, ["%s-cafe-%d" % (game[:5], i) for game, n, *_ in GAMES
                               for i in range(n)]).start()
    failures = []
    done = []

    def one(game, n_cafes, board, settings, seed, greedy):
        where = tmp_path / game
        where.mkdir()
        names = ["%s-%d" % (game[:5], i) for i in range(n_cafes)]
        bs = boards(where, names, board)
        cafes = []
        try:
            bs[names[0]].play("serial set game " + game)
            for line in settings:
                bs[names[0]].play("serial set " + line)
            cafes = [Cafe(where, "%s-cafe-%d" % (game[:5], i), {names[i]: bs[names[i]]},
                          broker).start() for i in range(n_cafes)]
            ident, tables = seat_match(cafes, names, bs)
            choose = greedy_move(seed) if greedy else random_move
            match = play_match(cafes, tables, ident, random.Random(seed), choose=choose)
            assert match.state == "over", (game, match.state)
            log = same_everywhere(cafes, tables, ident)
            done.append((game, len(log), match.result_text()))
        except BaseException as exc:  # reported by the test's thread
            failures.append((game, exc))
        finally:
            for c in cafes:
                c.stop()
            for b in bs.values():
                b.unplug()

    threads = [threading.Thread(target=one, args=g) for g in GAMES]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    broker.kill()
    assert not failures, failures
    assert sorted(g for g, _, _ in done) == sorted(g[0] for g in GAMES)
