"""The device check's scenario and report: boot, heap, cycle times, a move by hand, the LEDs,
the AI, all in emulated time on an emulated Pico (docs/device-check.md).

Usage::

    make pico-check UF2=build/firmware/xobo-pico_gpio.uf2 BOOTROM=bootrom.bin   # the check

    >>> from xobo_host.device.picocheck import check
    >>> targets = check.Targets(frozen=True)      # the XoBo image's (make firmware) targets
    >>> check.target_text(targets.boot_ms), check.meets(640, targets.boot_ms)
    ('<= 1,000 ms', True)
    >>> check.parse_timing("ok timing scan=100/812/1204 light=100/182/240")   # the board's
    {'scan': (100, 812, 1204), 'light': (100, 182, 240)}
    >>> # the check itself (not run here: it needs MicroPython's UF2, the RP2040's bootrom and
    >>> # Node, and runs for half an hour) returns [Result(name, figure, target, passed)]:
    >>> # results = check.run_check("RPI_PICO.uf2", "bootrom.bin", board="pico_gpio")
"""

import re
import time
from pathlib import Path

from xobo.games import part
from xobo_host.device import deploy
from xobo_host.device.picocheck import image, runner

CYCLE_MAX_US = 10_000  # scan mean + light mean: the scan runs every 10 ms
WRITE_MAX_US = 10_000  # LED write mean while the frames change
PERIOD_RANGE_MS = (9.5, 12.5)  # the scan task sleeps 10 ms after each scan (+ the scan itself)
SETTLE_MS = 1000  # the default settle time (docs/protocol.md)
HAND_MS = 50  # between two hand actions of a move (xobo.runtime.script's)
SETTLE_SLACK_MS = 300  # debounce (20 ms) and the 10 ms scan period on top of it
SESSION_PLIES = 40  # the computer-against-computer session of each game
SESSION_SETTLE_MS = 200  # the shortest settle time: the session's moves are the AI's
MID_PLIES = 20  # the middle-game position of each game (fewer when the game ends sooner)
SWEEP_PLIES = (0, 8, 16, 24, 32, 40)  # the hint sweep's positions, without an AI bench's
BOOT_FAILURES = ("MemoryError", "out of memory", "Traceback", "xobo: ")


class Targets:
    """The check's targets, by firmware (docs/device-check.md): the XoBo image (``make
    firmware``: the board frozen in) must leave the heap to the data; on a stock MicroPython
    with ``make build``'s files every game must still run, with a smaller heap and more time.
    ``None``: no figure to reach, only that it runs without an error."""

    def __init__(self, frozen):
        self.frozen = frozen
        self.heap = 150_000 if frozen else None  # free after boot and after a game switch
        self.heap_ai = 150_000 if frozen else 60_000  # free after the computer's move
        self.boot_ms = 1000 if frozen else None  # reset to the first reply
        self.switch_ms = 200 if frozen else None  # set game: to the reply
        self.hint_ms = 1500 if frozen else None  # the default level, the check's positions
        self.computer_ms = 1500 if frozen else 2000
        self.switch_ai_ms = 50 if frozen else None  # a switch closed during the search

    def name(self):
        return "frozen image" if self.frozen else "stock firmware + make build"


def target_text(limit, unit="ms", at_least=False):
    if limit is None:
        return "runs, no error"
    return "%s %s%s" % (">=" if at_least else "<=", format(limit, ","),
                        " " + unit if unit else "")


def meets(value, limit, at_least=False):
    if value is None:
        return False
    if limit is None:
        return True
    return value >= limit if at_least else value <= limit


class Result:
    """One item of the report: its figure in words, its target, whether it passed, and its
    measured ``values`` [(key, number, unit, what)] for the results file (picocheck.results)."""

    def __init__(self, name, figure, target, passed, values=()):
        self.name = name
        self.figure = figure
        self.target = target
        self.passed = bool(passed)
        self.values = list(values)

    def line(self):
        return "%-22s %-62s target %-24s %s" % (self.name, self.figure, self.target,
                                                 "PASS" if self.passed else "FAIL")


def parse_timing(line):
    """``ok timing scan=N/mean/max ...`` -> {"scan": (N, mean, max), ...}."""
    out = {}
    for key, n, mean, worst in re.findall(r"(\w+)=(-?\d+)/(-?\d+)/(-?\d+)", line or ""):
        out[key] = (int(n), int(mean), int(worst))
    return out


def parse_mem(line):
    m = re.search(r"free=(-?\d+)", line or "")
    return int(m.group(1)) if m else None


def expected_chain(leds_line, board):
    """The firmware's ``ok leds`` reply as (r, g, b) per chain index (before brightness)."""
    words = leds_line.split()[2:]
    count = board["leds"]["count"]
    chain = [(0, 0, 0)] * count
    colours = [tuple(bytes.fromhex(w)) for w in words]
    for cell, index in enumerate(board["leds"]["cells"]):
        chain[index] = colours[cell]
    for k, side in enumerate(("N", "S", "E", "W")):
        for index in board["leds"]["edges"].get(side, ()):
            chain[index] = colours[len(board["leds"]["cells"]) + k]
    return chain


def decode_frame(data, order="GRB"):
    """Wire bytes -> (r, g, b) per LED."""
    ro, go, bo = order.index("R"), order.index("G"), order.index("B")
    return [(data[j + ro], data[j + go], data[j + bo]) for j in range(0, len(data) - 2, 3)]


def match_scale(got, want):
    """The scale s (0..256) with got == want * s >> 8 (within 1) on every channel, or None:
    the firmware scales the whole frame by brightness and the power limiter."""
    if len(got) != len(want):
        return None
    pairs = [(g, w) for gl, wl in zip(got, want, strict=True) for g, w in zip(gl, wl,
                                                                             strict=True)]
    for s in range(256, -1, -1):
        if all(abs(g - ((w * s) >> 8)) <= 1 for g, w in pairs):
            return s
    return None


class Check:
    def __init__(self, harness, board, echo, targets=None, games=None,
                 session_plies=SESSION_PLIES):
        self.h = harness
        self.board = board
        self.t = targets or Targets(False)
        self.games = games  # None: every game that fits the board
        self.session_plies = session_plies
        self.cols = len(board["matrix"]["cols"])
        self.echo = echo
        self.results = []
        # the game the board starts with (the first of the games), its area where the runtime
        # places it on this board (xobo.runtime.topology: XoBo's 9 x 9 in the middle of the
        # 15 x 15), its positions and hands: the board's own items are played in it
        from xobo import games as registry

        self.boot = GameRound(self, registry.GAMES[0])

    def add(self, name, figure, target, passed, values=()):
        r = Result(name, figure, target, passed, values)
        self.results.append(r)
        self.echo(r.line())
        return r

    def ask(self, command, prefix, ms=3000):
        t0 = self.h.send(command)
        t, line = self.h.run(ms, until=[prefix, "error"])
        return t0, t, line

    def event_since(self, prefix, t0):
        for t, line in self.h.lines_since(t0):
            if line.startswith(prefix):
                return t, line
        return None, None

    def frame_check(self, name, t_reply, leds_line, must_light=()):
        """The decoded frame around a ``leds`` reply equals the firmware's colours."""
        want = expected_chain(leds_line, self.board)
        order = self.board["leds"]["order"]
        before = [f for f in self.h.frames if f[1] <= t_reply]
        after = [f for f in self.h.frames if f[1] > t_reply]
        candidates = before[-1:] + after[:1]
        for start, _end, bits, data in candidates:
            got = decode_frame(data, order)
            s = match_scale(got, want)
            lit = [i for i in must_light if any(got[i])]
            if s is not None and s > 0 and len(lit) == len(must_light):
                shown = "".join("; chain %d=#%02x%02x%02x" % ((i,) + got[i]) for i in must_light)
                return self.add(name, "frame @%.0f ms = leds x %d/256 (%d bits, %s)%s"
                                % (start / 1e6, s, bits, order, shown),
                                "decoded == leds", True)
        return self.add(name, "no decoded frame matches the leds reply (%d frames near it)"
                        % len(candidates), "decoded == leds", False)

    def run(self):
        h = self.h
        h.send("version")  # queued until the USB serial port is up
        t, line = h.run(15000, until=["ok xobo-board", "xobo:"])
        bad = [ln for _, ln in h.serial if any(b in ln for b in BOOT_FAILURES)]
        booted = line is not None and line.startswith("ok xobo-board") and not bad
        self.add("boot", ("first reply to version after %.0f ms" % (t / 1e6)) if booted else
                 "did not boot: %s" % ("; ".join(bad[:3]) or "no reply in 15 s"),
                 "boots, no MemoryError" + ("" if self.t.boot_ms is None else
                                            ", " + target_text(self.t.boot_ms)),
                 booted and meets(t / 1e6, self.t.boot_ms),
                 [("ms", round(t / 1e6), "ms", "reset to the first reply to version")]
                 if booted else ())
        if not booted:
            return self.results
        _, _, line = self.ask("mem", "ok mem")
        free = parse_mem(line)
        self.add("heap", "mem after boot: %s bytes free" % free,
                 target_text(self.t.heap, "B", True), meets(free, self.t.heap, True),
                 _value("free", free, "B", "heap free after boot"))
        self.ask("follow on", "ok follow")
        self.idle_cycle()
        self.hint("hint", "start position")
        self.move_by_hand()
        self.changing_frames()
        self.hint_sweep()
        self.midgame()
        for name in self.game_order():
            GameRound(self, name).run()
        for note in h.notes:
            if not note.startswith("usb serial"):
                self.echo("note: %s" % note)
        return self.results

    def idle_cycle(self):
        h = self.h
        h.run(500)  # the boot's first frames and the follow-on events out of the way
        t0, _, _ = self.ask("timing", "ok timing")
        h.run(2000)
        t1, _, line = self.ask("timing", "ok timing")
        tm = parse_timing(line)
        scan, light = tm.get("scan"), tm.get("light")
        if scan and light:
            total = scan[1] + light[1]
            self.add("cycle", "idle 2 s: scan mean %d max %d us, light mean %d max %d us (%d "
                     "scans)" % (scan[1], scan[2], light[1], light[2], scan[0]),
                     "scan+light <= %d us" % CYCLE_MAX_US, total <= CYCLE_MAX_US,
                     [("scan-mean", scan[1], "us", "idle: one scan of the switches, mean"),
                      ("scan-max", scan[2], "us", "idle: one scan, max"),
                      ("light-mean", light[1], "us", "idle: one light render, mean"),
                      ("light-max", light[2], "us", "idle: one light render, max"),
                      ("total", total, "us", "idle: one cycle, scan mean + light mean")])
        else:
            self.add("cycle", "no timing reply (%r)" % line, "scan+light <= %d us"
                     % CYCLE_MAX_US, False)
        edges = [t for t in h.row0 if t0 <= t <= t1]
        gaps = sorted((b - a) / 1e6 for a, b in zip(edges, edges[1:], strict=False))
        if gaps:
            med = gaps[len(gaps) // 2]
            lo, hi = PERIOD_RANGE_MS
            self.add("period", "row-0 scan period median %.2f ms (min %.2f, max %.2f, %d edges)"
                     % (med, gaps[0], gaps[-1], len(edges)), "%.1f-%.1f ms" % (lo, hi),
                     lo <= med <= hi, [("median", round(med, 2), "ms",
                                        "the scan period (row 0 driven), median")])
        else:
            self.add("period", "row 0 was never driven", "about 10 ms", False)

    def hint(self, name, where):
        t0, t, line = self.ask("hint", "ok hint", 20000)
        if line and line.startswith("ok hint"):
            ms = (t - t0) / 1e6
            self.add(name, "%s: %s after %.0f ms" % (where, line, ms),
                     target_text(self.t.hint_ms), meets(ms, self.t.hint_ms),
                     [("ms", round(ms), "ms", "a hint, %s" % where)])
        else:
            self.add(name, "%s: no hint (%s)" % (where, line), target_text(self.t.hint_ms),
                     False)
        self.h.run(200)

    def first_move(self):
        """(board cell, move, its text) of the boot game's first move by hand: one piece put
        on the free cell nearest the board's middle (XoBo's e5), the move its host module's
        hands make so."""
        from xobo import hostkit

        r = self.boot
        b = r.free_cell(r.start)
        g = r.place.to_game[b]
        hands = hostkit.of(r.name).hands
        for m in r.start.legal_actions():
            if hands(r.start, m) == [("put", g, 1)]:
                return b, m, r.start.move_text(m)
        raise ValueError("%s has no first move that puts one piece on %s"
                         % (r.name, r.topo.cell_name(b)))

    def move_by_hand(self):
        h = self.h
        cell, m, text = self.first_move()
        t0 = h.switch(cell, True)
        t, line = h.run(5000, until=["event move"])
        ms = (t - t0) / 1e6 if t else None
        want = "event move " + text
        ok = line == want and SETTLE_MS <= ms <= SETTLE_MS + SETTLE_SLACK_MS
        self.add("move", ("piece on %s: %r after %.0f ms" % (text, line, ms)) if t else
                 "piece on %s: no event move in 5 s" % text, "%s at %d-%d ms"
                 % (want, SETTLE_MS, SETTLE_MS + SETTLE_SLACK_MS), ok,
                 _value("ms", round(ms) if t else None, "ms",
                        "a piece put on the board to its move event (the settle time: %d ms)"
                        % SETTLE_MS))
        _, t, line = self.ask("leds", "ok leds")
        chain = self.board["leds"]["cells"][cell]
        # the edges of the player to move, where the game lights them (XoBo's EDGES_OF)
        after = self.boot.start.clone()
        after.apply(m)
        edges_of = getattr(part(self.boot.game, "board").Layers, "EDGES_OF", None)
        side = [i for s in (edges_of[after.side] if edges_of else ())
                for i in self.board["leds"]["edges"][s][:1]]
        if line and line.startswith("ok leds"):
            self.frame_check("leds-move", t, line, must_light=[chain] + side)
        else:
            self.add("leds-move", "no leds reply (%r)" % line, "decoded == leds", False)

    def changing_frames(self):
        h = self.h
        cell = self.first_move()[0]
        self.ask("timing", "ok timing")
        n0 = len(h.frames)
        h.switch(cell, False)  # the committed piece taken off: the board blinks it to restore it
        h.run(2500)
        _, t, line = self.ask("timing", "ok timing")
        frames = h.frames[n0:]
        distinct = len({f[3] for f in frames})
        write = parse_timing(line).get("write")
        if write:
            self.add("write", "LEDs changing: write mean %d max %d us (%d writes, %d distinct "
                     "frames decoded)" % (write[1], write[2], write[0], distinct),
                     "mean <= %d us" % WRITE_MAX_US, write[1] <= WRITE_MAX_US and distinct > 1,
                     [("mean", write[1], "us", "an LED write while the frames change, mean"),
                      ("max", write[2], "us", "an LED write while the frames change, max")])
        else:
            self.add("write", "no timing reply (%r)" % line, "mean <= %d us" % WRITE_MAX_US,
                     False)
        _, t, line = self.ask("leds", "ok leds")
        if line and line.startswith("ok leds"):
            self.frame_check("leds-fix", t, line)
        h.switch(cell, True)
        h.run(3000, until=["event match"])

    def sweep_positions(self):
        """The boot game's positions of the hint sweep: its AI bench kernel's ``POSITIONS``
        (its host module's ``AI_BENCH``: XoBo's, a game at plies 0-40), else its computer's
        game at ``SWEEP_PLIES``."""
        from xobo import hostkit

        r = self.boot
        module = hostkit.of(r.name).AI_BENCH
        if module:
            texts = __import__(module, None, None, ["POSITIONS"]).POSITIONS
            return [r.game.parse_position(text, r.settings) for text in texts]
        out = []
        for plies in SWEEP_PLIES:
            pos = r.played(plies)
            if out and pos.ply == out[-1].ply:
                break  # the game ended sooner
            out.append(pos)
        return out

    def hint_sweep(self):
        """A hint from each position of the sweep (``sweep_positions``): the worst time, and
        whether the device chose what the desktop's node-bounded search chooses (the board
        bounds its search in time too: a time-cut search could choose otherwise)."""
        h = self.h
        r = self.boot
        ai = part(r.game, "computer")
        positions = self.sweep_positions()
        times = []
        same = 0
        for pos in positions:
            _, _, line = self.ask("load " + pos.to_string(), "ok load")
            r.set_cells(r.occupied(pos), 3000)
            t0, t, line = self.ask("hint", "ok hint", 20000)
            if not (line and line.startswith("ok hint ")):
                times.append(None)
                continue
            times.append((t - t0) / 1e6)
            # the board seeds its hint with the ply of the loaded position, as its own move
            desktop = pos.move_text(ai.choose_move(pos.clone(), level=ai.HINT_LEVEL,
                                                   seed=pos.ply))
            same += line.split()[2] == desktop
            h.run(200)
        done = [x for x in times if x is not None]
        worst = max(done) if done else None
        self.add("hint-sweep", "%d positions: %s ms, worst %s; the desktop's move in %d of %d"
                 % (len(positions), "/".join("%.0f" % x if x is not None else "-"
                                             for x in times),
                    "%.0f ms" % worst if worst is not None else "-", same, len(positions)),
                 "%s, the same moves" % target_text(self.t.hint_ms),
                 len(done) == len(positions) and meets(worst, self.t.hint_ms)
                 and same == len(positions),
                 _value("worst", round(worst) if worst is not None else None, "ms",
                        "the slowest hint of the sweep's positions")
                 + _value("times", "/".join("%.0f" % x if x is not None else "-"
                                            for x in times), "ms",
                          "a hint at each of the sweep's positions")
                 + [("same", same, "of %d" % len(positions),
                     "positions where the board chose the desktop's move")])

    def middle_position(self):
        """The boot game's middle-game position: its host module's ``CHECK_MIDDLE`` (XoBo's
        ply-20 position with a stack of 3 on e6), else its computer's after ``MID_PLIES``."""
        from xobo import hostkit

        r = self.boot
        text = hostkit.of(r.name).CHECK_MIDDLE
        return r.game.parse_position(text, r.settings) if text else r.middle_game()

    def midgame(self):
        h = self.h
        r = self.boot
        mid = self.middle_position()
        _, _, line = self.ask("load " + mid.to_string(), "ok load")
        if not (line and line.startswith("ok load")):
            self.add("load", "the middle-game position was refused: %s" % line, "ok load",
                     False)
            return
        if not r.set_cells(r.occupied(mid), 5000):
            self.echo("note: the pieces of the middle-game position never matched (%s)"
                      % "; ".join(ln for _, ln in h.serial[-3:]))
        self.hint("hint-mid", "the middle-game position")
        side = r.game.PLAYER_NAMES[mid.side]
        empty = r.free_cell(mid)
        t0 = h.send("set opponent %s" % side)
        h.run(50)
        t_sw = h.switch(empty, True)
        # (switch events name the board's cell: XoBo's e5 is h8 on the 15 x 15 board)
        on = "event switch %s on" % r.topo.cell_name(empty)
        t_on, _ = h.run(5000, until=[on])
        t_exp, line = self.event_since("event expect computer", t0)
        if t_exp is None:
            t_exp, line = h.run(20000, until=["event expect computer"])
        if t_exp is not None:
            ms = (t_exp - t0) / 1e6
            self.add("computer", "%s after %.0f ms" % (line, ms),
                     target_text(self.t.computer_ms), meets(ms, self.t.computer_ms),
                     [("ms", round(ms), "ms", "the computer's move at the middle-game "
                                              "position")])
        else:
            self.add("computer", "no event expect computer in 20 s",
                     target_text(self.t.computer_ms), False)
        if t_on is None:
            self.add("switch-ai", "no event switch %s on within 5 s" % r.topo.cell_name(empty),
                     target_text(self.t.switch_ai_ms), False)
        else:
            ms = (t_on - t_sw) / 1e6
            during = t_exp is None or t_exp > t_sw
            self.add("switch-ai", "event switch %s on %.0f ms after closing it%s"
                     % (r.topo.cell_name(empty), ms, " (during the search)" if during else
                        " (the search had already ended)"),
                     target_text(self.t.switch_ai_ms), meets(ms, self.t.switch_ai_ms) and during,
                     [("ms", round(ms), "ms", "a switch closed during the search, to its "
                                              "event")])
        h.switch(empty, False)
        h.run(300)
        _, _, line = self.ask("mem", "ok mem")
        free = parse_mem(line)
        self.add("heap-ai", "mem after the computer's move: %s bytes free" % free,
                 target_text(self.t.heap_ai, "B", True), meets(free, self.t.heap_ai, True),
                 _value("free", free, "B", "heap free after the computer's move"))
        self.ask("set opponent off", "ok opponent")

    def game_order(self):
        """The games that fit this board, each switched to from the one before: XoBo last
        (the board starts with it), so that its switch is measured too."""
        from xobo import games

        cols = self.cols
        rows = len(self.board["leds"]["cells"]) // cols
        out = []
        for name in games.GAMES[1:] + games.GAMES[:1]:
            if self.games is not None and name not in self.games:
                continue
            game = games.load(name)
            w, h = game.area(dict(game.DEFAULTS))
            if w <= cols and h <= rows:
                out.append(name)
        return out


class GameRound:
    """One game on the board (docs/device-check.md, "What it checks"): the switch to it, the heap,
    a hint at the start and at a middle-game position, the computer's move with a switch
    closed during its search, the heap after it, and a session of ``session_plies`` moves in
    which the computer plays every player but the first and the first plays the hints; the
    check's hands carry out each move on the switches. The positions come from the game's own
    rules and computer on the host (CPython), the same code as the device's."""

    def __init__(self, check, name):
        from xobo import games
        from xobo.runtime.topology import Topology

        self.c = check
        self.h = check.h
        self.t = check.t
        self.name = name
        self.game = games.load(name)
        self.settings = dict(self.game.DEFAULTS)
        self.start = self.game.new_position(self.settings)
        cols = check.cols
        rows = len(check.board["leds"]["cells"]) // cols
        self.topo = Topology(cols, rows)
        w, h = self.game.area(self.settings)
        self.place = self.topo.place(w, h, self.start.used)

    def add(self, item, figure, target, passed, values=()):
        return self.c.add("%s %s" % (self.name, item), figure, target, passed, values)

    # -------------------------------------------------------------- the pieces on the board

    def occupied(self, pos):
        """The board cells of the pieces of ``pos``."""
        out = bytearray(pos.n_cells)
        pos.occupancy(out)
        return {self.place.to_board[g] for g in range(pos.n_cells) if out[g]}

    def set_cells(self, cells, wait_ms=4000):
        """Close exactly the switches of ``cells``; waits for ``event match`` when anything
        changed (the board then sees the position). Returns False when something changed and
        no ``event match`` came."""
        h = self.h
        changed = False
        for b in sorted(h.closed - cells):
            h.switch(b, False)
            changed = True
        for b in sorted(cells - h.closed):
            h.switch(b, True)
            changed = True
        if changed:
            return h.run(wait_ms, until=["event match"])[1] is not None
        h.run(100)
        return True

    def play_by_hand(self, pos, m):
        """Carry out move ``m`` of ``pos`` on the switches as hands do (docs/games.md: the
        cells it empties, the cells it fills, and its touch cell lifted and put back when the
        switches alone cannot tell it from another move); returns the emulated time of the
        last hand."""
        h = self.h
        after = pos.clone()
        after.apply(m)
        before, now = self.occupied(pos), self.occupied(after)
        t = h.t
        for b in sorted(before - now):
            t = h.switch(b, False)
            h.run(HAND_MS)
        for b in sorted(now - before):
            t = h.switch(b, True)
            h.run(HAND_MS)
        touch = pos.touch_cell(m)
        if touch >= 0:
            b = self.place.to_board[touch]
            if b in now:
                h.switch(b, False)
                h.run(HAND_MS)
                t = h.switch(b, True)
                h.run(HAND_MS)
        return t

    # -------------------------------------------------------------- positions

    def middle_game(self):
        """A position MID_PLIES moves in (fewer when the game would end first): ``played``."""
        return self.played(MID_PLIES)

    def played(self, plies):
        """A position ``plies`` moves in (fewer when the game would end first), played by
        the game's computer at its cheapest level that is not random, seeded by the ply."""
        ai = part(self.game, "computer")
        levels = self.game.LEVELS
        level = levels[1] if len(levels) > 1 and levels[0] == "random" else levels[0]
        pos = self.start.clone()
        for ply in range(plies):
            m = ai.choose_move(pos.clone(), level=level, seed=ply)
            pos.apply(m)
            if pos.is_terminal():
                pos.undo()
                break
        return pos

    # -------------------------------------------------------------- the round

    def run(self):
        h = self.h
        t0 = h.send("set game %s" % self.name)
        t, line = h.run(10000, until=["ok game", "error"])
        if not (line and line.startswith("ok game")):
            self.add("switch", "set game %s: %s" % (self.name, line or "no reply in 10 s"),
                     target_text(self.t.switch_ms), False)
            return
        if "restarts" in line:
            # a stock firmware switches by restarting into the game (loading.switches_by_restart):
            # the switch lasts until the board answers again
            reply, t = line, None
            for _ in range(40):
                t_ask = h.send("version")
                t, line = h.run(500, until=["ok xobo-board", "xobo:"])
                if line is not None:
                    break
            if not (line and line.startswith("ok xobo-board")):
                self.add("switch", "set game %s: %r, then %s" % (
                    self.name, reply, line or "no reply to version in 20 s"),
                    target_text(self.t.switch_ms), False)
                return
            ms = (t - t0) / 1e6
            self.add("switch", "set game: %r, restarted: version answered after %.0f ms (%.0f"
                     " ms after it was sent)" % (reply, ms, (t - t_ask) / 1e6),
                     target_text(self.t.switch_ms), meets(ms, self.t.switch_ms),
                     [("ms", round(ms), "ms", "set game to the restarted board's reply")])
            self.c.ask("follow on", "ok follow")  # (a restarted board follows no one)
        else:
            ms = (t - t0) / 1e6
            self.add("switch", "set game: %r after %.0f ms" % (line, ms),
                     target_text(self.t.switch_ms), meets(ms, self.t.switch_ms),
                     [("ms", round(ms), "ms", "set game to its reply")])
        self.ask_new()
        self.set_cells(self.occupied(self.start))
        self.heap("heap-switch", "after the switch", self.t.heap)
        self.hint("hint-start", "start position")
        mid = self.middle_game()
        _, _, line = self.c.ask("load " + mid.to_string(), "ok load")
        if not (line and line.startswith("ok load")):
            self.add("load", "the middle-game position was refused: %s" % line, "ok load",
                     False)
            return
        self.set_cells(self.occupied(mid))
        self.hint("hint-mid", "the middle-game position")
        self.computer(mid)
        self.heap("heap-ai", "after the computer's move", self.t.heap_ai)
        self.c.ask("set opponent off", "ok opponent")
        if self.c.session_plies:
            self.session()

    def ask_new(self):
        """A new game of this game (the switch resumes its saved game, if any)."""
        self.c.ask("new", "ok new")

    def heap(self, item, when, limit):
        _, _, line = self.c.ask("mem", "ok mem")
        free = parse_mem(line)
        self.add(item, "mem %s: %s bytes free" % (when, free), target_text(limit, "B", True),
                 meets(free, limit, True), _value("free", free, "B", "heap free %s" % when))
        return free

    def hint(self, item, where):
        self.c.ask("timing", "ok timing")  # (starts the board's cycle times again)
        t0, t, line = self.c.ask("hint", "ok hint", 20000)
        _, _, timing = self.c.ask("timing", "ok timing")
        tm = parse_timing(timing)
        light, write = tm.get("light"), tm.get("write")
        if light and write:  # what the board's light cost while the computer searched
            where += " (meanwhile %d renders, mean %d us; %d LED writes, mean %d us)" % (
                light[0], light[1], write[0], write[1])
        if line and line.startswith("ok hint"):
            ms = (t - t0) / 1e6
            self.add(item, "%s: %s after %.0f ms" % (where, line, ms),
                     target_text(self.t.hint_ms), meets(ms, self.t.hint_ms),
                     [("ms", round(ms), "ms", "a hint, %s" % where.split(" (")[0])])
        else:
            self.add(item, "%s: no hint (%s)" % (where, line), target_text(self.t.hint_ms),
                     False)
        self.h.run(200)

    def free_cell(self, pos):
        """An empty board cell of the game's area (its middle first)."""
        taken = self.occupied(pos)
        cells = sorted(self.place.board_cells(),
                       key=lambda b: abs(b % self.topo.width - self.topo.width // 2)
                       + abs(b // self.topo.width - self.topo.height // 2))
        for b in cells:
            if b not in taken:
                return b
        return None

    def computer(self, pos):
        h = self.h
        side = self.game.PLAYER_NAMES[pos.side]
        empty = self.free_cell(pos)
        t0 = h.send("set opponent %s" % side)
        t_sw = t_on = None
        if empty is not None:
            # closed 10 ms after the reply: the search starts at the next scan, and the test
            # game's whole search can be over 50 ms after the command (it was, once)
            h.run(1000, until=["ok opponent", "error"])
            h.run(10)
            t_sw = h.switch(empty, True)
            on = "event switch %s on" % self.topo.cell_name(empty)
            t_on, _ = h.run(5000, until=[on])
        t_exp, line = self.c.event_since("event expect computer", t0)
        if t_exp is None:
            t_exp, line = h.run(20000, until=["event expect computer"])
        if t_exp is not None:
            ms = (t_exp - t0) / 1e6
            self.add("computer", "%s after %.0f ms" % (line, ms),
                     target_text(self.t.computer_ms), meets(ms, self.t.computer_ms),
                     [("ms", round(ms), "ms", "the computer's move at the middle-game "
                                              "position")])
        else:
            self.add("computer", "no event expect computer in 20 s",
                     target_text(self.t.computer_ms), False)
        if empty is None:
            self.add("switch-ai", "no empty cell to close", target_text(self.t.switch_ai_ms),
                     False)
            return
        if t_on is None:
            self.add("switch-ai", "no event switch on within 5 s",
                     target_text(self.t.switch_ai_ms), False)
        else:
            ms = (t_on - t_sw) / 1e6
            during = t_exp is None or t_exp > t_sw
            self.add("switch-ai", "event switch %s on %.0f ms after closing it%s"
                     % (self.topo.cell_name(empty), ms, " (during the search)" if during
                        else " (the search had already ended)"),
                     target_text(self.t.switch_ai_ms),
                     meets(ms, self.t.switch_ai_ms) and during,
                     [("ms", round(ms), "ms", "a switch closed during the search, to its "
                                              "event")])
        h.switch(empty, False)
        h.run(300)

    def session(self):
        """The computer plays every player but the first, the first plays the hints; the
        check's hands carry out every move. One line: the plies played, the worst computer's
        move and hint, the least heap after a computer's move."""
        h = self.h
        c = self.c
        names = self.game.PLAYER_NAMES
        opponent = "+".join(names[1:]) if len(names) > 2 else names[1]
        c.ask("set settle %d" % SESSION_SETTLE_MS, "ok settle")
        self.ask_new()
        pos = self.start.clone()
        self.set_cells(self.occupied(pos))
        t_last = c.ask("set opponent %s" % opponent, "ok opponent")[0]
        computer_ms, hint_ms, heaps, errors = [], [], [], []
        while pos.ply < self.c.session_plies and not pos.is_terminal():
            if pos.side == 0:
                t0, t, line = c.ask("hint", "ok hint", 20000)
                if not (line and line.startswith("ok hint ")):
                    errors.append("ply %d: no hint (%s)" % (pos.ply, line))
                    break
                hint_ms.append((t - t0) / 1e6)
                text = line[len("ok hint "):].split(" (the expected")[0]
            else:
                t, line = c.event_since("event expect computer", t_last)
                if t is None:
                    t, line = h.run(20000, until=["event expect computer"])
                if t is None:
                    errors.append("ply %d: no computer's move in 20 s" % pos.ply)
                    break
                computer_ms.append((t - t_last) / 1e6)
                text = line.split(" ", 3)[3]
                _, _, mem = c.ask("mem", "ok mem")
                heaps.append(parse_mem(mem))
            try:
                m = pos.parse_move(text)
            except Exception as exc:  # a move the host's rules do not read: the report says
                errors.append("ply %d: %r: %s" % (pos.ply, text, exc))
                break
            t_hand = self.play_by_hand(pos, m)
            t_move, line = h.run(8000, until=["event move", "event error"])
            if t_move is None or not line.startswith("event move"):
                errors.append("ply %d: %s not taken (%s)" % (pos.ply, text, line))
                break
            pos.apply(m)
            t_last = t_move if t_move > t_hand else t_hand
        errs = [ln for t, ln in h.serial if ln.startswith("event error") and "saved" not in ln]
        c.ask("set opponent off", "ok opponent")
        c.ask("set settle %d" % SETTLE_MS, "ok settle")
        worst_c = max(computer_ms) if computer_ms else None
        worst_h = max(hint_ms) if hint_ms else None
        least = min((x for x in heaps if x is not None), default=None)
        fig = ("%d plies%s: computer %d moves, worst %s; hints %d, worst %s; least heap after "
               "the computer's move %s B%s"
               % (pos.ply, " (game over)" if pos.is_terminal() else "", len(computer_ms),
                  "%.0f ms" % worst_c if worst_c is not None else "-", len(hint_ms),
                  "%.0f ms" % worst_h if worst_h is not None else "-",
                  format(least, ",") if least is not None else "-",
                  ("; " + "; ".join(errors + errs[:2])) if errors or errs else ""))
        self.add("session", fig, "computer %s, hint %s, heap %s"
                 % (target_text(self.t.computer_ms), target_text(self.t.hint_ms),
                    target_text(self.t.heap_ai, "B", True)),
                 not errors and (pos.ply >= self.c.session_plies or pos.is_terminal())
                 and meets(worst_c, self.t.computer_ms) and (not hint_ms or meets(
                     worst_h, self.t.hint_ms)) and meets(least, self.t.heap_ai, True),
                 [("plies", pos.ply, "plies", "the session's length (the game over: %s)"
                   % ("yes" if pos.is_terminal() else "no"))]
                 + _value("worst-move", round(worst_c) if worst_c is not None else None, "ms",
                          "the session's slowest computer's move")
                 + _value("worst-hint", round(worst_h) if worst_h is not None else None, "ms",
                          "the session's slowest hint")
                 + _value("least-free", least, "B",
                          "the session's least heap free after a computer's move"))


def _value(key, value, unit, what):
    """[(key, value, unit, what)] when there is a value, else []."""
    return [] if value is None else [(key, value, unit, what)]


REPORT_NAME = "last-report.txt"


def run_check(uf2, bootrom, board="pico_gpio", cache_dir=None, flash_writes=True, echo=print,
              games=None, session_plies=SESSION_PLIES):
    """Build, boot and check; returns the results (the report is echoed as it goes, and kept
    in ``build/pico-check/last-report.txt`` for ``make bench``, and in
    ``last-report-BOARD-stock.txt`` / ``-frozen.txt``).

    A stock MicroPython gets ``make build``'s files on its littlefs; the XoBo image (``make
    firmware``, recognised by its frozen modules) only ``board.json`` (the board under
    check), and is held to the frozen image's targets (``Targets``). ``games``: the names
    to check (default: every game that fits the board); ``session_plies``: the length of each
    game's computer-against-computer session (0: none)."""
    import json
    import shutil

    lines = []
    shown = echo

    def echo(line):
        lines.append(line)
        shown(line)

    from xobo_host.bench import results as benchresults

    started, git = benchresults.load_average(), benchresults.git_state()
    image.check_uf2(uf2)
    image.check_bootrom(bootrom)
    targets = Targets(image.has_frozen_firmware(uf2))
    mode = "frozen" if targets.frozen else "stock"
    board_path = deploy.find_board(board)
    cache = Path(cache_dir) if cache_dir else deploy.ROOT / "build" / "pico-check"
    files_dir = cache / "files" / board_path.stem
    wall0 = time.monotonic()
    files = deploy.build(board_path, files_dir)
    if targets.frozen:  # the image has the firmware: the filesystem only names the board
        files_dir = cache / "files" / (board_path.stem + "-frozen")
        if files_dir.exists():
            shutil.rmtree(files_dir)
        files_dir.mkdir(parents=True)
        shutil.copyfile(board_path, files_dir / "board.json")
        files = ["board.json"]
    fs_img = cache / ("fs-%s-%s.img" % (board_path.stem, mode))
    image.build_fs_image(files_dir, fs_img)
    modules = runner.install(cache)
    echo("pico-check: %s (%s) + %d files of board %s on littlefs (1408 KiB at 0x%x), "
         "rp2040js %s; times are emulated (a lower bound: no XIP cache misses)"
         % (Path(uf2).name, targets.name(), len(files), board_path.stem, image.FS_OFFSET,
            runner.pinned_version()))
    bd = json.loads(board_path.read_text())
    with runner.Harness(modules, uf2, bootrom, fs_img, board_path, flash_writes) as h:
        c = Check(h, bd, echo, targets, games, session_plies)
        c.run()
        saves = [ln for _, ln in h.serial if ln.startswith("event error")]
        if saves:
            echo("note: %s (%s)" % (saves[0], "flash writes are off" if not flash_writes
                                    else "flash writes were emulated"))
        echo("pico-check: emulated %.1f s in %.0f s of wall time; flash %s"
             % (h.t / 1e9, time.monotonic() - wall0, h.flash))
    passed = sum(r.passed for r in c.results)
    echo("pico-check: %d passed, %d failed" % (passed, len(c.results) - passed))
    text = ("# make pico-check, %s, %s, %s\n" % (time.strftime("%Y-%m-%d %H:%M"), Path(uf2).name,
                                                  board_path.stem)
            + "\n".join(lines) + "\n")
    (cache / REPORT_NAME).write_text(text)
    (cache / ("last-report-%s-%s.txt" % (board_path.stem, mode))).write_text(text)
    from xobo_host.device.picocheck import results as results_file

    path = results_file.write(
        c.results, board_path.stem, targets.frozen, uf2, emulated_s=h.t / 1e9,
        wall_s=time.monotonic() - wall0, rp2040js=runner.pinned_version(),
        standard=games is None and session_plies == SESSION_PLIES and flash_writes,
        started=started, git=git, sizes={
            "firmware": image.firmware_bytes(uf2), "files": len(files),
            "files-bytes": sum((files_dir / f).stat().st_size for f in files)})
    shown("pico-check: results in %s" % path)
    return c.results
