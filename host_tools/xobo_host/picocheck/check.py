"""The device check's scenario and report: boot, heap, cycle times, a move by hand, the LEDs,
the AI, all in emulated time on an emulated Pico (docs/device-check.md).

Usage::

    from xobo_host.picocheck import check
    results = check.run_check("RPI_PICO.uf2", "bootrom.bin", board="pico_gpio", echo=print)
    # -> [Result(name, figure, target, passed)], the report already echoed line by line
"""

import re
import time
from pathlib import Path

from xobo_host import deploy
from xobo_host.picocheck import image, runner

HEAP_MIN = 100_000  # bytes free after boot and after the computer's move
CYCLE_MAX_US = 10_000  # scan mean + light mean: the scan runs every 10 ms
WRITE_MAX_US = 10_000  # LED write mean while the frames change
PERIOD_RANGE_MS = (9.5, 12.5)  # the scan task sleeps 10 ms after each scan (+ the scan itself)
SETTLE_MS = 1000  # the default settle time (docs/protocol.md)
SETTLE_SLACK_MS = 300  # debounce (20 ms) and the 10 ms scan period on top of it
AI_MAX_MS = 2000
SWITCH_MAX_MS = 50
# a middle-game position (ply 20, a stack of 3 on e6), NS to move, reached by the hint engine
MIDGAME = ("...1...../...1...../....1..../....3..../.....1.../...1...../.......1./"
           "......111/11..11111 ns 17 0 0")
FILES = "abcdefghi"
BOOT_FAILURES = ("MemoryError", "out of memory", "Traceback", "xobo: ")


class Result:
    def __init__(self, name, figure, target, passed):
        self.name = name
        self.figure = figure
        self.target = target
        self.passed = bool(passed)

    def line(self):
        return "%-10s %-62s target %-24s %s" % (self.name, self.figure, self.target,
                                                 "PASS" if self.passed else "FAIL")


def cell_name(cell):
    return "%s%d" % (FILES[cell % 9], cell // 9 + 1)


def cell_index(name):
    return (int(name[1:]) - 1) * 9 + FILES.index(name[0])


def n3_occupied(n3):
    """The cells (indices) holding cubes in an N3 position (ranks 9 to 1, files a to i)."""
    ranks = n3.split()[0].split("/")
    cells = []
    for i, row in enumerate(ranks):
        rank = 9 - i
        for f, ch in enumerate(row):
            if ch != ".":
                cells.append((rank - 1) * 9 + f)
    return sorted(cells)


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
    def __init__(self, harness, board, echo):
        self.h = harness
        self.board = board
        # XoBo's 9 x 9 sits in the middle of a larger board (the runtime's placement,
        # xobo.runtime.topology): its cell c is the board's cell self.at(c)
        cols = len(board["matrix"]["cols"])
        rows = len(board["leds"]["cells"]) // cols
        self._ox = (cols - 9) // 2
        self._oy = (rows - 9) // 2
        self._cols = cols
        self.echo = echo
        self.results = []


    def at(self, cell):
        """The board cell of XoBo's cell ``cell`` (the same on the 9 x 9 board)."""
        return (cell // 9 + self._oy) * self._cols + cell % 9 + self._ox
    def add(self, name, figure, target, passed):
        r = Result(name, figure, target, passed)
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
                 "boots, no MemoryError", booted)
        if not booted:
            return self.results
        _, _, line = self.ask("mem", "ok mem")
        free = parse_mem(line)
        self.add("heap", "mem after boot: %s bytes free" % free, ">= %d" % HEAP_MIN,
                 free is not None and free >= HEAP_MIN)
        self.ask("follow on", "ok follow")
        self.idle_cycle()
        self.hint("hint", "start position")
        self.move_by_hand()
        self.changing_frames()
        self.hint_sweep()
        self.midgame()
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
                     "scan+light <= %d us" % CYCLE_MAX_US, total <= CYCLE_MAX_US)
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
                     lo <= med <= hi)
        else:
            self.add("period", "row 0 was never driven", "about 10 ms", False)

    def hint(self, name, where):
        t0, t, line = self.ask("hint", "ok hint", 20000)
        if line and line.startswith("ok hint"):
            ms = (t - t0) / 1e6
            self.add(name, "%s: %s after %.0f ms" % (where, line, ms), "<= %d ms" % AI_MAX_MS,
                     ms <= AI_MAX_MS)
        else:
            self.add(name, "%s: no hint (%s)" % (where, line), "<= %d ms" % AI_MAX_MS, False)
        self.h.run(200)

    def move_by_hand(self):
        h = self.h
        e5 = self.at(cell_index("e5"))
        t0 = h.switch(e5, True)
        t, line = h.run(5000, until=["event move"])
        ms = (t - t0) / 1e6 if t else None
        ok = line == "event move e5" and SETTLE_MS <= ms <= SETTLE_MS + SETTLE_SLACK_MS
        self.add("move", ("cube on e5: %r after %.0f ms" % (line, ms)) if t else
                 "cube on e5: no event move in 5 s", "event move e5 at %d-%d ms"
                 % (SETTLE_MS, SETTLE_MS + SETTLE_SLACK_MS), ok)
        _, t, line = self.ask("leds", "ok leds")
        chain_e5 = self.board["leds"]["cells"][e5]
        side = [i for s in ("E", "W") for i in self.board["leds"]["edges"][s][:1]]
        if line and line.startswith("ok leds"):
            self.frame_check("leds-move", t, line, must_light=[chain_e5] + side)
        else:
            self.add("leds-move", "no leds reply (%r)" % line, "decoded == leds", False)

    def changing_frames(self):
        h = self.h
        e5 = self.at(cell_index("e5"))
        self.ask("timing", "ok timing")
        n0 = len(h.frames)
        h.switch(e5, False)  # the committed cube taken off: the board blinks e5 to restore it
        h.run(2500)
        _, t, line = self.ask("timing", "ok timing")
        frames = h.frames[n0:]
        distinct = len({f[3] for f in frames})
        write = parse_timing(line).get("write")
        if write:
            self.add("write", "LEDs changing: write mean %d max %d us (%d writes, %d distinct "
                     "frames decoded)" % (write[1], write[2], write[0], distinct),
                     "mean <= %d us" % WRITE_MAX_US, write[1] <= WRITE_MAX_US and distinct > 1)
        else:
            self.add("write", "no timing reply (%r)" % line, "mean <= %d us" % WRITE_MAX_US,
                     False)
        _, t, line = self.ask("leds", "ok leds")
        if line and line.startswith("ok leds"):
            self.frame_check("leds-fix", t, line)
        h.switch(e5, True)
        h.run(3000, until=["event match"])

    def hint_sweep(self):
        """A hint from each position of the AI bench (a game at plies 0-40): the worst time,
        and whether the device chose what the desktop's node-bounded search chooses (the
        board bounds its search in time too: a time-cut search could choose otherwise)."""
        from xobo.games.xobo.ai import choose_move
        from xobo.games.xobo.ai.bench import POSITIONS
        from xobo.games.xobo.rules.notation import format_move
        from xobo.games.xobo.rules.position import Position

        h = self.h
        times = []
        same = 0
        for n3 in POSITIONS:
            _, _, line = self.ask("load " + n3, "ok load")
            want = set(n3_occupied(n3))
            for cell in range(81):
                h.switch(self.at(cell), cell in want)
            h.run(3000, until=["event match"])
            t0, t, line = self.ask("hint", "ok hint", 20000)
            if not (line and line.startswith("ok hint ")):
                times.append(None)
                continue
            times.append((t - t0) / 1e6)
            desktop = format_move(choose_move(Position.parse(n3), level="pico", seed=0))
            same += line.split()[2] == desktop
            h.run(200)
        done = [x for x in times if x is not None]
        worst = max(done) if done else None
        self.add("hint-sweep", "%d positions: %s ms, worst %s; the desktop's move in %d of %d"
                 % (len(POSITIONS), "/".join("%.0f" % x if x is not None else "-"
                                             for x in times),
                    "%.0f ms" % worst if worst is not None else "-", same, len(POSITIONS)),
                 "<= %d ms, the same moves" % AI_MAX_MS,
                 len(done) == len(POSITIONS) and worst <= AI_MAX_MS and same == len(POSITIONS))

    def midgame(self):
        h = self.h
        _, _, line = self.ask("load " + MIDGAME, "ok load")
        if not (line and line.startswith("ok load")):
            self.add("load", "the middle-game position was refused: %s" % line, "ok load",
                     False)
            return
        want = set(n3_occupied(MIDGAME))
        for cell in range(81):
            h.switch(self.at(cell), cell in want)
        t, line = h.run(5000, until=["event match"])
        if line is None:
            self.echo("note: the cubes of the middle-game position never matched (%s)"
                      % "; ".join(ln for _, ln in h.serial[-3:]))
        self.hint("hint-mid", "ply 20, e6=3")
        side = MIDGAME.split()[1]
        empty = self.at(cell_index("e5"))
        t0 = h.send("set opponent %s" % side)
        h.run(50)
        t_sw = h.switch(empty, True)
        # (switch events name the board's cell: XoBo's e5 is h8 on the 15 x 15 board)
        on = "event switch %s%d on" % ("abcdefghijklmno"[empty % self._cols],
                                        empty // self._cols + 1)
        t_on, _ = h.run(5000, until=[on])
        t_exp, line = self.event_since("event expect computer", t0)
        if t_exp is None:
            t_exp, line = h.run(20000, until=["event expect computer"])
        if t_exp is not None:
            ms = (t_exp - t0) / 1e6
            self.add("computer", "%s after %.0f ms" % (line, ms), "<= %d ms" % AI_MAX_MS,
                     ms <= AI_MAX_MS)
        else:
            self.add("computer", "no event expect computer in 20 s", "<= %d ms" % AI_MAX_MS,
                     False)
        if t_on is None:
            self.add("switch-ai", "no event switch e5 on within 5 s", "<= %d ms"
                     % SWITCH_MAX_MS, False)
        else:
            ms = (t_on - t_sw) / 1e6
            during = t_exp is None or t_exp > t_sw
            self.add("switch-ai", "event switch e5 on %.0f ms after closing it%s"
                     % (ms, " (during the search)" if during else
                        " (the search had already ended)"),
                     "<= %d ms" % SWITCH_MAX_MS, ms <= SWITCH_MAX_MS and during)
        h.switch(empty, False)
        h.run(300)
        _, _, line = self.ask("mem", "ok mem")
        free = parse_mem(line)
        self.add("heap-ai", "mem after the computer's move: %s bytes free" % free,
                 ">= %d" % HEAP_MIN, free is not None and free >= HEAP_MIN)


REPORT_NAME = "last-report.txt"


def run_check(uf2, bootrom, board="pico_gpio", cache_dir=None, flash_writes=True, echo=print):
    """Build, boot and check; returns the results (the report is echoed as it goes, and kept
    in ``build/pico-check/last-report.txt`` for ``make bench``)."""
    import json

    lines = []
    shown = echo

    def echo(line):
        lines.append(line)
        shown(line)

    image.check_uf2(uf2)
    image.check_bootrom(bootrom)
    board_path = deploy.find_board(board)
    cache = Path(cache_dir) if cache_dir else deploy.ROOT / "build" / "pico-check"
    files_dir = cache / "files" / board_path.stem
    wall0 = time.monotonic()
    files = deploy.build(board_path, files_dir)
    fs_img = cache / ("fs-%s.img" % board_path.stem)
    image.build_fs_image(files_dir, fs_img)
    modules = runner.install(cache)
    echo("pico-check: %s + %d files of board %s on littlefs (1408 KiB at 0x%x), rp2040js %s; "
         "times are emulated (a lower bound: no XIP cache misses)"
         % (Path(uf2).name, len(files), board_path.stem, image.FS_OFFSET,
            runner.pinned_version()))
    bd = json.loads(board_path.read_text())
    with runner.Harness(modules, uf2, bootrom, fs_img, board_path, flash_writes) as h:
        c = Check(h, bd, echo)
        c.run()
        saves = [ln for _, ln in h.serial if ln.startswith("event error")]
        if saves:
            echo("note: %s (%s)" % (saves[0], "flash writes are off" if not flash_writes
                                    else "flash writes were emulated"))
        echo("pico-check: emulated %.1f s in %.0f s of wall time; flash %s"
             % (h.t / 1e9, time.monotonic() - wall0, h.flash))
    passed = sum(r.passed for r in c.results)
    echo("pico-check: %d passed, %d failed" % (passed, len(c.results) - passed))
    (cache / REPORT_NAME).write_text(
        "# make pico-check, %s, %s\n" % (time.strftime("%Y-%m-%d %H:%M"), Path(uf2).name)
        + "\n".join(lines) + "\n")
    return c.results
