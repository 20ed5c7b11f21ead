/* XoBo board drawing, shared by the simulator's page and the cafe's pages: a board's cells,
 * cubes and LEDs (and its edge LEDs) drawn from a snapshot (cells: the LED colours, counts:
 * the cubes, edges, draw: the game's pieces and marks, state.board / state.area: the board
 * and the game's area on it), into a .frame element holding a .grid and the [data-edge]
 * strips. Several views may live on one page (the cafe's floor draws every table).
 *
 *   const view = XoboBoard.createView(frameEl, { onCell(el, c) {...}, onBuild(lay) {...} });
 *   view.build();              // the empty board, then
 *   view.render(snapshot);
 *   view.cells[c], view.board.w, view.cellName(c), view.parseCell("e5"),
 *   view.gameCell("a1")        // a cell by the game's own name (its board cell, or -1)
 *
 * What a board is, apart from how it is drawn, is shared with the café floor's miniatures
 * (cafe/static/miniature.js, one canvas a table): XoboBoard.layoutOf(snapshot),
 * hexGeometry(layout), drawnHex(led), cellIndex("e5", w, h).
 * Plain JS, no build step. */
"use strict";

window.XoboBoard = (function () {
  const LETTERS = "abcdefghijklmnopqrstuvwxyz";
  const $ = (sel, root) => (root || document).querySelector(sel);

  /* A cell's name ("e5") on a board w cells wide: its index, or -1. */
  function cellIndex(text, w, h) {
    const m = /^([a-z])([1-9][0-9]?)$/.exec(String(text).trim().toLowerCase());
    if (!m) return -1;
    const f = LETTERS.indexOf(m[1]), r = Number(m[2]) - 1;
    return f < w && r < h ? r * w + f : -1;
  }

  /* The board a snapshot describes: its size, the game's area on it, the shape of its
   * cells, and a key that changes when any of them does (the drawing is built again). */
  function layoutOf(s) {
    const st = s.state || {};
    const b = st.board || {};
    const n = (s.counts || []).length || 81;
    const w = b.width || Math.round(Math.sqrt(n)) || 9, h = b.height || Math.round(n / w) || 9;
    const area = (st.area && st.area.cells) || [];
    const shape = (s.draw && s.draw.shape) || "square";
    // where the game's grid sits on the board: its cells are labelled in the game's own
    // notation (the test game's a1-c3 on the board's d4-f6), as the board's words name them
    const ox = (st.area && st.area.x) || 0, oy = (st.area && st.area.y) || 0;
    const gw = (st.area && st.area.width) || w, gh = (st.area && st.area.height) || h;
    return { w, h, area, shape, ox, oy, gw, gh, game: st.game || "",
      key: [w, h, st.game || "", shape, ox, oy, gw, gh, area.join(",")].join("|") };
  }

  /* X's rhombus (XB2, XB3): the cell (q, r) is a pointy-top hexagon whose neighbours are
   * (q +- 1, r), (q, r +- 1), (q + 1, r - 1) and (q - 1, r + 1); rank 1 at the bottom, each
   * rank half a cell further East than the one under it. In hexagon widths: the rhombus is
   * `units` wide and `tall` high; place(f, r) is the top left of the board cell (f, r)'s
   * hexagon (its box: 1 wide, 2 * side high). */
  function hexGeometry(lay) {
    let q0 = Infinity, r0 = Infinity, q1 = -1, r1 = -1;
    for (const name of lay.area) {
      const c = cellIndex(name, lay.w, lay.h);
      if (c < 0) continue;
      const q = c % lay.w, r = Math.floor(c / lay.w);
      q0 = Math.min(q0, q); r0 = Math.min(r0, r); q1 = Math.max(q1, q); r1 = Math.max(r1, r);
    }
    const nq = q1 - q0 + 1, nr = r1 - r0 + 1;
    const units = nq + (nr - 1) / 2;  // the rhombus's width in hexagon widths
    const side = 1 / Math.sqrt(3);    // a side of a hexagon one unit wide
    const tall = 1.5 * side * (nr - 1) + 2 * side;  // its height in units
    return {
      units, tall, side,
      place(f, r) {
        const q = f - q0, rr = r - r0;
        return { q, r: rr, x: q + rr / 2, y: 1.5 * side * (nr - 1 - rr) };
      },
      isFirstFile: (f) => f === q0,
      isFirstRank: (f, r) => r === r0,
    };
  }

  /* An LED is drawn as light, not as paint: a dark colour of the firmware (the low point of
   * a pulse, a deep blue) would vanish on the near-black board, so the page lifts what it
   * draws to at least LED_FLOOR of full brightness, keeping the hue and the pattern's swing
   * (the firmware's colours, dataset.led, are unchanged; dataset.drawn is what is drawn). */
  const LED_FLOOR = 0.6;
  /* An LED's light: what is drawn (drawn), its hue at full brightness (hue) and its level
   * (level: the drawn max channel over 255), hue x level being the drawn colour. */
  function ledLight(hex) {
    const v = parseInt(hex || "0", 16);
    const rgb = [(v >> 16) & 255, (v >> 8) & 255, v & 255];
    const m = Math.max(rgb[0], rgb[1], rgb[2]);
    if (!m) return { drawn: "000000", hue: "000000", level: 0 };
    const top = 255 * (LED_FLOOR + (1 - LED_FLOOR) * (m / 255));  // the drawn max channel
    const scaled = (to) => rgb.map((x) => Math.min(255, Math.round(x * to / m))
      .toString(16).padStart(2, "0")).join("");
    return { drawn: scaled(top), hue: scaled(255), level: Math.round(top) / 255 };
  }
  const drawnHex = (hex) => ledLight(hex).drawn;

  function createView(frame, hooks) {
    hooks = hooks || {};
    const grid = $(".grid", frame);
    /* The board as the state describes it: its size (9 x 9, 15 x 15), the game's area on it
     * and how the game's cells are drawn (squares, or X's rhombus of hexagons). The grid is
     * built again whenever one of them changes (another game, another board). */
    const board = { w: 9, h: 9, key: "", area: new Set(), shape: "square", n: 81,
      gameCells: new Map() };
    let cells = [];
    let shown = { counts: [], leds: [], pieces: [] };

    const cellName = (c) => LETTERS[c % board.w] + (Math.floor(c / board.w) + 1);
    const parseCell = (text) => cellIndex(text, board.w, board.h);
    /* A cell of the game by its own name ("a1" of the test game: the board's d4): its board
     * cell, or -1 when the game has no such cell. */
    const gameCell = (text) => {
      const c = board.gameCells.get(String(text).trim().toLowerCase());
      return c === undefined ? -1 : c;
    };

    function buildGrid(lay) {
      board.w = lay.w; board.h = lay.h; board.n = lay.w * lay.h; board.key = lay.key;
      board.shape = lay.shape;
      board.area = new Set(lay.area.length ? lay.area : null);
      board.ox = lay.ox || 0; board.oy = lay.oy || 0;
      board.gameCells = new Map();  // the game's cell names -> board cells
      const all = !lay.area.length;
      grid.innerHTML = "";
      grid.dataset.shape = lay.shape;
      grid.dataset.game = lay.game;
      grid.dataset.cols = String(lay.w);
      grid.dataset.rows = String(lay.h);
      grid.setAttribute("aria-label", lay.w + " by " + lay.h + " cells, a1 at the bottom left");
      frame.style.setProperty("--cols", String(lay.w));
      frame.style.setProperty("--rows", String(lay.h));
      cells.length = 0;
      shown = { counts: new Array(board.n).fill(-1), leds: new Array(board.n).fill(null),
        pieces: new Array(board.n).fill(null) };
      const hex = lay.shape === "hex" ? hexLayout(lay) : null;
      for (let rank = lay.h; rank >= 1; rank--) {
        for (let f = 0; f < lay.w; f++) {
          const c = (rank - 1) * lay.w + f;
          const el = document.createElement("div");
          const name = cellName(c);
          const inArea = all || board.area.has(name);
          el.className = "cell" + (inArea ? "" : " inactive");
          el.dataset.cell = name;
          el.dataset.count = "0";
          el.dataset.led = "000000";
          el.setAttribute("role", "gridcell");
          el.innerHTML = '<div class="glow"></div><div class="stack"></div><span class="count"></span>';
          if (hex) {
            if (!inArea) { el.hidden = true; el.classList.add("off"); } else hex.place(el, f, rank - 1);
          }
          // the game's own file and rank: its cells are labelled and named (data-game-cell)
          // in its notation, as its words name them (the test game's a1-c3 on the board's
          // d4-f6, X's a1 on the 15 x 15 board's d4)
          const gf = f - board.ox, gr = rank - 1 - board.oy;
          const inGrid = gf >= 0 && gr >= 0 && gf < lay.gw && gr < lay.gh;
          const firstFile = hex ? inArea && hex.isFirstFile(f, rank - 1) : inGrid && gf === 0;
          const firstRank = hex ? inArea && hex.isFirstRank(f, rank - 1) : inGrid && gr === 0;
          if (firstFile) el.insertAdjacentHTML("beforeend", '<span class="lab rank">' + (gr + 1) + "</span>");
          if (firstRank) el.insertAdjacentHTML("beforeend", '<span class="lab file">' + LETTERS[gf] + "</span>");
          if (inArea && inGrid) {
            el.dataset.gameCell = LETTERS[gf] + (gr + 1);
            board.gameCells.set(el.dataset.gameCell, c);
          }
          grid.appendChild(el);
          cells[c] = el;
          if (hooks.onCell) hooks.onCell(el, c);
        }
      }
      for (const edge of frame.querySelectorAll("[data-edge]")) {
        edge.innerHTML = "";
        const k = edge.dataset.edge === "N" || edge.dataset.edge === "S" ? lay.w : lay.h;
        for (let i = 0; i < k; i++) edge.insertAdjacentHTML("beforeend", '<i class="pix"></i>');
      }
      if (hooks.onBuild) hooks.onBuild(lay);
    }

    /* X's rhombus (XB2, XB3), placed by hexGeometry (above): sizes are fractions of the
     * board's width (--board), the hexagon's width being the unit. */
    function hexLayout(lay) {
      const geo = hexGeometry(lay);
      grid.style.setProperty("--hex-units", String(geo.units));
      grid.style.setProperty("--hex-tall", String(geo.tall / geo.units));
      const pct = (x) => "calc(var(--board) * " + (x / geo.units).toFixed(5) + ")";
      return {
        place(el, f, r) {
          const at = geo.place(f, r);
          el.classList.add("hex");
          el.style.left = pct(at.x);
          el.style.top = pct(at.y);
          el.dataset.q = String(at.q);
          el.dataset.r = String(at.r);
        },
        isFirstFile: geo.isFirstFile,
        isFirstRank: geo.isFirstRank,
      };
    }

    function stackHtml(n, kinds, colours) {
      let html = "";
      const shownCubes = Math.min(n, 8);
      for (let i = 0; i < shownCubes; i++) {
        const kind = kinds ? kinds[i] : null;
        const rgb = kind && colours[kind] ? colours[kind].rgb : null;
        html += '<i class="cube' + (kind ? " piece" : "") + '" style="--i:' + i +
          (rgb ? ";--piece:#" + rgb : "") + '"' + (kind ? ' data-kind="' + kind + '"' : "") + "></i>";
      }
      return html;
    }

    /* A cell's light is its hue (--led, at full brightness) and its level (--level, the
     * glow's opacity): a pulse or a fade changes the level only, which the compositor
     * applies to the glow's layer without painting the cell again. Headless Chromium paints
     * in software: a new colour at every step of a pulse (16 a second during a lesson)
     * repainted each lit cell's blurred glow and shadows. */
    function ledStyle(el, hex) {
      const on = !!hex && hex !== "000000";
      const light = ledLight(hex);
      el.dataset.drawn = light.drawn;
      el.classList.toggle("lit", on);  // (unchanged when it already is: no mutation)
      const glow = el.querySelector(".glow");
      if (!glow) {  // an edge's LED: small, painted in its colour
        el.style.setProperty("--led", "#" + light.drawn);
        return;
      }
      if (on) {
        if (el.dataset.hue !== light.hue) {
          el.dataset.hue = light.hue;
          el.style.setProperty("--led", "#" + light.hue);
        }
        glow.style.setProperty("--level", light.level.toFixed(3));
      }
    }

    function render(s) {
      const lay = layoutOf(s);
      if (lay.key !== board.key) buildGrid(lay);
      const counts = s.counts || [];
      const leds = s.cells || [];
      const draw = s.draw || {};
      // "under": the LEDs light around the pieces, under them (Brochs's dark men stay dark)
      if (grid.dataset.glow !== (draw.glow || "")) grid.dataset.glow = draw.glow || "";
      const pieces = draw.pieces || {}, kinds = draw.kinds || {};
      const marks = draw.marks || {}, quadrant = draw.quadrant || {};
      for (let c = 0; c < board.n; c++) {
        const el = cells[c];
        const name = cellName(c);
        const n = counts[c] || 0;
        // the pieces' own colours where the switches see as many pieces as the position has
        const own = pieces[name] && pieces[name].length === n ? pieces[name] : null;
        const ownKey = own ? own.join(",") : "";
        if (shown.counts[c] !== n || shown.pieces[c] !== ownKey) {
          shown.counts[c] = n;
          shown.pieces[c] = ownKey;
          el.dataset.count = String(n);
          const stack = $(".stack", el);
          stack.innerHTML = stackHtml(n, own, kinds);
          stack.dataset.n = String(n);
          stack.style.setProperty("--n", String(Math.max(1, Math.min(n, 8))));
          $(".count", el).textContent = n >= 2 && !own ? String(n) : "";
          el.classList.toggle("occupied", n > 0);
          if (own) el.dataset.pieces = ownKey; else delete el.dataset.pieces;
        }
        const mark = marks[name] || "";
        if ((el.dataset.mark || "") !== mark) {
          if (mark) el.dataset.mark = mark; else delete el.dataset.mark;
        }
        const quad = quadrant[name] !== undefined ? String(quadrant[name]) : "";
        if ((el.dataset.quadrant || "") !== quad) {
          if (quad) el.dataset.quadrant = quad; else delete el.dataset.quadrant;
        }
        const led = (leds[c] || "000000").toLowerCase();
        if (shown.leds[c] !== led) {
          shown.leds[c] = led;
          el.dataset.led = led;
          ledStyle(el, led);
        }
        const piece = s.cubes ? "cube" : "piece";  // XoBo's pieces are cubes
        const title = (el.dataset.gameCell || cellName(c)) + ": " + (n === 0 ? "empty"
          : n === 1 ? "1 " + piece : n + " " + piece + "s");
        if (el.title !== title) el.title = title;  // unchanged: not written (a page of 32 boards)
      }
      const edges = s.edges || {};
      for (const edge of frame.querySelectorAll("[data-edge]")) {
        const hex = (edges[edge.dataset.edge] || "000000").toLowerCase();
        if (edge.dataset.led === hex) continue;
        edge.dataset.led = hex;
        ledStyle(edge, hex);
      }
    }

    const build = () => buildGrid(layoutOf({}));  // the empty 9 x 9 board, before any state
    return { board, cells, cellName, parseCell, gameCell, render, layoutOf, build };
  }

  return { createView, layoutOf, hexGeometry, drawnHex, cellIndex, LETTERS };
})();
