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
to the microsecond clock, stirred. A board whose drivers give ``entropy`` (a
function ``n -> bytes``: the scripted sessions', for output that is the same at every run)
draws from it instead.

Usage::

    >>> from xobo.runtime.gameid import draw
    >>> len(draw())                       # '9c1e07a2b4f0'
    12
    >>> class Counted:                    # drivers that give their own random bytes
    ...     entropy = staticmethod(lambda n: bytes(range(n)))
    >>> draw(Counted())
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
        # (a port without it: the microsecond clock, stirred by a multiplicative hash, each
        # byte a later reading: no two boots nor two games alike in practice)
        from xobo.compat import ticks_us

        out = bytearray(n)
        x = ticks_us()
        for k in range(n):
            x = (x * 1103515245 + ticks_us() + 12345) & 0x3FFFFFFF
            out[k] = x >> 22
        return bytes(out)


def draw(drivers=None):
    """A game that starts now: its id, 12 hex digits from the ``drivers``' ``entropy(n)``
    when they have one (``random_bytes`` else); this module is forgotten after."""
    forget_module("xobo.runtime.gameid")
    entropy = getattr(drivers, "entropy", None) or random_bytes
    return "".join("%02x" % b for b in entropy(_BYTES))
