"""``hint`` from a command line, on either runtime (what ``xobo rules hint`` runs).

Usage::

    micropython -m xobo.games.xobo.ai.cli hint --variant xobo --level pico --seed 0 'POSITION'
    python -m xobo.games.xobo.ai.cli hint '........./... ns 36 0 0'      # prints e.g. "e5"
"""

import sys

from xobo.errors import XoboError
from xobo.games.xobo.ai import LEVELS, choose_move
from xobo.games.xobo.rules.notation import format_move
from xobo.games.xobo.rules.position import Position

USAGE = "usage: hint [--variant xobo|kv] [--level LEVEL] [--seed S] [--time-ms T] POSITION"


def main(argv):
    if not argv or argv[0] != "hint":
        print(USAGE)
        return 2
    variant = "xobo"
    level = "pico"
    seed = 0
    time_ms = None
    words = []
    i = 1
    try:
        while i < len(argv):
            a = argv[i]
            if a in ("--variant", "--level", "--seed", "--time-ms"):
                if i + 1 >= len(argv):
                    raise ValueError("%s needs a value" % a)
                v = argv[i + 1]
                i += 2
                if a == "--variant":
                    variant = v
                elif a == "--level":
                    level = v
                elif a == "--seed":
                    seed = int(v)
                else:
                    time_ms = int(v)
                continue
            words.append(a)
            i += 1
        if level not in LEVELS:
            raise ValueError("unknown level '%s': use one of %s" % (level, ", ".join(LEVELS)))
        if not words:
            raise ValueError("a position (N3) is needed")
        pos = Position.parse(" ".join(words), variant)
        m = choose_move(pos, level=level, seed=seed, time_ms=time_ms)
    except (ValueError, XoboError) as exc:
        print("hint: %s" % exc)
        return 2
    print(format_move(m))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
