"""The Chain Reaction rules commands behind ``xobo rules --game chain-reaction``, the same
under CPython and MicroPython. A move is one segment in CN1 notation (a scoring segment names
its re-entry square, ``e7:N+2@d2``); ``perft`` counts segment sequences.

Usage::

    micropython -m xobo.games.chain_reaction.cli legal [--variant blockade] "<CN2 position>"
    micropython -m xobo.games.chain_reaction.cli play --position "<CN2>" d4-d5 d5:N
    micropython -m xobo.games.chain_reaction.cli perft 3
    micropython -m xobo.games.chain_reaction.cli show "<CN2>"
"""

import sys

from xobo import rulescli
from xobo.errors import XoboError
from xobo.games.chain_reaction.rules import (
    DIR_NAMES,
    PLAYER_WORDS,
    WIDTH,
    Position,
    cell_name,
    new_move_buffer,
    perft,
)
from xobo.numbers import parse_uint

# about 30-fold a segment: depth 4 from the start takes a few seconds, 6 would take hours
MAX_PERFT_DEPTH = 6

USAGE = """usage (OPTIONS: --field 6|7, --variant standard|blockade, --target 12-24,
        --first light|dark; a position's own fields override the last three):
  legal [OPTIONS] [POSITION]           legal segments (POSITION omitted: one per stdin line)
  play [OPTIONS] [--position P] SEGMENT...
  perft [OPTIONS] DEPTH [POSITION]     the number of segment sequences of DEPTH
  show [OPTIONS] POSITION"""

_OPTIONS = ("--field", "--variant", "--target", "--first", "--position")


def _err(msg):
    sys.stderr.write("error: %s\n" % msg)


def _options(args):
    opts = {"field": None, "variant": "standard", "target": "18", "first": "light",
            "position": None}
    rest = []
    i = 0
    while i < len(args):
        a = args[i]
        eq = a.find("=")
        name = a[:eq] if eq > 0 else a
        if name in _OPTIONS:
            if eq > 0:
                opts[name[2:]] = a[eq + 1:]
                i += 1
            else:
                if i + 1 >= len(args):
                    raise XoboError("%s needs a value" % a)
                opts[name[2:]] = args[i + 1]
                i += 2
        elif a.startswith("--"):
            raise XoboError("unknown option %s (options: %s)" % (a, ", ".join(_OPTIONS)))
        else:
            rest.append(a)
            i += 1
    if opts["field"] is not None:
        f = parse_uint(opts["field"], 1)
        if f not in (6, 7):
            raise XoboError("--field is 6 or 7, not '%s' (CB1)" % opts["field"])
        opts["field"] = f
    if opts["variant"] not in ("standard", "blockade"):
        raise XoboError("unknown variant '%s': use standard or blockade" % opts["variant"])
    t = parse_uint(opts["target"], 2)
    if t < 12 or t > 24:
        raise XoboError("--target is a number 12-24, not '%s' (CB5)" % opts["target"])
    opts["target"] = t
    if opts["first"] not in ("light", "dark"):
        raise XoboError("--first is light or dark, not '%s'" % opts["first"])
    return opts, rest


def _parse(text, opts):
    return Position.parse(text, opts["field"], opts["variant"] == "blockade")


def _new(opts):
    return Position(opts["field"] or 7, opts["target"], ("light", "dark").index(opts["first"]),
                    opts["variant"] == "blockade")






def cmd_legal(args):
    opts, rest = _options(args)
    return rulescli.cmd_legal(rest, lambda text: _parse(text, opts), new_move_buffer())


def result_word(pos):
    w = pos.winner()
    return "*" if w < 0 else PLAYER_WORDS[w].lower()


def cmd_play(args):
    opts, rest = _options(args)
    pos = _parse(opts["position"], opts) if opts["position"] else _new(opts)
    if not rest:
        raise XoboError("play needs at least one segment")
    k = 0
    for text in rest:
        k += 1
        if pos.winner() >= 0:
            raise XoboError("segment %d (%s): the game is over" % (k, text))
        try:
            pos.play(pos.parse_move(text))
        except XoboError as exc:
            raise XoboError("segment %d (%s): %s" % (k, text, exc))
        print("%s\t%s\t%s" % (pos.move_text(pos.last_move()), pos.to_string(), result_word(pos)))
    return 0


def cmd_perft(args):
    opts, rest = _options(args)
    if not rest:
        raise XoboError("perft needs a depth, a whole number 0-%d" % MAX_PERFT_DEPTH)
    depth = parse_uint(rest[0], 2)
    if depth < 0 or depth > MAX_PERFT_DEPTH:
        raise XoboError("perft depth must be a whole number 0-%d, not '%s'"
                        % (MAX_PERFT_DEPTH, rest[0]))
    pos = _parse(" ".join(rest[1:]), opts) if len(rest) > 1 else _new(opts)
    print(perft(pos, depth))
    return 0


def show_lines(pos):
    out = []
    header = "     " + "  ".join("abcdefghi")
    out.append(header)
    for r in range(pos.height - 1, -1, -1):
        row = []
        for f in range(WIDTH):
            c = r * WIDTH + f
            if not pos.used[c]:
                row.append(" ")
            elif pos.bot[c]:
                row.append("LD"[pos.top[c] - 1])  # a tower shows its controller in capitals
            elif pos.top[c]:
                row.append("ld"[pos.top[c] - 1])
            elif pos.goal_value(c):
                row.append(str(pos.goal_value(c)))
            else:
                row.append(".")
        out.append("%3d  %s  %d" % (r + 1, "  ".join(row), r + 1))
    out.append(header)
    side = PLAYER_WORDS[pos.side]
    out.append("field %d, target %d%s; score Light %d, Dark %d"
               % (pos.field, pos.target, ", blockade variant" if pos.blockade else "",
                  pos.score[0], pos.score[1]))
    w = pos.winner()
    if w >= 0:
        out.append("game over: %s wins%s" % (PLAYER_WORDS[w],
                                              " by blockade" if pos.blockade_winner == w
                                              and pos.score[w] < pos.target else ""))
        return out
    out.append("%s to move, segment %d of at most 5" % (side, pos.seg + 1))
    if pos.tower >= 0:
        t = pos.tower
        out.append("tower on %s: %s under %s" % (cell_name(t), PLAYER_WORDS[pos.top[t] - 1],
                                                  PLAYER_WORDS[pos.bot[t] - 1]))
        dirs = pos.tower_directions()
        if dirs:
            out.append("tower directions: " + " ".join(
                "%s(%s,%s%s)" % (DIR_NAMES[d], cell_name(s1), cell_name(s2),
                                 "+%d" % p if p else "") for d, s1, s2, p in dirs))
    if pos.penalty_due():
        out.append("%s has no legal segment: penalty (CS2)" % side)
    if pos.blockade_pending >= 0:
        out.append("%s's blockade must survive this turn (CE3)"
                   % PLAYER_WORDS[pos.blockade_pending])
    return out


def cmd_show(args):
    opts, rest = _options(args)
    if not rest:
        raise XoboError("show needs a position")
    for line in show_lines(_parse(" ".join(rest), opts)):
        print(line)
    return 0


COMMANDS = {"legal": cmd_legal, "play": cmd_play, "perft": cmd_perft, "show": cmd_show}


def main(argv):
    if not argv or argv[0] not in COMMANDS:
        _err("unknown rules command '%s'" % argv[0] if argv else "no rules command")
        sys.stderr.write(USAGE + "\n")
        return 2
    try:
        return COMMANDS[argv[0]](argv[1:])
    except XoboError as exc:
        _err(str(exc))
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
