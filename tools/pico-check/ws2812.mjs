// WS2812 data pin -> frames, from the times of its edges.
//
// Each bit is a high pulse: about 0.4 us for a 0 (T0H) and 0.8 us for a 1 (T1H), so a pulse
// longer than `thresholdNs` (0.6 us) is a 1. Bits go MSB first, 24 per LED in the chain's
// colour order (GRB on the board). A low gap longer than `resetNs` (50 us: the WS2812 reset
// time) ends a frame; `flush(now)` ends the last one once the gap has passed.
//
// Usage:
//   const d = new Ws2812Decoder((frame) => console.log(frame.start, frame.bytes));
//   d.edge(1, t0); d.edge(0, t0 + 800); ...   // level, emulated ns
//   d.flush(now);
// A frame is {start, end, bits, bytes: Uint8Array}: start/end are the times of the first rising
// and the last falling edge; bits may not be a multiple of 8 when the stream was cut.

export const T_THRESHOLD_NS = 600;
export const T_RESET_NS = 50_000;

export class Ws2812Decoder {
  constructor(onFrame, { thresholdNs = T_THRESHOLD_NS, resetNs = T_RESET_NS, maxBytes = 1024 } = {}) {
    this.onFrame = onFrame;
    this.thresholdNs = thresholdNs;
    this.resetNs = resetNs;
    this.buf = new Uint8Array(maxBytes);
    this.bits = 0;
    this.level = 0;
    this.riseAt = -1;
    this.fallAt = -Infinity;
    this.start = 0;
  }

  edge(level, nanos) {
    level = level ? 1 : 0;
    if (level === this.level) return;
    this.level = level;
    if (level === 1) {
      if (this.bits > 0 && nanos - this.fallAt > this.resetNs) this.emit();
      if (this.bits === 0) this.start = nanos;
      this.riseAt = nanos;
      return;
    }
    if (this.riseAt < 0) return; // a fall without a rise: the pin's first setting
    const bit = nanos - this.riseAt > this.thresholdNs ? 1 : 0;
    this.fallAt = nanos;
    this.riseAt = -1;
    if (this.bits >= this.buf.length * 8) return; // longer than any chain: ignore the rest
    if (bit) this.buf[this.bits >> 3] |= 0x80 >> (this.bits & 7);
    this.bits++;
  }

  flush(nanos) {
    if (this.bits > 0 && this.level === 0 && nanos - this.fallAt > this.resetNs) this.emit();
  }

  emit() {
    const n = (this.bits + 7) >> 3;
    const frame = { start: this.start, end: this.fallAt, bits: this.bits, bytes: this.buf.slice(0, n) };
    this.buf.fill(0, 0, n);
    this.bits = 0;
    this.onFrame(frame);
  }
}
