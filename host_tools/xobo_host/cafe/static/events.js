/* The café's events: the staff's list (/events), an event's page for the staff
 * (/event/ID) and the room's screen (/screen/ID, read-only, no login). State from
 * /api/event/... (docs/events.md); the screen follows /api/event/ID/live (server-sent
 * events: the event, and its round's tables, drawn as the floor draws them:
 * miniature.js). Every name is put on the page as text, never as markup. Plain JS. */
"use strict";

window.XoboEvents = (function () {
  const $ = (sel, root) => (root || document).querySelector(sel);
  const role = (name, root) => $('[data-role="' + name + '"]', root);

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "text") e.textContent = v;
      else if (k.startsWith("data-")) e.dataset[k.slice(5).replace(/-([a-z])/g, (_, c) => c.toUpperCase())] = String(v);
      else if (k === "class") e.className = v;
      else e.setAttribute(k, v === true ? "" : String(v));
    }
    for (const c of children) if (c !== null && c !== undefined) e.append(c);
    return e;
  }

  async function post(path, body) {
    const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body) });
    let out = {};
    try { out = await r.json(); } catch (e) { out = { ok: false, error: "HTTP " + r.status }; }
    return { status: r.status, out };
  }

  function say(text, kind) {
    const m = role("message");
    if (!m) return;
    m.textContent = text;
    m.dataset.kind = kind || "info";
  }

  function loginForm(after) {
    const form = role("login-form");
    if (!form) return;
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const { out } = await post("/api/login", { password: role("password").value });
      role("password").value = "";
      if (!out.ok) { say(out.error || "wrong password", "error"); return; }
      say("Logged in", "info");
      after();
    });
  }

  const num = (x) => (Math.round(x * 100) / 100).toString();
  const ratingText = (r) => r ? num(r.mu) + " ± " + num(r.sigma) : "";
  const seatLabel = (s) => s.length > 2 ? s.charAt(0).toUpperCase() + s.slice(1) : s.toUpperCase();
  const stateText = { waiting: "waiting for a table", starting: "setting the board up",
    playing: "playing", over: "over" };

  function gameLine(g) {
    if (g.kind === "bye") return g.seats[0].name + ": bye (1 point)";
    if (g.kind === "free") return g.seats[0].name + ": free round";
    return g.seats.map((s) => seatLabel(s.seat) + " " + s.name).join(" – ");
  }

  function statusOf(g) {
    if (g.state === "over") return g.result;
    if (g.state === "playing" && !g.online) return "board offline: the event waits for it";
    return stateText[g.state] || g.state;
  }

  function standingsTable(rows, tbody) {
    tbody.innerHTML = "";
    for (const r of rows) {
      tbody.append(el("tr", { "data-player": r.id, "data-name": r.name },
        el("td", { text: r.rank + (r.shared ? "=" : "") }),
        el("td", { text: r.name }),
        el("td", { class: "num", text: num(r.points) }),
        el("td", { class: "num", text: num(r.buchholz) }),
        el("td", { class: "num", text: num(r.sb) }),
        el("td", { class: "num", title: "rating ± its uncertainty (" + r.rating.games + " rated games)",
          text: ratingText(r.rating) })));
    }
  }

  /* ------------------------------------------------------------------ the staff's list */
  function listPage() {
    async function refresh() {
      const r = await fetch("/api/event/list");
      const out = await r.json();
      const staff = r.ok;
      document.body.dataset.staff = staff ? "yes" : "no";
      role("login").hidden = staff;
      role("staff").hidden = !staff;
      if (!staff) return;
      const ul = role("events");
      ul.innerHTML = "";
      for (const ev of out.events) {
        ul.append(el("li", { "data-event": ev.id, "data-state": ev.state },
          el("a", { href: "/event/" + ev.id, text: ev.name }),
          " · " + ev.game + " · " + ev.format + " · " + (ev.state === "registration" ? "registration"
            : ev.state === "finished" ? "finished" : "round " + ev.current_round + " of " + ev.rounds) + " · ",
          el("a", { href: "/screen/" + ev.id, text: "screen" })));
      }
      if (!out.events.length) ul.append(el("li", { text: "no event yet" }));
    }
    role("create-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const settings = {};
      for (const part of role("settings").value.split(/[\s,]+/)) {
        if (!part) continue;
        const [k, v] = part.split("=");
        settings[k] = v;
      }
      const { out } = await post("/api/event/new", {
        name: role("name").value, game: role("game").value, format: role("format").value,
        rounds: Number(role("rounds").value), tables: role("tables").value, settings,
        auto: role("auto").checked });
      if (!out.ok) { say(out.error || "refused", "error"); return; }
      location.href = "/event/" + out.id;
    });
    loginForm(refresh);
    refresh();
  }

  /* ------------------------------------------------------------------ an event (staff) */
  function eventPage() {
    const eid = Number(location.pathname.split("/")[2]);
    let view = null;

    async function act(body) {
      const { out } = await post("/api/event/" + eid + "/action", body);
      if (!out.ok) { say(out.error || "refused", "error"); return null; }
      say(out.reply || "done", "info");
      refresh();
      return out;
    }

    function gameRow(g, current) {
      const li = el("li", { class: "game-row", "data-game": g.id, "data-board": g.board,
        "data-state": g.state, "data-kind": g.kind, "data-table": g.table || "" });
      li.append(el("span", { class: "board-no", text: "Board " + g.board }),
        el("span", { class: "table", text: g.table_name ? "table " + g.table_name : "" }),
        el("span", { class: "players", text: gameLine(g) }),
        el("span", { class: "status", text: statusOf(g) }));
      if (g.note) li.append(el("span", { class: "note", text: g.note }));
      if (g.how === "staff") li.append(el("span", { class: "note", text: "corrected" }));
      if (g.record_id) li.append(el("a", { class: "small button", href: "/api/records/" + g.record_id + ".txt", text: "record" }));
      if (g.kind !== "game" && g.kind !== "forfeit") return li;
      const tools = el("div", { class: "row tools" });
      if (current && g.state === "playing") {
        for (const s of g.seats) {
          const b = el("button", { class: "small danger", "data-resign": s.seat, text: "Resign " + s.name });
          b.addEventListener("click", () => {
            if (window.confirm(s.name + " resigns at board " + g.board + "?")) act({ action: "resign", game: g.id, seat: s.seat });
          });
          tools.append(b);
        }
      }
      if (current && g.state !== "over") {
        const again = el("button", { class: "small", "data-restart": g.id, text: "Start again" });
        again.addEventListener("click", () => act({ action: "restart_game", game: g.id }));
        const move = el("button", { class: "small", "data-move": g.id, text: "Another table" });
        move.addEventListener("click", () => act({ action: "move_table", game: g.id }));
        if (g.table) tools.append(again);
        tools.append(move);
      }
      // a correction: each seat's place, who corrects, why
      const form = el("form", { class: "row correct", "data-correct": g.id });
      const selects = g.seats.map((s) => {
        const sel = el("select", { "data-seat": s.seat, "aria-label": s.name + "'s place" });
        for (let p = 1; p <= g.seats.length; p++) sel.append(el("option", { value: p, text: p + (p === 1 ? "st" : p === 2 ? "nd" : "rd") }));
        if (s.place) sel.value = String(s.place);
        return [s, sel];
      });
      for (const [s, sel] of selects) form.append(el("label", { text: s.name }), sel);
      const by = el("input", { "data-role": "by", placeholder: "your name", maxlength: 40, size: 10 });
      const why = el("input", { "data-role": "why", placeholder: "why", maxlength: 200, size: 16 });
      form.append(by, why, el("button", { class: "small", type: "submit", text: "Correct" }));
      // (a live update rebuilds the rows: a form being filled in keeps what was chosen)
      form.addEventListener("input", () => { form.dataset.dirty = "yes"; });
      form.addEventListener("change", () => { form.dataset.dirty = "yes"; });
      form.addEventListener("submit", (e) => {
        e.preventDefault();
        delete form.dataset.dirty;
        act({ action: "correct", game: g.id, places: selects.map(([, sel]) => Number(sel.value)),
          by: by.value, why: why.value });
      });
      tools.append(form);
      li.append(tools);
      return li;
    }

    function render(v) {
      view = v;
      document.title = "XoBo café event: " + v.name;
      document.body.dataset.staff = v.staff ? "yes" : "no";
      document.body.dataset.state = v.state;
      document.body.dataset.round = String(v.round);
      role("title").textContent = v.name;
      role("login").hidden = !!v.staff;
      role("staff").hidden = !v.staff;
      role("screen-link").href = "/screen/" + eid;
      role("summary").textContent = v.title + " · " + v.format + " · " +
        (v.state === "registration" ? v.rounds + " rounds, registration open"
          : v.state === "finished" ? "finished after " + v.round + " rounds"
            : "round " + v.round + " of " + v.rounds);
      if (!v.staff) return;
      role("start").hidden = v.state !== "registration";
      role("pair-next").hidden = v.state !== "running" || v.auto;
      role("finish").hidden = v.state !== "running";
      role("auto").checked = v.auto;
      if (document.activeElement !== role("rounds-input")) role("rounds-input").value = v.rounds;
      if (document.activeElement !== role("tables-input")) role("tables-input").value = v.tables.join(" ");
      role("free-tables").textContent = v.free_tables.length ? "free tables now: " + v.free_tables.join(", ") : "no free table now";
      role("problem").textContent = v.problem || "";
      for (const name of ["pairings.csv", "results.csv", "standings.csv", "records.txt", "event.zip"]) {
        const a = $('[data-export="' + name + '"]');
        if (a) a.href = "/api/event/" + eid + "/export/" + name;
      }
      // players
      const ul = role("players");
      ul.innerHTML = "";
      for (const p of v.players) {
        const out = p.withdrawn_round !== null;
        const li = el("li", { "data-player": p.id, "data-checked-in": p.checked_in ? "yes" : "no",
          "data-withdrawn": out ? "yes" : "no" }, el("span", { class: "name", text: p.name }));
        if (p.entry_round > 1) li.append(el("span", { class: "note", text: "from round " + p.entry_round }));
        if (out) li.append(el("span", { class: "note", text: "withdrawn from round " + p.withdrawn_round }));
        const check = el("button", { class: "small", "data-check-in": p.id, text: p.checked_in ? "checked in ✓" : "check in" });
        check.addEventListener("click", () => act({ action: "check_in", player: p.id, value: !p.checked_in }));
        if (v.state === "registration" || !p.checked_in) li.append(check);
        if (v.state !== "registration" && !out) {
          const w = el("button", { class: "small danger", "data-withdraw": p.id, text: "withdraw" });
          w.addEventListener("click", () => { if (window.confirm("Withdraw " + p.name + "?")) act({ action: "withdraw", player: p.id }); });
          li.append(w);
        }
        if (out) {
          const back = el("button", { class: "small", "data-reinstate": p.id, text: "reinstate" });
          back.addEventListener("click", () => act({ action: "reinstate", player: p.id }));
          li.append(back);
        }
        if (v.state === "registration") {
          const rm = el("button", { class: "small danger", "data-remove": p.id, text: "remove" });
          rm.addEventListener("click", () => act({ action: "remove_player", player: p.id }));
          li.append(rm);
        }
        ul.append(li);
      }
      role("player-count").textContent = v.players.filter((p) => p.checked_in && p.withdrawn_round === null).length +
        " checked in of " + v.players.length;
      // this round
      const games = role("games");
      const filling = {};  // the correction forms the staff are filling in: their values, focus
      for (const f of games.querySelectorAll("form[data-correct][data-dirty]")) {
        const fields = Array.from(f.querySelectorAll("select, input"));
        filling[f.dataset.correct] = { values: fields.map((x) => x.value),
          focus: fields.indexOf(document.activeElement) };
      }
      games.innerHTML = "";
      for (const g of v.games) games.append(gameRow(g, true));
      for (const [id, kept] of Object.entries(filling)) {
        const f = games.querySelector('form[data-correct="' + id + '"]');
        if (!f) continue;
        const fields = f.querySelectorAll("select, input");
        kept.values.forEach((value, k) => { if (fields[k]) fields[k].value = value; });
        f.dataset.dirty = "yes";
        if (kept.focus >= 0 && fields[kept.focus]) fields[kept.focus].focus();
      }
      role("round-title").textContent = v.round ? "Round " + v.round : "Not started";
      // earlier rounds
      const hist = role("history");
      hist.innerHTML = "";
      for (const g of v.history.filter((x) => x.round !== v.round)) hist.append(gameRow(g, false));
      standingsTable(v.standings, role("standings"));
      const audit = role("corrections");
      audit.innerHTML = "";
      for (const c of v.corrections) {
        audit.append(el("li", { "data-correction": c.id, text: c.at.replace("T", " ").replace("Z", " UTC") +
          " · round " + c.round + " board " + c.board + " · by " + c.by_name + " (session " + c.session +
          ", " + c.address + ") · " + (c.before.places ? c.before.places.join("-") : "no result") + " → " +
          c.after.places.join("-") + " · " + c.why }));
      }
      if (!v.corrections.length) audit.append(el("li", { text: "no correction" }));
    }

    async function refresh() {
      const r = await fetch("/api/event/" + eid);
      const out = await r.json();
      if (!r.ok) { say(out.error || "no such event", "error"); return; }
      render(out);
    }

    role("add-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const name = role("new-player").value;
      if (await act({ action: "add_player", name, checked_in: role("new-checked").checked })) role("new-player").value = "";
    });
    role("start").addEventListener("click", () => act({ action: "start" }));
    role("pair-next").addEventListener("click", () => act({ action: "pair_next" }));
    role("finish").addEventListener("click", () => { if (window.confirm("Finish the event now?")) act({ action: "finish" }); });
    role("settings-form").addEventListener("submit", (e) => {
      e.preventDefault();
      act({ action: "update", rounds: Number(role("rounds-input").value), tables: role("tables-input").value,
        auto: role("auto").checked });
    });
    loginForm(refresh);
    // the page follows the event as the screen does (its stream), and refreshes on change
    const es = new EventSource("/api/event/" + eid + "/live");
    es.addEventListener("event", () => refresh());
    es.addEventListener("tables", () => { if (view && view.games.some((g) => g.state === "playing")) refresh(); });
    refresh();
  }

  /* ------------------------------------------------------------------ the room's screen */
  function screenPage() {
    const eid = Number(location.pathname.split("/")[2]);
    const cards = new Map();  // table key -> { el, canvas, mini, board }
    let view = null;
    let tables = new Map();   // table key -> its latest view
    const dirty = new Set();
    let frameAsked = false;

    function draw() {
      frameAsked = false;
      for (const key of dirty) {
        const c = cards.get(key), t = tables.get(key);
        if (!c || !t || !(t.board && t.board.cells)) continue;
        const board = JSON.stringify(t.board);
        if (board === c.board) continue;
        try {
          const drawn = c.mini.draw(t.board);
          if (drawn) { c.board = board; c.canvas.dataset.ply = String(t.ply); }
        } catch (e) {
          console.error("the miniature of " + key + " could not be drawn", e);
        }
        c.el.dataset.online = t.online ? "yes" : "no";
        c.el.dataset.ply = String(t.ply);
      }
      dirty.clear();
    }
    function askFrame() { if (!frameAsked) { frameAsked = true; requestAnimationFrame(draw); } }

    function renderGames() {
      const list = role("round-games");
      const keep = new Set();
      list.innerHTML = "";
      for (const g of view.games) {
        const li = el("li", { class: "screen-game", "data-game": g.id, "data-board": g.board,
          "data-state": g.state, "data-kind": g.kind, "data-table": g.table || "" });
        const head = el("div", { class: "screen-head" },
          el("span", { class: "board-no", text: g.kind === "game" ? "Board " + g.board : "" }),
          el("span", { class: "table", text: g.table_name ? "table " + g.table_name : (g.kind === "game" ? "waiting for a table" : "") }));
        li.append(head);
        const players = el("ol", { class: "seats" });
        for (const s of g.seats) {
          players.append(el("li", { "data-seat": s.seat, "data-name": s.name },
            el("span", { class: "seat", text: g.kind === "game" ? seatLabel(s.seat) : "" }),
            el("span", { class: "who", text: s.name }),
            el("span", { class: "pts", text: s.points !== undefined && g.state === "over" ? num(s.points) : "" })));
        }
        li.append(players);
        if (g.kind === "game" && g.table) {
          let c = cards.get(g.table);
          if (!c) {
            const canvas = el("canvas", { class: "mini-board", role: "img", "aria-label": "the board of table " + g.table });
            c = { el: el("div", { class: "miniature" }, canvas), canvas, mini: XoboMiniature.create(canvas, 204), board: "" };
            cards.set(g.table, c);
          }
          keep.add(g.table);
          li.append(c.el);
          dirty.add(g.table);
        }
        li.append(el("div", { class: "status", text: statusOf(g) }));
        list.append(li);
      }
      for (const key of [...cards.keys()]) if (!keep.has(key)) cards.delete(key);
      askFrame();
    }

    function render(v) {
      view = v;
      document.title = v.name + " · XoBo café";
      document.body.dataset.round = String(v.round);
      document.body.dataset.state = v.state;
      document.body.dataset.version = String(v.version);
      role("title").textContent = v.name;
      role("summary").textContent = v.title + " · " + (v.state === "registration" ? "starting soon"
        : v.state === "finished" ? "final standings after " + v.round + " rounds"
          : "round " + v.round + " of " + v.rounds);
      renderGames();
      standingsTable(v.standings, role("standings"));
      find();
    }

    function find() {
      const q = role("find").value.trim().toLowerCase();
      const out = role("found");
      for (const li of document.querySelectorAll(".screen-game")) li.classList.remove("found");
      for (const tr of role("standings").querySelectorAll("tr")) tr.classList.remove("found");
      if (!q || !view) { out.textContent = ""; return; }
      const hits = [];
      for (const g of view.games) {
        for (const s of g.seats) {
          if (!s.name.toLowerCase().includes(q)) continue;
          const li = $('.screen-game[data-game="' + g.id + '"]');
          if (li) li.classList.add("found");
          if (g.kind === "bye") hits.push(s.name + ": a bye this round");
          else if (g.kind === "free") hits.push(s.name + ": a free round");
          else hits.push(s.name + ": board " + g.board + (g.table_name ? ", table " + g.table_name : ", waiting for a table") +
            ", plays " + seatLabel(s.seat) + (g.seats[0].seat === s.seat ? " (moves first)" : ""));
        }
      }
      for (const tr of role("standings").querySelectorAll("tr")) {
        if ((tr.dataset.name || "").toLowerCase().includes(q)) tr.classList.add("found");
      }
      out.textContent = hits.length ? hits.slice(0, 6).join(" · ") : "no player of this round is called “" + role("find").value.trim() + "”";
    }
    role("find").addEventListener("input", find);

    const conn = role("conn");
    const es = new EventSource("/api/event/" + eid + "/live");
    es.addEventListener("event", (e) => {
      conn.dataset.state = "live"; conn.textContent = "live";
      render(JSON.parse(e.data));
    });
    es.addEventListener("tables", (e) => {
      const m = JSON.parse(e.data);
      for (const t of m.tables) { tables.set(t.key, t); dirty.add(t.key); }
      document.body.dataset.tables = String(m.version);
      askFrame();
    });
    es.onerror = () => { conn.dataset.state = "lost"; conn.textContent = "reconnecting…"; };
  }

  return { listPage, eventPage, screenPage };
})();
