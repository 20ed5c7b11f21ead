/* The café's pages: the floor (every table's board in miniature, live) and a table's view
 * (its board large, its record, the staff's controls). A table's view draws its board with
 * board.js, the simulator's drawing; the floor draws each table's miniature on a canvas
 * (miniature.js, from the same snapshot and board.js's layout). State comes from
 * /api/events (server-sent events: a "floor" message with every table, then "tables"
 * messages with the tables that changed). Plain JS. */
"use strict";

window.XoboCafe = (function () {
  const $ = (sel, root) => (root || document).querySelector(sel);
  const role = (name, root) => $('[data-role="' + name + '"]', root);
  let clockOffset = 0;  // the server's clock minus this page's (seconds)

  function sinceText(t, ply) {
    if (!t) return ply ? "moves played before the host followed" : "no move yet";
    const s = Math.max(0, Math.round(Date.now() / 1000 + clockOffset - t));
    if (s < 60) return s + " s since the last move";
    if (s < 3600) return Math.floor(s / 60) + " min since the last move";
    return Math.floor(s / 3600) + " h " + Math.floor((s % 3600) / 60) + " min since the last move";
  }

  /* What the table's board said at its last power-up when it fell back (its save damaged,
   * unreadable, ...: "at power-up: saved game not resumed: ...; new game"), else "". */
  function bootText(t) {
    const b = t.boot || {};
    return b.fallback ? "at power-up: " + b.note : "";
  }

  function turnText(t) {
    if (!t.game) return "";
    if (t.result && t.result !== "*") {
      if (t.result_text && t.result_text !== t.result) return t.result_text;
      return t.result === "draw" ? "draw" : t.result + " wins";
    }
    return t.side ? t.side + " to move" : "";
  }

  /* The event game a table hosts (its "event" field: cafe/events), in words; "" when none. */
  function eventText(t) {
    const e = t.event;
    if (!e) return "";
    const seats = e.players.map((p) => p.name + " (" + p.seat + ")").join(" – ");
    return e.name + " · round " + e.round + ", board " + e.board + ": " + seats;
  }

  /* A page of another café (/watch/CAFE...): its name, else null. */
  function watched() {
    const m = location.pathname.match(/^\/watch\/([^/]+)/);
    return m ? decodeURIComponent(m[1]) : null;
  }

  /* A time (seconds since the epoch) as this page's clock says it: 2026-12-07 22:40. */
  function dateText(t) {
    const d = new Date(t * 1000), two = (n) => String(n).padStart(2, "0");
    return d.getFullYear() + "-" + two(d.getMonth() + 1) + "-" + two(d.getDate()) + " " +
      two(d.getHours()) + ":" + two(d.getMinutes());
  }

  /* How the key of a café is known here (a floor's "signed", a kept key). */
  function knownText(k) {
    return k.source === "match" ? "known from your match of " + dateText(k.since)
      : "known since " + dateText(k.since) + " (its first floor seen here)";
  }

  /* Another café's floor: who signed what is shown, and what the broker carried under its
   * name that was refused (the server checked both: docs/remote.md, "Spectators"). */
  function showWatch(m, other) {
    const w = m.watch || {};
    const ok = role("watch-signed"), bad = role("watch-forged");
    const signed = !!w.signed;
    ok.hidden = !signed;
    if (signed) {
      ok.textContent = "✓ Signed by " + other + ", key " + w.signed.fingerprint + ", " +
        knownText(w.signed);
    }
    bad.hidden = !w.refused;
    if (w.refused) {
      bad.textContent = "At " + new Date(w.refused.at * 1000).toLocaleTimeString() +
        " the broker carried a floor under the name " + other + " that is not " + other +
        "'s: " + w.refused.why + ". It is not shown. " + (w.signed
        ? "Shown here is the last floor signed by " + other + ", taken at " +
          new Date(w.at * 1000).toLocaleTimeString() + "."
        : "Nothing of " + other + " is shown until a floor signed by its key arrives.");
    }
    document.body.dataset.signed = signed ? "yes" : "no";
    document.body.dataset.forged = w.refused ? "yes" : "no";
  }

  function follow(onFloor, onTables) {
    const conn = role("conn");
    const other = watched();
    const es = new EventSource(other ? "/api/watch/" + encodeURIComponent(other) + "/events" : "/api/events");
    es.addEventListener("floor", (e) => {
      const m = JSON.parse(e.data);
      clockOffset = m.now - Date.now() / 1000;
      conn.dataset.state = "live"; conn.textContent = "live";
      onFloor(m);
    });
    es.addEventListener("tables", (e) => {
      const m = JSON.parse(e.data);
      clockOffset = m.now - Date.now() / 1000;
      onTables(m);
    });
    es.onerror = () => { conn.dataset.state = "lost"; conn.textContent = "reconnecting…"; };
    return es;
  }

  /* ------------------------------------------------------------------ the floor */
  function floorPage() {
    const other = watched();
    const list = role("floor");
    if (other) {
      document.title = "XoBo café " + other + " (watched)";
      $("h1 small").textContent = other + "'s floor, live";
      role("elsewhere").hidden = true;
      for (const a of document.querySelectorAll("header .button")) a.hidden = true;
      role("empty").textContent = "No table of " + other + " shown.";
    }
    const template = role("table-card");
    const cards = new Map();  // key -> { el, mini, canvas, t, board: what it drew, drawn }
    const MINIATURE_WIDTH = 204;  // CSS pixels (cafe.css's .mini-board)

    function card(t) {
      let c = cards.get(t.key);
      if (!c) {
        const el = template.content.firstElementChild.cloneNode(true);
        const canvas = $("canvas", el);
        c = { el, canvas, mini: XoboMiniature.create(canvas, MINIATURE_WIDTH), t, board: "",
          drawn: null };
        cards.set(t.key, c);
      }
      return c;
    }

    // what did not change is not written again: with 32 tables playing, every write made the
    // browser restyle, lay out and repaint the card at its next frame
    function setData(el, key, value) { if (el.dataset[key] !== value) el.dataset[key] = value; }
    function setText(el, text) { if (el.textContent !== text) el.textContent = text; }

    function update(t) {
      const c = card(t);
      c.t = t;
      const el = c.el;
      setData(el, "table", t.key);
      setData(el, "health", t.health);
      setData(el, "ply", String(t.ply));
      setData(el, "game", t.game);
      const href = (other ? "/watch/" + encodeURIComponent(other) : "") +
        "/table/" + encodeURIComponent(t.key);
      if ($(".card-link", el).getAttribute("href") !== href) $(".card-link", el).href = href;
      setText($(".name", el), t.name === "-" ? "unnamed (" + t.device + ")" : t.key);
      const badge = { playing: "playing", over: "game over", offline: "offline", fix: "needs a fix",
        faults: "self-test faults", selftest: "self-test" };
      setText($(".health", el), badge[t.health] || t.health);
      if ($(".health", el).title !== t.health_text) $(".health", el).title = t.health_text;
      setText($(".game", el), t.title || t.game || "");
      setText($(".turn", el), turnText(t));
      setText($(".since", el), t.online ? sinceText(t.last_move_at, t.ply) : "");
      const line = $(".event-line", el), ev = eventText(t);
      setText(line, ev);
      if (line.hidden !== !ev) line.hidden = !ev;
      // the board's last power-up could not resume its game as it was: what it said
      const boot = bootText(t);
      const note = $(".boot-note", el);
      setText(note, boot);
      if (note.hidden !== !boot) note.hidden = !boot;
      dirty.add(c);  // its miniature is drawn at the next animation frame (drawDirty)
    }

    /* A table's miniature drawn from its latest state, and what it says to those who cannot
     * see it (the canvas's aria-label: the table, the game, whose turn or the result, and
     * the pieces on the board, in the game's notation). False when its board could not be
     * drawn (the canvas keeps what it showed, and its label says so). */
    function drawMiniature(c) {
      const t = c.t;
      if (!(t.board && t.board.cells)) return true;  // nothing known to draw yet
      // a table is sent again for what is not its board too (a cube lifted and put back, its
      // health, its record): the same board on the same screen is not drawn again
      const board = JSON.stringify(t.board) + "@" + window.devicePixelRatio;
      let drawn = board === c.board ? c.drawn : null;
      if (!drawn) {
        try {
          drawn = c.mini.draw(t.board);
        } catch (e) {
          console.error("the miniature of " + t.key + " could not be drawn", e);
        }
        c.board = drawn ? board : "";
        c.drawn = drawn;
      }
      if (!drawn) {
        c.canvas.setAttribute("aria-label", t.key + ": its board cannot be drawn");
        return false;
      }
      c.canvas.dataset.ply = String(t.ply);
      const where = drawn.pieces.map((p) => p.gameName + (p.own ? " " + p.own.join("+")
        : p.n > 1 ? " (" + p.n + ")" : ""));
      const pieces = !where.length ? "no piece on the board"
        : "pieces on " + (where.length > 24 ? where.slice(0, 24).join(", ") + " and " +
          (where.length - 24) + " more cells" : where.join(", "));
      const label = (t.name === "-" ? "an unnamed table" : t.key) + ": " +
        (t.title || t.game || "no game") + ", " + (turnText(t) || "no game running") + "; " +
        pieces + (t.online ? "" : " (offline: the board as last seen)");
      if (c.canvas.getAttribute("aria-label") !== label) c.canvas.setAttribute("aria-label", label);
      return true;
    }

    function place(keys) {
      for (const [key, c] of cards) {
        if (!keys.includes(key)) { c.el.remove(); cards.delete(key); }
      }
      // in name order; a card is moved only when it is out of place (moving every card at
      // every message laid out and repainted the whole floor at each move)
      let at = list.firstElementChild;
      for (const key of keys) {
        const c = cards.get(key);
        if (!c) continue;
        if (c.el === at) at = at.nextElementSibling;
        else list.insertBefore(c.el, at);
      }
      if (role("empty").hidden !== keys.length > 0) role("empty").hidden = keys.length > 0;
      setText(role("count"), keys.length + (keys.length === 1 ? " table" : " tables") + ", " +
        [...cards.values()].filter((c) => c.t.online).length + " online");
    }

    let problemsShown = "";
    function problems(p) {
      const ul = role("problems");
      const now = JSON.stringify(p || {});
      if (now === problemsShown) return;
      problemsShown = now;
      ul.innerHTML = "";
      for (const [dev, why] of Object.entries(p || {})) {
        const li = document.createElement("li");
        li.textContent = dev + ": " + why;
        ul.appendChild(li);
      }
    }

    const remote = other ? null : matchesPanel(() => [...cards.values()].map((c) => c.t));

    /* The miniatures are drawn once a frame: the messages received since the last frame
     * leave their tables dirty, and one animation frame draws each of those tables' canvas
     * once, from its latest state (the other tables are not touched).
     *
     * The paint mark: once the frame that drew them has been painted (the animation
     * frame's callback runs before its rendering; a message posted from it runs after),
     * the page says so: body[data-painted] is the last version drawn, and an
     * "xobo:painted" event gives the tables of the messages drawn (each with its ply; a
     * table whose board could not be drawn is not among them) and the wall-clock time (a
     * benchmark measures a board's move to the screen with it, docs/cafe.md). The page
     * keeps nothing of it. */
    const dirty = new Set();  // cards whose miniature waits for the next frame
    const received = [];      // the messages whose tables that frame draws
    let frameAsked = false;
    const afterPaint = new MessageChannel();
    const painting = [];      // per frame drawn: its messages, until painted
    afterPaint.port1.onmessage = () => {
      const at = performance.timeOrigin + performance.now();
      const { batch, failed } = painting.shift();
      const version = batch[batch.length - 1].version;
      document.body.dataset.painted = String(version);
      const tables = [];
      for (const m of batch) {
        for (const t of m.tables) if (!failed.has(t.key)) tables.push({ key: t.key, ply: t.ply });
      }
      document.dispatchEvent(new CustomEvent("xobo:painted", { detail: { at, version, tables } }));
    };
    function drawDirty() {
      frameAsked = false;
      const failed = new Set();
      for (const c of dirty) {
        if (cards.get(c.t.key) === c && !drawMiniature(c)) failed.add(c.t.key);
      }
      dirty.clear();
      if (!received.length) return;  // drawn again for the screen (its pixel ratio), no message
      painting.push({ batch: received.splice(0), failed });
      afterPaint.port2.postMessage(null);
    }
    function askFrame() {
      if (!frameAsked) { frameAsked = true; requestAnimationFrame(drawDirty); }
    }
    function markPaint(m) {
      received.push(m);
      askFrame();
    }
    // moved to a screen of another pixel ratio (or zoomed): every miniature drawn again, sharp
    let pixelRatio = window.devicePixelRatio;
    window.addEventListener("resize", () => {
      if (window.devicePixelRatio === pixelRatio) return;
      pixelRatio = window.devicePixelRatio;
      for (const c of cards.values()) dirty.add(c);
      askFrame();
    });

    follow((m) => {
      if (other) showWatch(m, other);
      for (const t of m.tables) update(t);
      place(m.tables.map((t) => t.key));
      problems(m.problems);
      if (m.matches) showMatches(m.matches, remote);
      document.body.dataset.version = String(m.version);
      markPaint(m);
    }, (m) => {
      for (const t of m.tables) update(t);
      place(m.keys);
      problems(m.problems);
      if (m.matches) showMatches(m.matches, remote);
      document.body.dataset.version = String(m.version);
      markPaint(m);
    });
    setInterval(() => {
      for (const c of cards.values()) if (c.t.online) setText($(".since", c.el), sinceText(c.t.last_move_at, c.t.ply));
    }, 1000);
  }

  function fillGames(ul, games, most) {
    ul.innerHTML = "";
    for (const g of games.slice(0, most || games.length)) {
      const li = document.createElement("li");
      li.dataset.game = String(g.id);
      const a = document.createElement("a");
      a.href = "/api/records/" + g.id + ".txt";
      a.textContent = "#" + g.id;
      li.appendChild(a);
      li.appendChild(document.createTextNode(" " + g.started_at.replace("T", " ").slice(0, 16) +
        " · " + g.source + " · " + g.game + (g.params ? " (" + g.params + ")" : "") + " · " +
        g.n_moves + " moves · " + (g.result === "*" ? "unfinished" : g.result)));
      ul.appendChild(li);
    }
    if (!games.length) ul.innerHTML = "<li>no game recorded</li>";
  }

  /* ------------------------------------------------------------------ matches */
  async function post(path, body) {
    const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body) });
    let out = {};
    try { out = await r.json(); } catch (e) { out = { ok: false, error: "HTTP " + r.status }; }
    return { status: r.status, out };
  }

  function matchText(m) {
    const seats = m.players.map((p, i) => m.seat_text[i] + " (" + p + ")").join(" vs ");
    let state = m.state === "playing" ? m.side + " to move" : m.state;
    if (m.state === "over") state = m.result;
    if (m.state === "inviting") state = "waiting for the invited table" + (m.code ? " · code " + m.code : "");
    let text = m.title + ": " + seats + " · " + m.ply + " moves · " + state;
    if (m.undo) text += " · take-back to move " + m.undo.to + " proposed by " +
      m.undo.by.map((i) => m.players[i]).join("+");
    if (m.conflict) text += " · conflict: " + m.conflict;
    return text;
  }

  /* The matches panel and "play a table elsewhere" (the staff's, behind the login). */
  function matchesPanel(tables) {
    const panel = { staff: false, matches: [], codes: {} };
    const say = (text, kind) => { const m = role("match-message"); m.textContent = text; m.dataset.kind = kind || "info"; };
    let invitation = null;

    function fillTables(select, keep) {
      const now = select.value;
      select.innerHTML = "";
      for (const t of tables()) {
        if (!t.online) continue;
        const o = document.createElement("option"); o.value = t.key; o.textContent = t.key + " (" + (t.title || t.game) + ")";
        select.appendChild(o);
      }
      if (keep !== false) select.value = now || select.value;
    }

    function fillSeats() {
      const t = tables().find((x) => x.key === role("invite-table").value);
      const sel = role("invite-seat"), now = sel.value;
      sel.innerHTML = "";
      for (const p of (t && t.players) || []) {
        const o = document.createElement("option"); o.value = p; o.textContent = p; sel.appendChild(o);
      }
      if (now) sel.value = now;
    }

    async function refresh() {
      const r = await fetch("/api/matches");
      if (!r.ok) { role("elsewhere").hidden = true; return; }
      const out = await r.json();
      panel.staff = out.staff;
      for (const m of out.matches) panel.codes[m.id] = m.code;
      role("login-form").hidden = out.staff;
      role("elsewhere-staff").hidden = !out.staff;
      document.body.dataset.staff = out.staff ? "yes" : "no";
      document.body.dataset.cafe = out.cafe;
      showMatches(out.matches, panel);
      showStatus(out);
      fillTables(role("invite-table")); fillSeats(); fillTables(role("accept-table"));
    }

    /* The broker's health (connected and passing this café's messages back, or what is
       wrong) and, for the staff, the messages refused. */
    function showStatus(out) {
      const status = role("broker-status");
      status.hidden = !out.broker;
      if (out.broker) {
        status.textContent = "Broker: " + out.broker.status;
        status.dataset.ok = out.broker.connected ? "yes" : "no";
      }
      const box = role("refused-box"), ul = role("refused");
      const refused = out.refused || [];
      box.hidden = !out.staff || refused.length === 0;
      ul.innerHTML = "";
      for (const r of refused) {
        const li = document.createElement("li");
        li.textContent = new Date(r.at * 1000).toLocaleTimeString() + " " + r.topic + ": " + r.why;
        ul.appendChild(li);
      }
      showKeys(out);
    }

    /* The keys kept for other cafés' floors, each with its Forget, and this café's own
       (the staff's). Rebuilt only when they change: a button is not replaced under a click. */
    let keysShown = "";
    function showKeys(out) {
      const box = role("keys-box");
      box.hidden = !out.staff || !out.key;
      const now = JSON.stringify([out.key, out.floor_keys]);
      if (box.hidden || now === keysShown) return;
      keysShown = now;
      role("own-key").textContent = "This café's key: " + out.key;
      const ul = role("floor-keys");
      ul.innerHTML = "";
      for (const k of out.floor_keys || []) {
        const li = document.createElement("li");
        li.dataset.cafe = k.cafe;
        li.appendChild(document.createTextNode(k.cafe + ": key " + k.fingerprint + ", " +
          knownText(k) + " "));
        const b = document.createElement("button");
        b.className = "small danger"; b.textContent = "Forget";
        b.addEventListener("click", () => {
          if (!window.confirm("Forget " + k.cafe + "'s key? The key of its next floor will be kept: " +
            "compare its fingerprint with " + k.cafe + "'s staff.")) return;
          control("/api/floor-key/forget", { cafe: k.cafe });
        });
        li.appendChild(b);
        ul.appendChild(li);
      }
      if (!ul.children.length) ul.innerHTML = "<li>no other café's key kept yet</li>";
    }

    setInterval(async () => {
      const r = await fetch("/api/matches");
      if (r.ok) showStatus(await r.json());
    }, 2000);

    async function control(path, body, done) {
      const { out } = await post(path, body);
      if (!out.ok) { say(out.error || "refused", "error"); return null; }
      say(out.reply || "done", "info");
      if (done) done(out);
      refresh();
      return out;
    }
    panel.control = control;

    role("login-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const { out } = await post("/api/login", { password: role("password").value });
      role("password").value = "";
      if (!out.ok) { say(out.error || "wrong password", "error"); return; }
      refresh();
    });
    role("invite-table").addEventListener("change", fillSeats);
    role("invite-table").addEventListener("focus", () => { fillTables(role("invite-table")); fillSeats(); });
    role("accept-table").addEventListener("focus", () => fillTables(role("accept-table")));
    role("invite").addEventListener("click", () => control("/api/invite",
      { table: role("invite-table").value, seat: role("invite-seat").value }, (out) => {
        role("invite-code").hidden = false; role("code-text").textContent = out.code;
      }));
    role("lookup-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      say("looking the invitation up…", "info");
      const { out } = await post("/api/invite/lookup", { code: role("code").value });
      if (!out.ok) { role("invitation").hidden = true; say(out.error || "no such invitation", "error"); return; }
      invitation = out;
      const free = out.seats.map((s, i) => (s ? null : i)).filter((x) => x !== null);
      const from = out.seats.filter((s) => s).map((s) => s[1] + (s[0] !== document.body.dataset.cafe ? " of " + s[0] : "")).join(", ");
      role("invitation-text").textContent = (out.title || out.game) + " with " + from +
        " (" + free.length + (free.length === 1 ? " seat" : " seats") + " free)";
      role("invitation").hidden = false;
      fillTables(role("accept-table"));
      say("", "info");
    });
    role("accept").addEventListener("click", () => invitation && control("/api/invite/accept",
      { code: invitation.code, table: role("accept-table").value }, () => { role("invitation").hidden = true; }));
    role("decline").addEventListener("click", () => invitation && control("/api/invite/decline",
      { code: invitation.code }, () => { role("invitation").hidden = true; }));
    role("watch-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const name = role("watch-cafe").value.trim();
      if (name) location.href = "/watch/" + encodeURIComponent(name);
    });
    refresh();
    return panel;
  }

  function showMatches(matches, panel) {
    const card = role("matches-card"), ul = role("matches");
    if (!card) return;
    const shown = matches.filter((m) => m.state !== "cancelled" && m.state !== "declined").slice(0, 20);
    card.hidden = shown.length === 0;
    ul.innerHTML = "";
    for (const m of shown) {
      if (panel && panel.codes[m.id] && !m.code) m.code = panel.codes[m.id];
      const li = document.createElement("li");
      li.dataset.match = m.id; li.dataset.state = m.state; li.dataset.ply = String(m.ply);
      li.appendChild(document.createTextNode(matchText(m)));
      if (panel && panel.staff) {
        const act = (label, body) => {
          const b = document.createElement("button"); b.className = "small"; b.textContent = label;
          b.addEventListener("click", () => panel.control("/api/match/" + m.id + "/action", body));
          li.appendChild(document.createTextNode(" ")); li.appendChild(b);
        };
        for (const key of m.local) {
          if (m.state === "playing") {
            const mine = m.undo && m.undo.by.some((i) => m.seats[i] && m.seats[i][1] === key);
            if (!m.undo && m.ply) act("Take back (" + key + ")", { action: "undo", table: key });
            if (m.undo && !mine) act("Accept the take-back (" + key + ")", { action: "undo", table: key });
            act("Resign (" + key + ")", { action: "resign", table: key });
          }
        }
        if (m.undo) act("Decline the take-back", { action: "decline" });
        if (m.state === "conflict") {
          if (m.agreed !== null && m.agreed !== undefined)
            act("Keep the " + m.agreed + " moves both logs have", { action: "resolve", keep: "agreed" });
          act("Keep this café's log", { action: "resolve", keep: "ours" });
        }
        if (m.state === "inviting" || m.state === "playing" || m.state === "conflict")
          act("Cancel", { action: "cancel" });
      }
      ul.appendChild(li);
    }
  }

  /* ------------------------------------------------------------------ the records */
  function recordsPage() {
    const form = role("search");
    const params = new URLSearchParams(location.search);
    for (const k of ["table", "game", "date"]) role(k).value = params.get(k) || "";
    async function search() {
      const q = new URLSearchParams();
      for (const k of ["table", "game", "date"]) if (role(k).value.trim()) q.set(k, role(k).value.trim());
      history.replaceState(null, "", "/records" + (q.toString() ? "?" + q : ""));
      const r = await fetch("/api/records?" + q);
      const out = await r.json();
      role("login-note").hidden = r.status !== 401;
      if (!r.ok) { role("results").innerHTML = ""; role("summary").textContent = out.error || ""; return; }
      role("summary").textContent = out.games.length + (out.games.length === 1 ? " game" : " games");
      fillGames(role("results"), out.games);
    }
    form.addEventListener("submit", (e) => { e.preventDefault(); search(); });
    search();
  }

  /* ------------------------------------------------------------------ a table */
  function tablePage() {
    const other = watched();
    if (other) return watchedTablePage(other);
    let key = decodeURIComponent(location.pathname.slice("/table/".length));
    const view = XoboBoard.createView(role("frame"));
    view.build();
    let last = null;
    let busy = false, again = false;

    function say(text, kind) {
      const m = role("message");
      m.textContent = text;
      m.dataset.kind = kind || "info";
    }

    function fill(select, options, current) {
      const keep = select.value;
      select.innerHTML = "";
      for (const o of options) {
        const opt = document.createElement("option");
        opt.value = o; opt.textContent = o;
        select.appendChild(opt);
      }
      select.value = current !== undefined && options.includes(String(current)) ? String(current) : keep;
    }

    function render(t) {
      last = t;
      document.title = "XoBo café: " + t.key;
      role("title").textContent = t.key + (t.device ? " · " + t.device : "");
      const h = role("health");
      h.dataset.health = t.health; h.textContent = t.health_text;
      document.body.dataset.health = t.health;
      document.body.dataset.ply = String(t.ply);
      if (t.board && t.board.cells) view.render(t.board);
      role("turn").textContent = (t.title ? t.title + ": " : "") + turnText(t);
      role("event").textContent = eventText(t);
      role("event").hidden = !t.event;
      role("result").textContent = t.error ? "Board: " + t.error : "";
      role("boot").textContent = bootText(t);
      role("boot").hidden = !bootText(t);
      role("since").textContent = t.online ? sinceText(t.last_move_at, t.ply) : "offline";
      role("record").textContent = t.record || (t.recording || "–");
      const exp = role("export");
      exp.hidden = !(t.staff && t.game_id);
      if (t.game_id) exp.href = "/api/records/" + t.game_id + ".txt";
      const ev = role("events");
      ev.innerHTML = "";
      for (const line of (t.events || []).slice().reverse()) {
        const li = document.createElement("li"); li.textContent = line; ev.appendChild(li);
      }
      role("login").hidden = !!t.staff;
      role("games-card").hidden = !t.staff;
      if (t.staff) loadGames(t.key);
      role("staff").hidden = !t.staff;
      document.body.dataset.staff = t.staff ? "yes" : "no";
      if (t.staff) {
        const s = t.settings || {}, ch = t.choices || {};
        fill(role("game"), ch.games || [], t.game);
        fill(role("opponent"), ch.opponents || [], s.opponent);
        fill(role("level"), ch.levels || [], s.level);
        if (document.activeElement !== role("brightness")) role("brightness").value = s.brightness || 60;
        if (document.activeElement !== role("name")) role("name").value = t.name === "-" ? "" : t.name;
        role("selftest").textContent = (t.selftest || []).join("\n") || "–";
        role("all-records").href = "/records?table=" + encodeURIComponent(t.key);
        $('[data-act="forget"]').hidden = t.online;
      }
    }

    let gamesKey = "";
    async function loadGames(k) {
      const stamp = k + "|" + last.game_id + "|" + last.ply;
      if (stamp === gamesKey) return;
      gamesKey = stamp;
      const r = await fetch("/api/records?table=" + encodeURIComponent(k));
      if (!r.ok) return;
      fillGames(role("games-list"), (await r.json()).games, 10);
    }

    async function refresh() {
      if (busy) { again = true; return; }
      busy = true;
      try {
        const r = await fetch("/api/table/" + encodeURIComponent(key));
        const out = await r.json();
        if (r.ok) render(out); else say(out.error || "no such table", "error");
      } catch (e) {
        say("The host does not answer: " + e, "error");
      } finally {
        busy = false;
        if (again) { again = false; refresh(); }
      }
    }

    async function control(body) {
      const { out } = await post("/api/table/" + encodeURIComponent(key) + "/action", body);
      if (!out.ok) { say(out.error || "refused", "error"); return; }
      say(out.reply || "done", "info");
      if (body.action === "forget") { location.href = "/"; return; }
      if (out.key && out.key !== key) {
        key = out.key;
        history.replaceState(null, "", "/table/" + encodeURIComponent(key));
      }
      refresh();
    }

    role("login-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const { out } = await post("/api/login", { password: role("password").value });
      role("password").value = "";
      if (!out.ok) { say(out.error || "wrong password", "error"); return; }
      say("Logged in", "info");
      refresh();
    });
    role("logout").addEventListener("click", async () => { await post("/api/logout", {}); refresh(); });
    for (const b of document.querySelectorAll("[data-act]")) {
      b.addEventListener("click", () => {
        const what = b.dataset.act;
        if (what === "new" && !window.confirm("Start a new game at " + key + "? The game played is kept in the records as unfinished.")) return;
        control({ action: what });
      });
    }
    for (const b of document.querySelectorAll("[data-set]")) {
      b.addEventListener("click", () => {
        const what = b.dataset.set;
        control({ action: what, value: role(what).value });
      });
    }
    follow(() => refresh(), (m) => { if (m.tables.some((t) => t.key === key) || !m.keys.includes(key)) refresh(); });
    setInterval(() => { if (last && last.online) role("since").textContent = sinceText(last.last_move_at, last.ply); }, 1000);
  }

  /* A table of another café, read-only, from the floor it publishes. */
  function watchedTablePage(other) {
    const key = decodeURIComponent(location.pathname.split("/table/")[1] || "");
    const view = XoboBoard.createView(role("frame"));
    view.build();
    for (const r of ["login", "staff", "games-card"]) role(r).hidden = true;
    $("a.back").href = "/watch/" + encodeURIComponent(other);
    $("a.back").textContent = "XoBo café " + other;
    document.body.dataset.staff = "no";
    function render(m) {
      showWatch(m, other);
      const t = (m.tables || []).find((x) => x.key === key);
      if (!t) { role("message").textContent = other + " has no table " + key + " on its floor"; return; }
      document.title = "XoBo café " + other + ": " + key;
      role("title").textContent = key + " (watched)";
      const h = role("health");
      h.dataset.health = t.health; h.textContent = t.health_text;
      document.body.dataset.health = t.health;
      document.body.dataset.ply = String(t.ply);
      if (t.board && t.board.cells) view.render(t.board);
      role("turn").textContent = (t.title ? t.title + ": " : "") + turnText(t);
      role("since").textContent = t.online ? sinceText(t.last_move_at, t.ply) : "offline";
      const match = (m.matches || []).find((x) => x.local && x.local.includes(key) && x.state !== "cancelled");
      role("result").textContent = match ? matchText(match) : "";
      role("record").textContent = match ? match.moves.join(" ") : "–";
    }
    follow(render, render);
  }

  return { floorPage, tablePage, recordsPage };
})();
