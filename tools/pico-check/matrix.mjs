// The board's switch matrix as the pins see it: one diode + reed switch per key.
//
// Rows are outputs driven to their active level one at a time; columns are inputs pulled to the
// idle level. A closed switch at (row, col) pulls the column to the active level only while its
// row is driven active: the diode stops current from flowing back into another row, so three
// closed switches on the corners of a rectangle never make a fourth one appear (no ghosting).
// rp2040js models no pull resistors, so the harness drives every column to the level computed
// here (the pull-up included) each time a row pin changes.
//
// Usage:
//   const m = new Matrix(9, 9, 0);        // 9 rows, 9 columns, rows active low
//   m.setKey(4 * 9 + 4, true);            // close the switch of key 40
//   m.columnLevels([false, ..., true, ...]) // -> [1, 1, 1, 1, 0, 1, 1, 1, 1] when row 4 is driven

export class Matrix {
  constructor(nrows, ncols, activeLevel = 0) {
    this.nrows = nrows;
    this.ncols = ncols;
    this.active = activeLevel ? 1 : 0;
    this.closed = new Uint8Array(nrows * ncols); // by key = row * ncols + col
  }

  setKey(key, closed) {
    if (!(key >= 0 && key < this.closed.length)) {
      throw new Error(`key ${key} is outside the ${this.nrows}x${this.ncols} matrix`);
    }
    this.closed[key] = closed ? 1 : 0;
  }

  // drivenActive[r] is true while row r is an output at the active level; returns the level
  // (0/1) of each column.
  columnLevels(drivenActive) {
    const idle = 1 - this.active;
    const levels = new Array(this.ncols).fill(idle);
    for (let r = 0; r < this.nrows; r++) {
      if (!drivenActive[r]) continue;
      const base = r * this.ncols;
      for (let c = 0; c < this.ncols; c++) {
        if (this.closed[base + c]) levels[c] = this.active;
      }
    }
    return levels;
  }
}

// cell_of_key (board definition) inverted: keyOfCell[cell] = key.
export function keyOfCell(cellOfKey) {
  const out = new Array(cellOfKey.length).fill(-1);
  cellOfKey.forEach((cell, key) => { out[cell] = key; });
  return out;
}

// A chain of 74HC595 shift registers (the 15x15 board's rows): clock(level) on a rising SRCLK
// shifts level into output 0 and every bit one output on; latch() on a rising RCLK copies the
// register to the outputs. Power-up: all outputs low (a real chip holds anything; the firmware
// clears it before the first scan).
export class ShiftChain {
  constructor(outputs) {
    this.register = new Uint8Array(outputs);
    this.outputs = new Uint8Array(outputs);
  }

  clock(level) {
    this.register.copyWithin(1, 0, this.register.length - 1);
    this.register[0] = level ? 1 : 0;
  }

  latch() {
    this.outputs.set(this.register);
  }
}
