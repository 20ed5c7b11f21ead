/* The café floor's miniature boards: each table's board drawn on one <canvas>, as the board
 * lights it: every cell's LED (cells), its cubes or the game's own pieces (counts, draw),
 * the game's marks (its host module's drawing: goals, donjons, quadrants), the edge LEDs,
 * and a game's hexagons. What a board is (its size, the game's area, the hexagons'
 * places, how bright an LED is drawn) is the simulator's (board.js: XoboBoard.layoutOf,
 * hexGeometry, drawnHex); the proportions are sim.css's board at the floor's size.
 *
 * Why a canvas: a floor of 32 tables drawn as the simulator's DOM (a dozen elements a cell)
 * made every frame restyle ~1,800 elements; a canvas is one element a table, and a move
 * redraws its table's canvas only (docs/cafe.md, "The latency to the painting"). The
 * table's own view still draws the simulator's DOM board, as large as the simulator's.
 *
 *   const mini = XoboMiniature.create(canvasEl, 204);  // its width, CSS pixels
 *   const drawn = mini.draw(snapshot);  // now: call it from an animation frame
 *   mini.boxOf("e5")                    // the cell's box on the canvas, CSS pixels
 *   XoboMiniature.boxOf(canvasEl, "e5") // the same, from the canvas (tests, tools)
 *
 * draw() also writes on the canvas what it drew, for tests and tools (never read back by
 * the page; its pixels: drawImage(canvasEl) on a canvas of one's own): data-pieces
 * ("e5:1 d4:2", board cells with their count of pieces), data-lit ("e5:ff8800 ...", the
 * cells' LEDs, the firmware's colours), data-edges ("N:0000ff ...", the edge LEDs lit).
 * Plain JS, no build step. */
"use strict";

window.XoboMiniature = (function () {
  const B = window.XoboBoard;
  const LETTERS = B.LETTERS;
  // sim.css's frame, in the board's width: an edge strip, the frame's padding around it and
  // its gap to the cells (in the strip's width), the gap between cells
  const EDGE = 0.028, PAD = 0.9, EDGE_GAP = 0.45, GAP = 0.008;
  const CELL = "#17110d", INACTIVE = "#0b0806";
  const MARK_FILL = { goal: "#2a1f14", goal2: "#2a1f14" };
  const QUADRANT_FILL = ["#1f1812", "#141c1c", "#141c1c", "#1f1812"];
  const HEX = /^[0-9a-f]{6}$/;

  const hexOf = (x) => { const h = String(x || "").toLowerCase(); return HEX.test(h) ? h : "000000"; };
  const rgba = (hex, a) => {
    const v = parseInt(hex, 16);
    return "rgba(" + ((v >> 16) & 255) + "," + ((v >> 8) & 255) + "," + (v & 255) + "," + a + ")";
  };
  /* a colour mixed with white (t > 0) or black (t < 0), as CSS color-mix does */
  const mix = (hex, t) => {
    const v = parseInt(hex, 16), to = t > 0 ? 255 : 0, k = Math.abs(t);
    const ch = (x) => Math.round(x + (to - x) * k);
    return "rgb(" + ch((v >> 16) & 255) + "," + ch((v >> 8) & 255) + "," + ch(v & 255) + ")";
  };

  /* Where everything is on a canvas `width` CSS pixels wide, for the board `lay`. */
  function geometry(lay, width) {
    const board = width / (1 + 2 * EDGE * (PAD + 1 + EDGE_GAP));
    const edge = board * EDGE, pad = edge * PAD, inset = pad + edge + edge * EDGE_GAP;
    const gap = board * GAP;
    const cell = (board - (lay.w - 1) * gap) / lay.w;
    const gridH = cell * lay.h + gap * (lay.h - 1);
    const height = 2 * inset + gridH;
    const all = !lay.area.length;
    const area = new Set(lay.area);
    const cells = [];
    const hex = lay.shape === "hex" ? B.hexGeometry(lay) : null;
    const unit = hex ? board / hex.units : 0;
    const hexTop = hex ? inset + (gridH - board * hex.tall / hex.units) / 2 : 0;
    for (let c = 0; c < lay.w * lay.h; c++) {
      const f = c % lay.w, r = Math.floor(c / lay.w);
      const name = LETTERS[f] + (r + 1);
      const inArea = all || area.has(name);
      // the game's own name of the cell where its grid sits elsewhere on the board (the test
      // game's a1-c3 on the board's d4-f6), as the simulator's titles name it
      const offset = !hex && (lay.ox || lay.oy) && inArea;
      const gameName = offset ? LETTERS[f - lay.ox] + (r - lay.oy + 1) : name;
      if (hex) {
        if (!inArea) { cells.push(null); continue; }  // off X's rhombus: not drawn
        const at = hex.place(f, r);
        cells.push({ name, gameName, inArea, hex: true, x: inset + at.x * unit,
          y: hexTop + at.y * unit, w: unit, h: unit * 2 * hex.side });
      } else {
        cells.push({ name, gameName, inArea, hex: false, x: inset + f * (cell + gap),
          y: inset + (lay.h - 1 - r) * (cell + gap), w: cell, h: cell });
      }
    }
    const strip = (x, y, w, h, k, across) => ({ x, y, w, h, k, across });
    const far = inset + board + edge * EDGE_GAP;  // the East strip's left, the board's right
    const low = inset + gridH + edge * EDGE_GAP;
    return {
      width, height, board, edge, cells,
      edges: {
        N: strip(inset, pad, board, edge, lay.w, true),
        S: strip(inset, low, board, edge, lay.w, true),
        W: strip(pad, inset, edge, gridH, lay.h, false),
        E: strip(far, inset, edge, gridH, lay.h, false),
      },
    };
  }

  /* A board that has cells named as the boards name them (a-z, 1-26) and a game's area on
   * it: what can be drawn. */
  function drawable(lay) {
    const size = (n) => Number.isInteger(n) && n >= 1 && n <= LETTERS.length;
    return size(lay.w) && size(lay.h) && lay.area.length <= lay.w * lay.h;
  }

  /* A cell's outline: a rounded square, or X's pointy-top hexagon. */
  function cellPath(ctx, g) {
    ctx.beginPath();
    if (g.hex) {
      const { x, y, w, h } = g;
      ctx.moveTo(x + w / 2, y); ctx.lineTo(x + w, y + h / 4); ctx.lineTo(x + w, y + 3 * h / 4);
      ctx.lineTo(x + w / 2, y + h); ctx.lineTo(x, y + 3 * h / 4); ctx.lineTo(x, y + h / 4);
      ctx.closePath();
    } else {
      ctx.roundRect(g.x, g.y, g.w, g.h, Math.min(6, g.w * 0.3));
    }
  }

  /* What does not change from move to move (the cells' wood and glass, the marks, the dark
   * edge strips and their unlit LEDs), drawn once for a layout and its marks. */
  function drawBackground(ctx, geo, draw) {
    const marks = draw.marks || {}, quadrant = draw.quadrant || {};
    for (const g of geo.cells) {
      if (!g) continue;
      const mark = marks[g.name], quad = quadrant[g.name];
      cellPath(ctx, g);
      if (!g.inArea) {  // outside the game's area: dark, never part of the game
        ctx.fillStyle = INACTIVE; ctx.globalAlpha = 0.45; ctx.fill(); ctx.globalAlpha = 1;
        continue;
      }
      ctx.fillStyle = MARK_FILL[mark] || (quad !== undefined ? QUADRANT_FILL[quad] || CELL : CELL);
      ctx.fill();
      // the cell's sheen and the glass over its LED (sim.css's .cell and .cell::after)
      const sheen = ctx.createLinearGradient(g.x, g.y, g.x + g.w, g.y + g.h);
      sheen.addColorStop(0, "rgba(255,255,255,0.07)"); sheen.addColorStop(1, "rgba(0,0,0,0.25)");
      ctx.fillStyle = sheen; ctx.fill();
      const glass = ctx.createLinearGradient(g.x, g.y, g.x + g.w * 0.35, g.y + g.h);
      glass.addColorStop(0, "rgba(255,255,255,0.10)"); glass.addColorStop(0.4, "rgba(255,255,255,0)");
      ctx.fillStyle = glass; ctx.fill();
      if (mark === "donjon") {
        ctx.strokeStyle = "rgba(224,169,91,0.75)"; ctx.lineWidth = Math.max(1, g.w * 0.08);
        cellPath(ctx, { ...g, x: g.x + ctx.lineWidth / 2, y: g.y + ctx.lineWidth / 2,
          w: g.w - ctx.lineWidth, h: g.h - ctx.lineWidth });
        ctx.stroke();
      }
      const sign = mark === "goal" ? "+1" : mark === "goal2" ? "+2" : mark === "donjon" ? "♜" : "";
      if (sign) {
        ctx.fillStyle = mark === "donjon" ? "rgba(224,169,91,0.7)" : "rgba(255,220,160,0.6)";
        ctx.font = Math.max(5, g.w * (mark === "donjon" ? 0.3 : 0.24)).toFixed(1) + "px sans-serif";
        ctx.textAlign = "left"; ctx.textBaseline = "alphabetic";
        ctx.fillText(sign, g.x + g.w * 0.08, g.y + g.h * 0.95);
      }
    }
    for (const e of Object.values(geo.edges)) {
      const r = Math.min(e.w, e.h) / 2;
      const dark = ctx.createLinearGradient(0, e.y, 0, e.y + e.h);
      dark.addColorStop(0, "#1a120d"); dark.addColorStop(1, "#0e0906");
      ctx.beginPath(); ctx.roundRect(e.x, e.y, e.w, e.h, r);
      ctx.fillStyle = dark; ctx.fill();
      ctx.fillStyle = "#2a211b";
      for (const p of pixels(e)) { ctx.beginPath(); ctx.arc(p.x, p.y, p.r, 0, 2 * Math.PI); ctx.fill(); }
    }
  }

  /* An edge strip's LEDs, spread as sim.css spreads them (space-around). */
  function pixels(e) {
    const out = [], r = Math.min(e.w, e.h) * 0.25;
    for (let i = 0; i < e.k; i++) {
      const along = (i + 0.5) / e.k;
      out.push(e.across ? { x: e.x + e.w * along, y: e.y + e.h / 2, r }
        : { x: e.x + e.w / 2, y: e.y + e.h * along, r });
    }
    return out;
  }

  /* An LED's light on its cell (sim.css's .cell.lit and its .glow): the cell tinted, and a
   * radial light from a little under its middle. */
  function drawLight(ctx, g, drawn) {
    cellPath(ctx, g);
    ctx.fillStyle = rgba(drawn, 0.35); ctx.fill();
    const cx = g.x + g.w / 2, cy = g.y + g.h * 0.55, reach = Math.hypot(g.w * 0.5, g.h * 0.55);
    const light = ctx.createRadialGradient(cx, cy, 0, cx, cy, reach);
    light.addColorStop(0, rgba(drawn, 1)); light.addColorStop(0.38, rgba(drawn, 0.55));
    light.addColorStop(0.75, rgba(drawn, 0));
    ctx.fillStyle = light; ctx.fill();
  }

  /* A cell's pieces: a tower of cubes (XoBo's, X's; natural wood), or the game's own pieces
   * in their colours (Chain Reaction's towers, Brochs's men), at most 8 drawn. */
  function drawStack(ctx, g, n, own, kinds) {
    const c = Math.min(g.w, g.h), shown = Math.min(n, 8), cx = g.x + g.w / 2;
    const floor = g.y + g.h / 2 + c / 2;  // the bottom of the cell's square
    for (let i = 0; i < shown; i++) {
      const kind = own ? own[i] : null;
      if (kind) {
        const rgb = hexOf(kinds[kind] && kinds[kind].rgb);
        const s = c * (kind === "master" ? 0.64 : 0.56), h = c * 0.20;
        const bottom = floor - c * (shown === 1 ? 0.30 : 0.12) - i * h;
        const body = ctx.createRadialGradient(cx - s * 0.1, bottom - h * 0.7, 0, cx, bottom - h / 2, s / 2);
        body.addColorStop(0, mix(rgb, 0.45)); body.addColorStop(0.6, "#" + rgb);
        body.addColorStop(1, mix(rgb, -0.3));
        ctx.beginPath(); ctx.ellipse(cx, bottom - h / 2, s / 2, h / 2, 0, 0, 2 * Math.PI);
        ctx.fillStyle = body; ctx.fill();
        ctx.lineWidth = 1;
        ctx.strokeStyle = kind === "man" || kind === "master" ? "rgba(255,255,255,0.5)" : "rgba(0,0,0,0.45)";
        ctx.stroke();
        if (kind === "master") {
          ctx.fillStyle = "#fff6e8"; ctx.font = Math.max(5, c * 0.3).toFixed(1) + "px sans-serif";
          ctx.textAlign = "center"; ctx.textBaseline = "middle";
          ctx.fillText("♛", cx, bottom - h / 2);
        }
      } else {
        const s = c * 0.46, h = Math.min(c * 0.30, c * 0.66 / Math.max(1, shown));
        const bottom = floor - c * (shown === 1 ? 0.24 : 0.12) - i * h;
        const wood = ctx.createLinearGradient(cx - s / 2, 0, cx + s / 2, 0);
        wood.addColorStop(0, "#d9c9b0"); wood.addColorStop(0.35, "#f6ecdc");
        wood.addColorStop(0.7, "#efe2cd"); wood.addColorStop(1, "#c8b597");
        ctx.fillStyle = "rgba(0,0,0,0.45)";  // its shadow on the cell or the cube under it
        ctx.fillRect(cx - s / 2, bottom - h, s, h + Math.max(1, c * 0.05));
        ctx.fillStyle = wood; ctx.fillRect(cx - s / 2, bottom - h, s, h);
        ctx.fillStyle = "#9c8a70"; ctx.fillRect(cx - s / 2, bottom - Math.max(0.6, h * 0.12), s, Math.max(0.6, h * 0.12));
        if (i === shown - 1) {  // the top face of the top cube
          const top = s * 0.25, skew = top * Math.tan(18 * Math.PI / 180);
          ctx.beginPath();
          ctx.moveTo(cx - s / 2, bottom - h); ctx.lineTo(cx + s / 2, bottom - h);
          ctx.lineTo(cx + s / 2 + skew, bottom - h - top); ctx.lineTo(cx - s / 2 + skew, bottom - h - top);
          ctx.closePath(); ctx.fillStyle = "#f8f1e6"; ctx.fill();
        }
      }
    }
    if (n >= 2 && !own) {  // how tall the tower is, as the simulator writes it
      ctx.font = "bold " + Math.max(7, c * 0.38).toFixed(1) + "px sans-serif";
      ctx.textAlign = "right"; ctx.textBaseline = "top";
      ctx.lineWidth = 2.5; ctx.strokeStyle = "rgba(0,0,0,0.85)";
      ctx.strokeText(String(n), g.x + g.w - 1, g.y + 1);
      ctx.fillStyle = "#ffffff"; ctx.fillText(String(n), g.x + g.w - 1, g.y + 1);
    }
  }

  const views = new WeakMap();  // canvas -> its miniature

  function create(canvas, width) {
    /* Drawn off the page and handed to the canvas whole (an OffscreenCanvas, its picture
     * transferred to the canvas's "bitmaprenderer"): Chromium makes a new picture of every
     * 2D canvas on the page at every frame, drawn or not (32 of them at each of a busy
     * floor's frames), and of a bitmap renderer's only when it is given one. A browser
     * without them draws on the canvas itself. */
    const offscreen = typeof OffscreenCanvas === "function" ? new OffscreenCanvas(1, 1) : null;
    const shown = offscreen ? canvas.getContext("bitmaprenderer") : null;
    const target = shown ? offscreen : canvas;
    const ctx = target.getContext("2d");
    let lay = null, geo = null, backgroundKey = "", background = null, scale = 1;

    /* the canvas sized for the layout: `width` CSS pixels wide (given, never read from the
     * page: reading it would lay the page out in the middle of a frame), its height the
     * board's proportions, in device pixels for a sharp drawing */
    function ready(s) {
      const next = B.layoutOf(s);
      // a board the page cannot draw (another café's floor can say anything): not drawn
      if (!drawable(next)) return false;
      const dpr = window.devicePixelRatio || 1;
      if (!lay || next.key !== lay.key || scale !== dpr) {
        lay = next;
        scale = dpr;
        geo = geometry(lay, width);
        canvas.width = target.width = Math.round(geo.width * dpr);
        canvas.height = target.height = Math.round(geo.height * dpr);
        canvas.style.width = geo.width + "px";
        canvas.style.height = geo.height.toFixed(2) + "px";
        canvas.dataset.shape = lay.shape;
        backgroundKey = "";
      }
      return true;
    }

    function drawnBackground(draw) {
      const key = lay.key + "|" + JSON.stringify(draw.marks || {}) + JSON.stringify(draw.quadrant || {});
      if (key === backgroundKey) return background;
      backgroundKey = key;
      background = offscreen ? new OffscreenCanvas(canvas.width, canvas.height)
        : document.createElement("canvas");
      background.width = canvas.width; background.height = canvas.height;
      const bg = background.getContext("2d");
      bg.setTransform(scale, 0, 0, scale, 0, 0);
      drawBackground(bg, geo, draw);
      return background;
    }

    /* The board of snapshot `s` drawn now; what was drawn ({pieces, lit, edges}), or null
     * for a board that cannot be drawn (the canvas keeps what it showed). */
    function draw(s) {
      if (!ready(s)) return null;
      const counts = s.counts || [], leds = s.cells || [], edges = s.edges || {};
      const drawing = s.draw || {};
      const pieces = drawing.pieces || {}, kinds = drawing.kinds || {};
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.clearRect(0, 0, canvas.width, canvas.height);
      ctx.drawImage(drawnBackground(drawing), 0, 0);
      ctx.setTransform(scale, 0, 0, scale, 0, 0);
      // a drawing's glow "under" (its host module's draw: Brochs's): the LEDs light around
      // the pieces, under them (a black man stays black); else the light shines through
      // the cubes, as the simulator blends it (screen)
      const lightOver = drawing.glow !== "under";
      const out = { pieces: [], lit: [], edges: [] };
      const lit = [];
      for (let c = 0; c < geo.cells.length; c++) {
        const g = geo.cells[c];
        if (!g) continue;
        const led = hexOf(leds[c]);
        if (led !== "000000") { lit.push([g, B.drawnHex(led)]); out.lit.push(g.name + ":" + led); }
      }
      if (!lightOver) for (const [g, drawn] of lit) drawLight(ctx, g, drawn);
      for (let c = 0; c < geo.cells.length; c++) {
        const g = geo.cells[c], n = counts[c] || 0;
        if (!g || !n) continue;
        // the pieces' own colours where the switches see as many pieces as the position has
        const own = pieces[g.name] && pieces[g.name].length === n ? pieces[g.name] : null;
        drawStack(ctx, g, n, own, kinds);
        out.pieces.push({ name: g.name, gameName: g.gameName, n, own });
      }
      if (lightOver) {
        ctx.globalCompositeOperation = "screen";
        for (const [g, drawn] of lit) drawLight(ctx, g, drawn);
        ctx.globalCompositeOperation = "source-over";
      }
      for (const side of ["N", "E", "S", "W"]) {
        const led = hexOf(edges[side]);
        if (led === "000000") continue;
        out.edges.push(side + ":" + led);
        const drawn = B.drawnHex(led);
        for (const p of pixels(geo.edges[side])) {
          const halo = ctx.createRadialGradient(p.x, p.y, 0, p.x, p.y, p.r * 3);
          halo.addColorStop(0, rgba(drawn, 0.55)); halo.addColorStop(1, rgba(drawn, 0));
          ctx.fillStyle = halo; ctx.fillRect(p.x - p.r * 3, p.y - p.r * 3, p.r * 6, p.r * 6);
          ctx.beginPath(); ctx.arc(p.x, p.y, p.r, 0, 2 * Math.PI);
          ctx.fillStyle = "#" + drawn; ctx.fill();
        }
      }
      if (shown) shown.transferFromImageBitmap(offscreen.transferToImageBitmap());
      const said = (list) => list.join(" ");
      canvas.dataset.pieces = said(out.pieces.map((p) => p.name + ":" + p.n));
      canvas.dataset.lit = said(out.lit);
      canvas.dataset.edges = said(out.edges);
      return out;
    }

    /* A cell's box on the canvas (CSS pixels from its top left), or null. */
    function boxOf(name) {
      if (!geo) return null;
      const c = B.cellIndex(name, lay.w, lay.h);
      const g = c >= 0 ? geo.cells[c] : null;
      return g ? { x: g.x, y: g.y, w: g.w, h: g.h } : null;
    }

    const view = { draw, boxOf };
    views.set(canvas, view);
    return view;
  }

  return { create, boxOf: (canvas, name) => (views.has(canvas) ? views.get(canvas).boxOf(name) : null) };
})();
