"""The longest games the board keeps, made for the tests: for each game a legal game of
``MAX_PLIES`` moves (the game's cap, or its natural end for X and tiny) that does not end
before, by a seeded random walk that avoids the moves ending the game (and backs up when
every move would). Usage::

    from device.long_games import long_game
    moves = long_game("chain-reaction", 1999)   # the moves' saved texts, 1,999 of them
"""

import functools
import random

from xobo import games
from xobo.games import part


def _saved_text(pos, m):
    return (getattr(pos, "history_text", None) or pos.move_text)(m)


@functools.lru_cache(maxsize=None)
def long_game(name, plies, seed=1):
    """``plies`` legal moves of game ``name`` (default settings) after which the game is not
    over, as the board saves them (tuple of str)."""
    game = games.load(name)
    rules = part(game, "engine")
    pos = game.new_position(dict(game.DEFAULTS))
    rng = random.Random(seed)
    buf = rules.new_move_buffer()
    tried = []  # per ply: the moves still to try there
    texts = []
    while pos.ply < plies:
        n = pos.legal_moves(buf)
        options = [buf[i] for i in range(n)]
        rng.shuffle(options)
        tried.append(options)
        while True:
            while not tried[-1]:  # every move from here ends the game: back up
                tried.pop()
                pos.undo()
                texts.pop()
            m = tried[-1].pop()
            texts.append(_saved_text(pos, m))
            pos.apply(m)
            if not pos.is_terminal() or pos.ply == plies and name in ("x", "tiny"):
                break
            pos.undo()
            texts.pop()
    return tuple(texts)
