"""TEMPORARY stand-in for xobo.board.virtual_board.VirtualBoard until the facade lands.

It follows the facade's contract closely enough for the simulator server: physical actions
change cube counts, protocol commands go to the rules engine, the LEDs light occupied cells.
It infers nothing. Delete once the real facade is in the tree.
"""

from xobo.rules.errors import XoboError
from xobo.rules.geometry import NS
from xobo.rules.notation import format_move, parse_move
from xobo.rules.position import Position
from xobo.rules.record import format_record, record_from_position


class _Switches:
    def __init__(self):
        self.counts = bytearray(81)

    def put(self, cell, n=1):
        self.counts[cell] += n

    def take(self, cell, n=1):
        self.counts[cell] = max(0, self.counts[cell] - n)

    def lift(self, cell):
        self.counts[cell] = 0

    def set_counts(self, heights):
        for i in range(81):
            self.counts[i] = heights[i]


class _Clock:
    def __init__(self):
        self.now = 0

    def ticks_ms(self):
        return self.now


class FakeBoard:
    def __init__(self, flash_dir=None, board="pico_gpio", realtime=False, settings=None):
        self.switches = _Switches()
        self.clock = _Clock()
        self.pos = Position()
        self.subs = []
        self.held = set()

    def step(self):
        pass

    def advance(self, ms):
        self.clock.now += ms

    def put(self, cell):
        self.switches.put(cell)

    def lift(self, cell):
        self.switches.lift(cell)

    def take(self, cell, n):
        self.switches.take(cell, n)

    def press(self, name):
        self.held.add(name)

    def release(self, name):
        self.held.discard(name)
        if name == "undo":
            self.command("undo")

    def subscribe(self, cb):
        self.subs.append(cb)

    def _emit(self, line):
        for cb in self.subs:
            cb(line)

    def command(self, line):
        words = line.split(None, 1)
        if not words:
            return ["error empty line"]
        cmd, arg = words[0], (words[1] if len(words) > 1 else "")
        try:
            if cmd == "position":
                return ["ok " + self.pos.to_string()]
            if cmd == "record":
                text = format_record(record_from_position(self.pos))
                return ["ok"] + text.rstrip("\n").split("\n")
            if cmd == "new":
                self.pos = Position()
                self._emit("event new")
                return ["ok"]
            if cmd == "undo":
                self.pos.undo()
                self._emit("event undo")
                return ["ok"]
            if cmd == "move":
                m = parse_move(arg, self.pos)
                self.pos.apply(m)
                self._emit("event move " + format_move(m))
                return ["ok " + format_move(m)]
            if cmd == "load":
                self.pos = Position.parse(arg)
                return ["ok"]
            if cmd in ("set", "follow", "settings", "hint"):
                return ["ok"]
        except XoboError as exc:
            return ["error " + str(exc)]
        return ["error unknown command " + cmd]

    def cell_colors(self):
        return ["404040" if self.switches.counts[c] else "000000" for c in range(81)]

    def edge_colors(self):
        lit = "0000c0" if self.pos.side == NS else "c08000"
        return {"N": lit, "S": lit, "E": "000000", "W": "000000"}

    def power_cut(self):
        pass

    def state(self):
        w = self.pos.winner()
        return {
            "position": self.pos.to_string(),
            "record": format_record(record_from_position(self.pos)),
            "side": "ns" if self.pos.side == NS else "ew",
            "voina": self.pos.under_voina(),
            "result": "*" if w < 0 else ("NS" if w == NS else "EW"),
            "reserves": {"common": self.pos.common, "ns": self.pos.own[0], "ew": self.pos.own[1]},
            "counts": list(self.switches.counts),
        }
