#!/usr/bin/env node
// The XoBo board around an emulated Pico: the stock MicroPython firmware (a .uf2) running in
// rp2040js with our littlefs image in flash, the reed-switch matrix, the buttons and the WS2812
// chain wired as the board definition says, and the USB serial port. Driven by
// host_tools/xobo_host/device/picocheck (docs/device-check.md) over JSON lines on stdin/stdout.
//
// node harness.mjs --modules DIR/node_modules --uf2 F.uf2 --bootrom B.bin --fs FS.img \
//                  --board boards/pico_gpio.json [--no-flash-writes]
//
// Requests (one JSON object a line), each answered by one JSON line:
//   {"cmd": "run", "ms": 500, "until": ["ok hint", "error"]}  run that much emulated time, or
//        stop early after a complete serial line starting with one of "until" (then "matched")
//   {"cmd": "send", "line": "version"}       a line to the board's USB serial port ("\n" added)
//   {"cmd": "switch", "cell": 40, "closed": true}   close/open the reed switch under a cell
//   {"cmd": "button", "name": "ok", "pressed": true}
//   {"cmd": "quit"}
// Every answer carries "t" (emulated ns now) and what happened since the previous answer:
//   "serial": [[t, line], ...]      lines from the board (t: when their newline arrived)
//   "frames": [[start, end, bits, hex], ...]   decoded WS2812 frames (wire order: GRB bytes)
//   "row0":   [t, ...]              the times row 0 was driven active (one per matrix scan)
//   "notes":  [text, ...]           what the harness noticed (watchdog fired, ...)
// or "error": "..." for a bad request. The emulated clock only moves during "run".
//
// A board whose matrix.scanner is "shift595" (boards/pico_15x15.json) has its rows on a chain of
// 74HC595s: a rising edge of matrix.shift.clock shifts the data pin's level in, a rising edge of
// matrix.shift.latch puts the register on the rows (ShiftChain in matrix.mjs).
//
// Differences from stock rp2040js 1.4.1 (the timings depend on the first two):
//  1. USB NAK: stock rp2040js answers every OUT transfer the firmware arms with an immediate empty
//     packet when the host has nothing to send, an interrupt storm that takes about half of the
//     emulated CPU. Here the transfer is held until the host has data, as a real host does.
//  2. Idle: with the storm gone, a core in WFE with no clock alarm pending would never advance
//     the clock (nanosToNextAlarm is 0); it then advances 1 ms per step.
//  3. Flash writes (--no-flash-writes to leave them out): rp2040js ignores flash erase/program, so
//     the bootrom's flash_range_erase/flash_range_program entry points are intercepted and done
//     on the emulated flash in one step (no real flash timing).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

import { Matrix, ShiftChain } from './matrix.mjs';
import { Ws2812Decoder } from './ws2812.mjs';

const FLASH_START = 0x10000000;
const FS_OFFSET = 0xa0000; // 2 MiB flash - 1408 KiB storage (MicroPython rp2, RPI_PICO)
const FS_SIZE = 1408 * 1024;

function parseArgs(argv) {
  const o = { flashWrites: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--no-flash-writes') { o.flashWrites = false; continue; }
    const key = { '--modules': 'modules', '--uf2': 'uf2', '--bootrom': 'bootrom', '--fs': 'fs', '--board': 'board' }[a];
    if (!key || i + 1 >= argv.length) fail(`unknown or incomplete option ${a}`);
    o[key] = argv[++i];
  }
  for (const k of ['modules', 'uf2', 'bootrom', 'fs', 'board']) if (!o[k]) fail(`--${k} is required`);
  return o;
}

function fail(msg) {
  process.stderr.write(`error: ${msg}\n`);
  process.exit(2);
}

const gpioNumber = (name) => {
  const m = /^GP(\d+)$/.exec(String(name));
  if (!m) fail(`pin ${JSON.stringify(name)} is not an rp2 pin name like GP5`);
  return Number(m[1]);
};

const opts = parseArgs(process.argv.slice(2));
const require = createRequire(pathToFileURL(resolve(opts.modules) + '/'));
let rp;
try {
  rp = require('rp2040js');
} catch (e) {
  fail(`rp2040js is not installed in ${opts.modules} (${e.message.split('\n')[0]})`);
}
const { Simulator, USBCDC, ConsoleLogger, LogLevel, GPIOPinState } = rp;

const board = JSON.parse(readFileSync(opts.board, 'utf8'));
const sim = new Simulator();
const mcu = sim.rp2040;
const clock = sim.clock;
mcu.logger = new ConsoleLogger(LogLevel.Error);

// bootrom first: loadBootrom() also resets the chip and erases the flash
const rom = readFileSync(opts.bootrom);
mcu.loadBootrom(new Uint32Array(rom.buffer.slice(rom.byteOffset, rom.byteOffset + rom.length)));
const uf2 = readFileSync(opts.uf2);
for (let off = 0; off + 512 <= uf2.length; off += 512) {
  const b = uf2.subarray(off, off + 512);
  if (b.readUInt32LE(8) & 1) continue; // "not main flash"
  const addr = b.readUInt32LE(12), size = b.readUInt32LE(16);
  mcu.flash.set(b.subarray(32, 32 + size), addr - FLASH_START);
}
const fsImage = readFileSync(opts.fs);
if (fsImage.length > FS_SIZE) fail(`filesystem image is ${fsImage.length} bytes, more than ${FS_SIZE}`);
mcu.flash.set(fsImage, FS_OFFSET);

// collected since the last answer
let serial = [], frames = [], row0 = [], notes = [];

// --- the matrix: rows driven one at a time, columns computed (pull-ups included) ---
// "scanner": "shift595" (the 15x15 board): the rows are the outputs of a 74HC595 chain.
const shift595 = board.matrix.scanner === 'shift595' ? board.matrix.shift : null;
const rowPins = shift595 ? [] : board.matrix.rows.map(gpioNumber);
const nRows = shift595 ? shift595.rows : rowPins.length;
const colPins = board.matrix.cols.map(gpioNumber);
const active = board.matrix.row_active ? 1 : 0;
const activeState = active ? GPIOPinState.High : GPIOPinState.Low;
const matrix = new Matrix(nRows, colPins.length, active);
const keyOf = new Array(board.matrix.cell_of_key.length).fill(-1);
board.matrix.cell_of_key.forEach((cell, key) => { keyOf[cell] = key; });
const rowActive = new Array(nRows).fill(false);
const colLevel = new Array(colPins.length).fill(-1);
function driveColumns() {
  const levels = matrix.columnLevels(rowActive);
  for (let c = 0; c < colPins.length; c++) {
    if (levels[c] !== colLevel[c]) {
      colLevel[c] = levels[c];
      mcu.gpio[colPins[c]].setInputValue(levels[c] === 1);
    }
  }
}
rowPins.forEach((pin, r) => {
  mcu.gpio[pin].addListener((state) => {
    const on = state === activeState;
    if (on === rowActive[r]) return;
    rowActive[r] = on;
    if (on && r === 0) row0.push(clock.nanos);
    driveColumns(); // synchronously: the firmware reads the columns a few us later
  });
});
if (shift595) {
  const chain = new ShiftChain(shift595.outputs);
  const [dataPin, clockPin, latchPin] = ['data', 'clock', 'latch'].map((k) => gpioNumber(shift595[k]));
  mcu.gpio[clockPin].addListener((state) => {
    if (state === GPIOPinState.High) chain.clock(mcu.gpio[dataPin].outputValue ? 1 : 0);
  });
  mcu.gpio[latchPin].addListener((state) => {
    if (state !== GPIOPinState.High) return;
    chain.latch();
    let changed = false;
    for (let r = 0; r < nRows; r++) {
      const on = chain.outputs[r] === active;
      if (on === rowActive[r]) continue;
      rowActive[r] = on;
      changed = true;
      if (on && r === 0) row0.push(clock.nanos);
    }
    if (changed) driveColumns();
  });
}
driveColumns();

// --- buttons: pulled up (idle) unless pressed ---
const buttons = {};
for (const [name, b] of Object.entries(board.buttons || {})) {
  const pin = gpioNumber(b.pin);
  const level = b.active ? 1 : 0;
  buttons[name] = { pin, active: level };
  mcu.gpio[pin].setInputValue(level === 0);
}

// --- the WS2812 chain ---
const ledPin = gpioNumber(board.leds.pin);
const decoder = new Ws2812Decoder((f) => {
  frames.push([f.start, f.end, f.bits, Buffer.from(f.bytes).toString('hex')]);
}, { maxBytes: board.leds.count * 3 + 16 });
mcu.gpio[ledPin].addListener((state) => {
  if (state === GPIOPinState.High) decoder.edge(1, clock.nanos);
  else if (state === GPIOPinState.Low) decoder.edge(0, clock.nanos);
});

// --- watchdog: rp2040js only logs; a real Pico would reset, so say so ---
// (rp2040js 1.4.1 keeps it among the peripherals only, at its APB base address)
const watchdog = mcu.peripherals[0x40058];
if (watchdog) watchdog.onWatchdogTrigger = () => notes.push(`watchdog fired at ${clock.nanos} ns (a real Pico resets here)`);

// --- USB serial, with NAK for idle OUT transfers (see the top) ---
const cdc = new USBCDC(mcu.usbCtrl);
const hostTx = [];
let pendingOut = null;
let connected = false;
const stockRead = mcu.usbCtrl.onEndpointRead;
const refill = () => { while (connected && hostTx.length && !cdc.txFIFO.full) cdc.txFIFO.push(hostTx.shift()); };
mcu.usbCtrl.onEndpointRead = (ep, size) => {
  refill();
  if (ep !== 0 && cdc.txFIFO.empty) { pendingOut = [ep, size]; return; }
  stockRead(ep, size);
};
function sendBytes(bytes) {
  for (const b of bytes) hostTx.push(b);
  refill();
  if (pendingOut && !cdc.txFIFO.empty) {
    const [ep, size] = pendingOut;
    pendingOut = null;
    stockRead(ep, size);
  }
}
cdc.onDeviceConnected = () => {
  connected = true;
  notes.push(`usb serial connected at ${clock.nanos} ns`);
  sendBytes([]);
};
let partial = '';
let until = null;
let matched = null;
cdc.onSerialData = (buf) => {
  partial += Buffer.from(buf).toString('latin1');
  let nl;
  while ((nl = partial.indexOf('\n')) >= 0) {
    const line = partial.slice(0, nl).replace(/\r$/, '');
    partial = partial.slice(nl + 1);
    serial.push([clock.nanos, line]);
    if (until && matched === null && until.some((p) => line.startsWith(p))) matched = [clock.nanos, line];
  }
};

// --- flash writes through the bootrom entry points (see the top) ---
function romFunc(code) {
  const words = mcu.bootrom;
  const u16 = (a) => (words[a >> 2] >>> ((a & 2) * 8)) & 0xffff;
  const want = code.charCodeAt(0) | (code.charCodeAt(1) << 8);
  for (let a = u16(0x14); ; a += 4) {
    const c = u16(a);
    if (!c) fail(`the bootrom has no function ${code}: is it an RP2040 bootrom?`);
    if (c === want) return u16(a + 2) & ~1;
  }
}
const ROM_ERASE = opts.flashWrites ? romFunc('RE') : -1; // flash_range_erase(addr, count, ...)
const ROM_PROGRAM = opts.flashWrites ? romFunc('RP') : -1; // flash_range_program(addr, data, count)
const flashOps = { erase: 0, program: 0 };
function romFlash(pc) {
  const r = mcu.core.registers;
  const addr = r[0] & 0xffffff;
  if (pc === ROM_ERASE) {
    mcu.flash.fill(0xff, addr, addr + r[1]);
    flashOps.erase++;
  } else {
    for (let i = 0; i < r[2]; i++) mcu.flash[addr + i] &= mcu.readUint8(r[1] + i); // NOR: clears bits
    flashOps.program++;
  }
  mcu.core.PC = mcu.core.LR & ~1;
}

// --- the run loop: rp2040js Simulator.execute() stepping, with the idle fix ---
mcu.core.PC = FLASH_START; // boot2 at the start of flash, as the rp2040js demo does
function runTo(deadline) {
  const core = mcu.core;
  while (clock.nanos < deadline && matched === null) {
    const cycleNanos = 1e9 / mcu.clkSys;
    for (let i = 0; i < 100_000 && clock.nanos < deadline && matched === null; i++) {
      if (core.waiting) {
        const n = clock.nanosToNextAlarm || 1e6;
        clock.tick(Math.min(n, Math.max(deadline - clock.nanos, cycleNanos)));
      } else {
        const pc = core.PC;
        if (pc === ROM_ERASE || pc === ROM_PROGRAM) romFlash(pc);
        clock.tick(core.executeInstruction() * cycleNanos);
      }
    }
  }
  decoder.flush(clock.nanos);
}

function answer(extra) {
  const msg = { t: clock.nanos, serial, frames, row0, notes, flash: flashOps, ...extra };
  serial = []; frames = []; row0 = []; notes = [];
  process.stdout.write(JSON.stringify(msg) + '\n');
}

function handle(req) {
  switch (req.cmd) {
    case 'run': {
      const ms = Number(req.ms);
      if (!(ms >= 0)) return { error: `run needs ms >= 0, not ${JSON.stringify(req.ms)}` };
      until = Array.isArray(req.until) && req.until.length ? req.until.map(String) : null;
      matched = null;
      const startWall = process.hrtime.bigint();
      runTo(clock.nanos + ms * 1e6);
      const got = matched;
      until = null;
      matched = null;
      return { matched: got, wall_ms: Number(process.hrtime.bigint() - startWall) / 1e6 };
    }
    case 'send':
      if (typeof req.line !== 'string') return { error: 'send needs a "line" string' };
      sendBytes(Buffer.from(req.line + '\n', 'latin1'));
      return {};
    case 'switch': {
      const key = keyOf[req.cell];
      if (key === undefined || key < 0) return { error: `no switch under cell ${JSON.stringify(req.cell)}` };
      matrix.setKey(key, Boolean(req.closed));
      driveColumns();
      return {};
    }
    case 'button': {
      const b = buttons[req.name];
      if (!b) return { error: `no button ${JSON.stringify(req.name)} (have: ${Object.keys(buttons).join(', ')})` };
      mcu.gpio[b.pin].setInputValue(req.pressed ? b.active === 1 : b.active === 0);
      return {};
    }
    case 'quit':
      return { bye: true };
    default:
      return { error: `unknown request ${JSON.stringify(req.cmd)}` };
  }
}

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const text of rl) {
  if (!text.trim()) continue;
  let req;
  try {
    req = JSON.parse(text);
  } catch {
    answer({ error: `not a JSON line: ${text.slice(0, 80)}` });
    continue;
  }
  const out = handle(req);
  answer(out);
  if (out.bye) break;
}
process.exit(0);
