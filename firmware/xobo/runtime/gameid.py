"""A game's own id: what tells one game from another on the same board, whatever its moves.

Each game gets one when it starts (a new game, a loaded position, the first game of a game
set with ``set game``): 48 random bits, 12 hex digits. It is kept in the game's save (each
game its own: ``set game x`` then back resumes the same id) and survives power cuts as the
save does. A save written before game ids has none: the game gets one when it is resumed,
saved with it at once (``xobo.runtime.loading``; ``xobo.runtime.saveread`` reads a save's id,
and takes one that is not 4-16 hex digits for none). The board says it in ``state``
(``gameid 9c1e07a2b4f0``) and in the header of ``record`` (``[GameId "9c1e07a2b4f0"]``): a café
host keeps one record a game by it (docs/protocol.md), even when undos take a game back to its
start while the host is away, or a new game begins with the same moves as the last.

Drawn once a game, never in the scan loop; ``draw`` then forgets this module (its code is not
kept in the Pico's heap for the next game). The random bytes are the system's (``os.urandom``:
the RP2040's ring oscillator on the Pico, the kernel's elsewhere); a port without it falls back
to ``random`` seeded from the microsecond clock. A board whose drivers give ``entropy`` (a
function ``n -> bytes``: the scripted sessions', for output that is the same at every run)
draws from it instead.

Usage::

    >>> from xobo.runtime.gameid import new_game_id
    >>> len(new_game_id())                # '9c1e07a2b4f0'
    12
    >>> new_game_id(lambda n: bytes(range(n)))
    '000102030405'
"""

from xobo.compat import const, forget_module

_BYTES = const(6)  # 48 random bits: 12 hex digits


def random_bytes(n):
    """``n`` random bytes: the system's, else ``random``'s seeded from the clock."""
    import os

    try:
        return os.urandom(n)
    except (AttributeError, NotImplementedError, OSError):
        import random

        from xobo.compat import ticks_us

        random.seed(ticks_us())
        return bytes(random.getrandbits(8) for _ in range(n))


def new_game_id(entropy=None):
    """A new game's id: 12 hex digits from ``entropy(n)`` (default: ``random_bytes``)."""
    data = (entropy or random_bytes)(_BYTES)
    return "".join("%02x" % b for b in data)


def draw(entropy=None):
    """A game that starts now: its id (``new_game_id``: ``entropy``, the drivers', when they
    give one); this module is forgotten after."""
    gameid = new_game_id(entropy)
    forget_module("xobo.runtime.gameid")
    return gameid
