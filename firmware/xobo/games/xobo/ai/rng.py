"""A tiny deterministic PRNG (xorshift on 30 bits) that gives the same numbers on CPython and
MicroPython: every intermediate value stays below 2**30, so it never allocates a big int on
the Pico, and it does not depend on either runtime's ``random`` module.

Usage::

    >>> from xobo.games.xobo.ai.rng import Rng
    >>> r = Rng(seed=7)
    >>> r.below(81)      # 0 <= n < 81
    21
"""

_MASK = 0x3FFFFFFF  # 30 bits


class Rng:
    def __init__(self, seed=0):
        self.seed(seed)

    def seed(self, seed):
        # mix the seed so that 0, 1, 2 ... start far apart; never a zero state
        x = (seed * 0x9E37 + 0x2545F49) & _MASK
        x ^= (x & 0x7FFF) << 15
        self.x = x or 0x1234567
        for _ in range(4):
            self.next()

    def next(self):
        """The next 30-bit value (the xor of shifted copies: an invertible map, never 0)."""
        x = self.x
        x ^= (x & 0x7FFFFF) << 7  # x << 7 kept within 30 bits
        x ^= x >> 9
        x ^= (x & 0x3FFFF) << 12
        x ^= x >> 17
        self.x = x
        return x

    def below(self, n):
        """A number 0 <= k < n (n >= 1)."""
        return self.next() % n
