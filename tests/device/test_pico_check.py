"""The device check (docs/device-check.md): the whole check on an emulated Pico when a firmware
is given (XOBO_PICO_UF2, XOBO_PICO_BOOTROM), and the parts that need no firmware: the littlefs
image, the UF2 and bootrom checks, the WS2812 decoder and the matrix model of the harness."""

import json
import os
import shutil
import struct
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xobo.games import part
from xobo_host.cli import main as cli
from xobo_host.device import deploy
from xobo_host.device.picocheck import check, image, runner

TOOL = runner.TOOL_DIR


def need_node():
    if not shutil.which("node"):
        pytest.skip("node is not installed: the harness modules are JavaScript")


def node_eval(script):
    """Run an ES module snippet with the harness's modules imported; returns its JSON output."""
    need_node()
    head = ("import { Ws2812Decoder } from %s;\n"
            "import { Matrix, ShiftChain, keyOfCell } from %s;\n"
            % (json.dumps((TOOL / "ws2812.mjs").as_uri()),
               json.dumps((TOOL / "matrix.mjs").as_uri())))
    proc = subprocess.run(["node", "--input-type=module", "-e", head + script],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


# --- the whole check -------------------------------------------------------------------------

@pytest.mark.slow
def test_pico_check_on_the_emulated_pico(tmp_path):
    uf2 = os.environ.get("XOBO_PICO_UF2")
    bootrom = os.environ.get("XOBO_PICO_BOOTROM")
    if not (uf2 and bootrom and Path(uf2).is_file() and Path(bootrom).is_file()):
        pytest.skip("no Pico firmware given: set XOBO_PICO_UF2=... XOBO_PICO_BOOTROM=... "
                    "(make pico-check UF2=... BOOTROM=...)")
    lines = []
    results = check.run_check(uf2, bootrom, "pico_gpio", echo=lines.append)
    report = "\n".join(lines)
    names = [r.name for r in results]
    assert names[:2] == ["boot", "heap"], report
    assert lines[-1].startswith("pico-check: "), report
    assert all(r.passed for r in results), report


@pytest.mark.slow
def test_15x15_full_scan_on_the_emulated_pico_reads_every_closed_key_within_1_ms():
    # 225 keys through the 74HC595 rows; measured 375-385 us (the 9x9 driver: 217 us), in a
    # 10 ms cycle. Without the viper path the same scan takes 6.2 ms (--interpreted).
    uf2 = os.environ.get("XOBO_PICO_UF2")
    bootrom = os.environ.get("XOBO_PICO_BOOTROM")
    if not (uf2 and bootrom and Path(uf2).is_file() and Path(bootrom).is_file()):
        pytest.skip("no Pico firmware given: set XOBO_PICO_UF2=... XOBO_PICO_BOOTROM=...")
    from xobo_host.device.picocheck import scantime

    cells = [0, 14, 100, 210, 224]
    mean, lo, hi, seen = scantime.measure(uf2, bootrom, "pico_15x15", cells)
    assert seen == cells
    assert hi <= 1000, (mean, lo, hi)


def test_pico_check_without_a_firmware_says_what_it_needs(capsys, monkeypatch):
    monkeypatch.delenv("XOBO_PICO_UF2", raising=False)
    monkeypatch.delenv("XOBO_PICO_BOOTROM", raising=False)
    assert cli.main(["pico-check"]) == 2
    out = capsys.readouterr().out
    assert out.startswith("error: pico-check needs --uf2")
    assert "Traceback" not in out


def test_pico_check_with_a_missing_uf2_is_an_error_line(capsys, tmp_path):
    rom = tmp_path / "bootrom.bin"
    rom.write_bytes(bootrom_bytes())
    assert cli.main(["pico-check", "--uf2", str(tmp_path / "nope.uf2"),
                     "--bootrom", str(rom)]) == 2
    assert "error: firmware file" in capsys.readouterr().out


# --- littlefs image ----------------------------------------------------------------------------

def test_littlefs_image_holds_the_flash_build_at_the_rpi_pico_geometry(tmp_path):
    from littlefs import LittleFS

    files_dir = tmp_path / "files"
    built = deploy.build(deploy.find_board("pico_gpio"), files_dir)
    out = tmp_path / "fs.img"
    written = image.build_fs_image(files_dir, out)
    assert sorted(written) == sorted(built)
    data = out.read_bytes()
    assert len(data) == 1408 * 1024 == image.BLOCK_SIZE * image.BLOCK_COUNT
    fs = LittleFS(mount=False, **image.LFS_CONFIG)
    fs.context.buffer = bytearray(data)
    fs.mount()
    stat = fs.fs_stat()
    assert (stat.block_size, stat.block_count) == (4096, 352)
    assert "main.py" in fs.listdir("/") and "board.json" in fs.listdir("/")
    for rel in built:
        with fs.open(rel, "rb") as f:
            assert f.read() == (files_dir / rel).read_bytes(), rel
    # MicroPython mounts with read 32 / prog 256 (_boot.py): a mismatch would not mount
    assert image.LFS_CONFIG["prog_size"] == 256 and image.LFS_CONFIG["read_size"] == 32


def test_littlefs_image_without_a_build_is_an_error(tmp_path):
    with pytest.raises(image.ImageError, match="no firmware build"):
        image.build_fs_image(tmp_path / "missing", tmp_path / "fs.img")


# --- UF2 and bootrom checks ------------------------------------------------------------------

def uf2_block(addr, data=b"\0" * 256, flags=0x2000, family=image.UF2_FAMILY_RP2040, magic=True):
    head = struct.pack("<8I", 0x0A324655 if magic else 0, 0x9E5D5157, flags, addr, len(data),
                       0, 1, family)
    return head + data.ljust(476, b"\0") + struct.pack("<I", 0x0AB16F30)


def bootrom_bytes():
    return bytes(16) + b"Mu\x01\x02" + bytes(16 * 1024 - 20)


def test_uf2_for_the_rp2040_is_accepted(tmp_path):
    p = tmp_path / "fw.uf2"
    p.write_bytes(uf2_block(0x10000000) + uf2_block(0x10000100))
    assert image.check_uf2(p) == 2


@pytest.mark.parametrize("content, message", [
    (None, "does not exist"),
    (b"", "not a UF2 file: 0 bytes"),
    (b"x" * 700, "not a multiple of 512"),
    (uf2_block(0x10000000, magic=False), "no UF2 magic"),
    (uf2_block(0x10000000, family=0xE48BFF59), "another chip"),
    (uf2_block(0x20000000), "outside the Pico's 2 MiB flash"),
    (uf2_block(0x100A0000), "into the filesystem"),
    (uf2_block(0x10000000, flags=0x2001), "no blocks for the main flash"),
])
def test_uf2_errors_name_the_problem(tmp_path, content, message):
    p = tmp_path / "fw.uf2"
    if content is not None:
        p.write_bytes(content)
    with pytest.raises(image.ImageError, match=message):
        image.check_uf2(p)


@pytest.mark.parametrize("content, message", [
    (None, "does not exist"),
    (b"\0" * 4096, "4096 bytes: an RP2040 bootrom is a raw 16384-byte file"),
    (b"\0" * 16384, "not an RP2040 bootrom"),
])
def test_bootrom_errors_name_the_problem(tmp_path, content, message):
    p = tmp_path / "bootrom.bin"
    if content is not None:
        p.write_bytes(content)
    with pytest.raises(image.ImageError, match=message):
        image.check_bootrom(p)


def test_bootrom_with_the_rp2040_magic_is_accepted(tmp_path):
    p = tmp_path / "bootrom.bin"
    p.write_bytes(bootrom_bytes())
    image.check_bootrom(p)


# --- WS2812 decoder (harness) ----------------------------------------------------------------

TRAIN = """
const frames = [];
const d = new Ws2812Decoder((f) => frames.push({start: f.start, end: f.end, bits: f.bits,
                                                 bytes: Array.from(f.bytes)}));
let t = 1000;
function send(bytes, high0, high1, period) {
  for (const b of bytes) for (let k = 7; k >= 0; k--) {
    const one = (b >> k) & 1;
    d.edge(1, t); d.edge(0, t + (one ? high1 : high0)); t += period;
  }
}
"""


def test_ws2812_decoder_reads_bitstream_pulses_into_frames():
    # MicroPython's bitstream timings (0: 368 ns high, 1: 800 ns, 1232 ns a bit), two frames
    # 60 us apart (more than the 50 us reset), the second one flushed at the end
    out = node_eval(TRAIN + """
send([0x0f, 0xa5, 0x81, 0x12, 0x34, 0x56], 368, 800, 1232);
const second = t + 60000; t = second;
send([0xff, 0x00, 0x7e], 368, 800, 1232);
d.flush(t + 10000);        // not yet: the gap is still shorter than 50 us
const before = frames.length;
d.flush(t + 60000);
console.log(JSON.stringify({frames, before, second}));
""")
    f1, f2 = out["frames"]
    assert f1["bytes"] == [0x0F, 0xA5, 0x81, 0x12, 0x34, 0x56] and f1["bits"] == 48
    # from the first rising edge to the last falling one (the last bit of 0x56 is a 0)
    assert f1["start"] == 1000 and f1["end"] == 1000 + 47 * 1232 + 368
    assert f2["bytes"] == [0xFF, 0x00, 0x7E] and f2["start"] == out["second"]
    assert out["before"] == 1


def test_ws2812_decoder_reads_pio_timings_and_keeps_a_cut_frame():
    # the PIO driver's timings (250 / 875 ns, 1250 ns a bit)
    out = node_eval(TRAIN + """
send([0xa5, 0x3c], 250, 875, 1250);
t += 80000;
send([0xf0], 250, 875, 1250); send([0x30], 250, 875, 1250);
d.flush(t + 100000);
console.log(JSON.stringify({frames}));
""")
    assert [f["bytes"] for f in out["frames"]] == [[0xA5, 0x3C], [0xF0, 0x30]]


@settings(max_examples=10, deadline=None)
@given(st.lists(st.binary(min_size=3, max_size=30), min_size=1, max_size=4))
def test_ws2812_decoder_roundtrips_any_frames(payloads):
    script = TRAIN + "const payloads = %s;\n" % json.dumps([list(p) for p in payloads]) + """
for (const p of payloads) { send(p, 368, 800, 1232); t += 55000; }
d.flush(t + 60000);
console.log(JSON.stringify(frames.map((f) => f.bytes)));
"""
    assert node_eval(script) == [list(p) for p in payloads]


# --- matrix model (harness) ------------------------------------------------------------------

def test_matrix_closed_switch_pulls_its_column_low_only_on_its_driven_row():
    out = node_eval("""
const m = new Matrix(9, 9, 0);
m.setKey(4 * 9 + 3, true);            // row 4, column 3
const drive = (r) => Array.from({length: 9}, (_, k) => k === r);
console.log(JSON.stringify({row4: m.columnLevels(drive(4)), row5: m.columnLevels(drive(5)),
                            none: m.columnLevels(drive(-1))}));
""")
    assert out["row4"] == [1, 1, 1, 0, 1, 1, 1, 1, 1]
    assert out["row5"] == [1] * 9 and out["none"] == [1] * 9  # pull-ups: idle columns read 1


def test_matrix_diodes_stop_ghosting():
    # three closed corners of a rectangle: (0,0) (0,1) (1,0). Without diodes, driving row 1
    # would pull column 1 low through (1,0) -> column 0 -> (0,0) -> row 0 -> (0,1)
    out = node_eval("""
const m = new Matrix(9, 9, 0);
for (const k of [0, 1, 9]) m.setKey(k, true);
const drive = (r) => Array.from({length: 9}, (_, k) => k === r);
console.log(JSON.stringify([m.columnLevels(drive(0)), m.columnLevels(drive(1))]));
""")
    assert out[0][:3] == [0, 0, 1]
    assert out[1][:3] == [0, 1, 1]


def test_matrix_key_of_cell_inverts_cell_of_key():
    board = json.loads(deploy.find_board("pico_gpio").read_text())
    cok = board["matrix"]["cell_of_key"]
    out = node_eval("console.log(JSON.stringify(keyOfCell(%s)));" % json.dumps(cok))
    assert all(cok[out[cell]] == cell for cell in range(81))


def test_matrix_rejects_a_key_outside_it():
    out = node_eval("""
const m = new Matrix(9, 9, 0);
let msg = '';
try { m.setKey(81, true); } catch (e) { msg = e.message; }
console.log(JSON.stringify(msg));
""")
    assert out == "key 81 is outside the 9x9 matrix"


def test_shift_chain_walks_the_clocked_bit_down_the_outputs_at_each_latch():
    # the 15x15 board's rows: a 0 clocked in, then 1s, latched after each clock
    out = node_eval("""
const c = new ShiftChain(16);
for (let k = 0; k < 16; k++) c.clock(1);
c.latch();
const seen = [Array.from(c.outputs)];
c.clock(0); c.latch(); seen.push(Array.from(c.outputs));
c.clock(1); seen.push(Array.from(c.outputs)); c.latch(); seen.push(Array.from(c.outputs));
console.log(JSON.stringify(seen));
""")
    assert out[0] == [1] * 16
    assert out[1] == [0] + [1] * 15
    assert out[2] == out[1]  # the outputs wait for the latch
    assert out[3] == [1, 0] + [1] * 14


# --- report helpers ----------------------------------------------------------------------------

def test_leds_reply_maps_to_the_chain_and_matches_a_scaled_grb_frame():
    board = json.loads(deploy.find_board("pico_gpio").read_text())
    colours = ["000000"] * 85
    colours[40] = "ff8000"          # e5
    colours[81 + 2] = "0000c8"      # the E edge
    want = check.expected_chain("ok leds " + " ".join(colours), board)
    chain_e5 = board["leds"]["cells"][40]
    assert want[chain_e5] == (255, 128, 0)
    assert all(want[i] == (0, 0, 200) for i in board["leds"]["edges"]["E"])
    wire = bytearray(117 * 3)
    for i, (r, g, b) in enumerate(want):  # GRB on the wire, at brightness 128/256
        wire[3 * i:3 * i + 3] = bytes(((g * 128) >> 8, (r * 128) >> 8, (b * 128) >> 8))
    got = check.decode_frame(bytes(wire), "GRB")
    assert abs(check.match_scale(got, want) - 128) <= 1  # within one step of rounding
    assert check.match_scale(check.decode_frame(bytes(wire), "RGB"), want) is None


def test_report_parsers():
    assert check.parse_timing("ok timing scan=3/1270/1616 light=2/3081/5805 write=1/40/41") == {
        "scan": (3, 1270, 1616), "light": (2, 3081, 5805), "write": (1, 40, 41)}
    assert check.parse_mem("ok mem free=115168 alloc=130720") == 115168


@pytest.mark.parametrize("board, cell", [("pico_gpio", "e5"), ("pico_15x15", "h8")])
def test_the_board_s_own_items_are_played_in_the_game_it_starts_with(board, cell):
    # the first game (XoBo) from its host module: a cube put on e5 (h8 of the 15x15), the
    # hint sweep over its AI bench's positions, its middle-game position with a stack of 3
    from xobo import games
    from xobo.games.xobo.ai.bench import POSITIONS

    c = check.Check(_NoHarness(), _board(board), print)
    assert c.boot.name == games.GAMES[0] == "xobo"
    b, m, text = c.first_move()
    assert (c.boot.topo.cell_name(b), text) == (cell, "e5")
    assert [p.to_string() for p in c.sweep_positions()] == list(POSITIONS)
    mid = c.middle_position()
    assert mid.heights[5 * 9 + 4] == 3  # e6
    assert c.boot.topo.cell_name(c.boot.free_cell(mid)) == cell


def test_a_boot_game_without_an_ai_bench_sweeps_its_computer_s_game(monkeypatch):
    from xobo import hostkit

    c = check.Check(_NoHarness(), _board("pico_gpio"), print)
    c.boot = check.GameRound(c, "tiny")
    monkeypatch.setattr(hostkit.of("tiny"), "AI_BENCH", None)
    plies = [p.ply for p in c.sweep_positions()]
    assert plies[0] == 0 and plies == sorted(set(plies)) and len(plies) >= 2
    assert c.middle_position().ply > 0
    b, m, text = c.first_move()
    assert c.boot.start.move_text(m) == text and b in c.boot.place.board_cells()


# --- every game: the host's side of the check (the positions, the hands) ------------------------

class _NoHarness:
    """Enough of runner.Harness for the host-side parts of a game round."""

    def __init__(self):
        self.t = 0
        self.closed = set()
        self.actions = []

    def switch(self, cell, closed):
        (self.closed.add if closed else self.closed.discard)(cell)
        self.actions.append((cell, bool(closed)))
        return self.t

    def run(self, ms, until=None):
        return None, None


def _board(name):
    return json.loads((deploy.BOARDS_DIR / (name + ".json")).read_text())


def test_every_game_that_fits_the_board_is_checked_xobo_last():
    small = check.Check(_NoHarness(), _board("pico_gpio"), print, check.Targets(True))
    large = check.Check(_NoHarness(), _board("pico_15x15"), print, check.Targets(True))
    assert small.game_order() == ["x", "chain-reaction", "tiny", "xobo"]
    assert large.game_order() == ["x", "chain-reaction", "brochs", "tiny", "xobo"]
    chosen = check.Check(_NoHarness(), _board("pico_gpio"), print, games=["tiny", "brochs"])
    assert chosen.game_order() == ["tiny"]  # Brochs does not fit the 9x9 board


def test_targets_are_the_image_s_or_the_stock_firmware_s():
    frozen, stock = check.Targets(True), check.Targets(False)
    assert (frozen.heap, frozen.heap_ai, frozen.computer_ms, frozen.hint_ms) == (
        150_000, 150_000, 1500, 1500)
    assert (frozen.switch_ms, frozen.boot_ms, frozen.switch_ai_ms) == (200, 1000, 50)
    assert (stock.heap, stock.heap_ai, stock.computer_ms, stock.hint_ms) == (
        None, 60_000, 2000, None)
    assert check.meets(5, None) and not check.meets(None, None)
    assert check.target_text(None) == "runs, no error"
    assert check.target_text(150_000, "B", True) == ">= 150,000 B"


@pytest.mark.parametrize("board", ["pico_gpio", "pico_15x15"])
def test_each_game_s_middle_position_loads_and_its_moves_are_carried_out_on_the_switches(board):
    c = check.Check(_NoHarness(), _board(board), print)
    for name in c.game_order():
        r = check.GameRound(c, name)
        mid = r.middle_game()
        assert 0 < mid.ply <= check.MID_PLIES and not mid.is_terminal(), name
        again = r.game.parse_position(mid.to_string(), r.settings)
        assert again.to_string() == mid.to_string(), name
        cells = r.occupied(mid)
        assert cells <= set(r.place.board_cells()), name
        assert r.free_cell(mid) not in cells
        # the hands of a move leave the switches as the position after it
        r.set_cells(cells)
        buf = part(r.game, "engine").new_move_buffer()
        m = buf[0] if mid.legal_moves(buf) else None
        r.play_by_hand(mid, m)
        after = mid.clone()
        after.apply(m)
        assert c.h.closed == r.occupied(after), name


def test_uf2_firmware_bytes_count_the_main_flash_blocks_payloads(tmp_path):
    p = tmp_path / "fw.uf2"
    p.write_bytes(uf2_block(0x10000000) + uf2_block(0x10000100)
                  + uf2_block(0x10000000, flags=0x2001))
    assert image.firmware_bytes(p) == 2 * 256


def test_the_checks_results_file_has_each_items_figures(tmp_path):
    import json

    from xobo_host.device.picocheck import results

    items = [check.Result("boot", "first reply after 302 ms", "<= 1,000 ms", True,
                          [("ms", 302, "ms", "reset to the first reply")]),
             check.Result("leds-move", "frame ...", "decoded == leds", True),
             check.Result("x session", "40 plies ...", "...", False,
                          [("worst-move", 468, "ms", "the session's slowest computer's move")])]
    path = results.write(items, "pico_gpio", True, "xobo-pico_gpio.uf2", emulated_s=12.34,
                         wall_s=99, rp2040js="1.4.1", sizes={"firmware": 590080, "files": 1,
                                                             "files-bytes": 2000},
                         folder=tmp_path)
    data = json.loads(path.read_text())
    assert data["bench"] == "pico-check-pico_gpio-image" and data["standard"]
    figs = data["figures"]
    assert figs["boot.ms"] == {"value": 302, "unit": "ms", "what": "reset to the first reply"}
    assert figs["x.session.worst-move"]["what"] == ("x's round: the session's slowest "
                                                   "computer's move")
    assert figs["passed"]["value"] == 2 and figs["failed"]["value"] == 1
    assert figs["emulated"]["value"] == 12.3 and figs["flash.firmware"]["value"] == 590080
    assert data["machine"]["emulator"] == "rp2040js 1.4.1"
    assert any("x session" in note for note in data["notes"])  # the missed targets named
    assert not results.write(items, "pico_gpio", False, "RPI_PICO.uf2", 1, 1, "1.4.1",
                             standard=False, folder=tmp_path).name == "latest.json"
    assert not (tmp_path / "pico-check-pico_gpio-stock" / "latest.json").exists()
