/* XoBo board simulator page: draws what the firmware lights, sends physical actions.
 *
 * State arrives by server-sent events (/events, message "state": a snapshot with the LED
 * colours, the cube counts, the hand and the firmware's state); actions go to POST /action.
 * Plain JS, no build step, no network beyond this server. */
"use strict";

(function () {
  const LETTERS = "abcdefghijklmnopqrstuvwxyz";
  const LONG_PRESS_MS = 450;
  const MIN_PRESS_MS = 80;
  const $ = (sel, root) => (root || document).querySelector(sel);
  const role = (name) => $('[data-role="' + name + '"]');
  /* A snapshot comes up to 25 times a second while the board's lights pulse, and an element
   * written again is laid out and painted again even with the same words: the renderers
   * write only what changed (a lesson's pulsing lights cost Chromium 0.42 s of CPU a second
   * when every text was written at each snapshot). */
  const setText = (el, text) => { if (el.textContent !== text) el.textContent = text; };
  const setHidden = (el, hidden) => { if (el.hidden !== !!hidden) el.hidden = !!hidden; };
  const setData = (el, key, value) => { if (el.dataset[key] !== value) el.dataset[key] = value; };

  const ui = {
    grid: role("grid"), conn: role("conn"), hand: role("hand"), handCubes: role("hand-cubes"),
    handText: role("hand-text"), message: role("message"), turn: role("turn"),
    voina: role("voina"), result: role("result"), record: role("record"),
    position: role("position"), events: role("events"), legend: role("legend"),
    loadText: role("load-text"), loadError: role("load-error"), players: role("players"),
    game: role("game"), frame: $(".frame"),
  };

  let snap = null;
  let shownLegend = null;  // the game's legend last drawn
  let guideAsked = "";  // the game whose legend and How to play were asked for
  let lastError = "";
  let tool = "put";
  let typed = "";
  /* The board (its grid, cubes and LEDs) is drawn by board.js: one view of this page's frame. */
  let cursor = 40;
  const view = XoboBoard.createView(ui.frame, { onCell: (el, c) => wireCell(el, c), onBuild: (lay) => {
    const mid = Math.floor(lay.h / 2) * lay.w + Math.floor(lay.w / 2);
    setCursor(cursor < board.n && cells[cursor] && !cells[cursor].hidden ? cursor : mid, false);
  } });
  const board = view.board;
  const cells = view.cells;
  const cellName = view.cellName, parseCell = view.parseCell;

  function render(s) {
    snap = s;
    view.render(s);
    renderHand(s.hand || 0, s.box, s.cubes || 36, s.hand_pieces || [], (s.draw || {}).kinds || {});
    renderSettle(s);
    // the game's colours and How to play, asked for when the game changes (the page's first
    // /legend lists every game's colours)
    if (s.guide_key && s.guide_key !== guideAsked && s.mode !== "monitor") {
      guideAsked = s.guide_key;
      act({ action: "guide" }).then((r) => {
        if (!r.ok || guideAsked !== s.guide_key) return;
        if (r.legend && r.legend.length) { shownLegend = r.legend; renderLegend(r.legend); }
        renderGuide(r.guide || {});
      });
    }
    renderState(s.state || {}, s.say || "");
    renderLoading(s.loading);
    if (document.body.classList.contains("monitor") !== (s.mode === "monitor")) {
      document.body.classList.toggle("monitor", s.mode === "monitor");
    }
    setText(role("mode-title"), s.mode === "monitor"
      ? "monitor" + (s.device ? " · " + s.device : "") : "simulator");
    if (s.events && s.events.length) addEvents(s.events);
    if (s.last_error && s.last_error !== lastError) say("Firmware error: " + s.last_error, "error");
    lastError = s.last_error || "";
  }

  /* the hand: its pieces as they are (a game's kinds in their colours: the Brochs man lifted
   * is drawn as that man, last lifted on the right), else cubes */
  function renderHand(h, box, cubes, kinds, look) {
    const key = h + ":" + kinds.join(",");
    if (ui.hand.dataset.key !== key) {
      ui.hand.dataset.key = key;
      ui.hand.dataset.count = String(h);
      ui.handCubes.innerHTML = "";
      for (let i = Math.max(0, h - 8); i < h; i++) {
        const kind = kinds[i - (h - kinds.length)];
        const rgb = kind && look[kind] ? look[kind].rgb : "";
        ui.handCubes.insertAdjacentHTML("beforeend", '<i class="cube' + (rgb ? ' piece" style="--piece:#' + rgb + '" data-kind="' + kind : "") + '"></i>');
      }
    }
    // a game whose pieces are not counted (box null) has no box to speak of
    const inBox = box === undefined || box === null ? "" : " (" + box + " of " + cubes + " in the box)";
    const piece = box === undefined || box === null ? "piece" : "cube";  // XoBo counts its cubes
    setText(ui.handText, h === 0
      ? (box === 0 ? "No cube left in the box: all " + cubes + " are on the board; take some off"
        : "Hand empty: a click puts a " + piece + (inBox ? " from the box" + inBox : ""))
      : "Hand: " + h + " " + piece + (h === 1 ? "" : "s") + ", click cells to put them one by one" + inBox);
    if (ui.hand.classList.contains("full") !== h > 0) ui.hand.classList.toggle("full", h > 0);
  }

  /* the game's words from its host module (the backend's page_words, in the drawing): the
   * players' labels, how a game ends, the notation's rules, whether reserves are shown */
  const pageWords = () => (snap && snap.draw && snap.draw.words) || {};
  const label = (name) => (pageWords().labels || {})[String(name || "").toLowerCase()];

  function reserves(st) {
    const r = st.reserves;
    if (Array.isArray(r)) return { common: r[0], ns: r[1], ew: r[2] };
    if (r && typeof r === "object") {
      return { common: r.common, ns: r.ns !== undefined ? r.ns : r.NS, ew: r.ew !== undefined ? r.ew : r.EW };
    }
    const parts = String(st.position || "").split(/\s+/);
    return { common: parts[2], ns: parts[3], ew: parts[4] };
  }

  function renderLoading(loading) {
    const el = role("loading");
    setHidden(el, !loading);
    if (role("load").disabled !== !!loading) role("load").disabled = !!loading;
    if (!loading) return;
    const bar = $("progress", el);
    bar.max = loading.total;
    bar.value = loading.done;
    setText($("span", el), "Replaying the record: move " + loading.done + " of " + loading.total);
  }

  /* the players' names as people read them: the game's labels (XoBo's sides by their
   * edges), else the name */
  const playerText = (name) => label(name) || (name ? name[0].toUpperCase() + name.slice(1) : "–");

  function renderState(st, say) {
    const side = st.side !== undefined ? String(st.side) : String(st.position || "").split(/\s+/)[1];
    const over = st.result && st.result !== "*";
    setText(ui.turn, over ? "Game over" : playerText(side) + " to move");
    setData(ui.turn, "side", over ? "" : String(side || "").toLowerCase());
    const v = st.voina === true || st.voina === 1 || st.voina === "1" || st.voina === "yes";
    setHidden(ui.voina, !v || over);
    setText(ui.voina, "Voïna! " + (label(side) || "") + " is threatened and may regroup");
    setText(ui.result, over ? resultText(st) : "");
    setData(ui.result, "result", st.result || "*");
    renderPlayers(st, side, over);
    renderGames(st);
    renderInference(st, say);
    renderLearn(st, say);
    // the move the pieces wait for (the host's, the computer's), else the hint shown
    const toPlay = st.expect || (snap && snap.hint);
    const play = role("play");
    setHidden(play, !toPlay || readOnly());
    setText(play, "Play " + toPlay + " for me");
    setData(play, "move", toPlay || "");
    setData(play, "from", st.expect ? "expect" : toPlay ? "hint" : "");
    renderScore(st, over);
    if (st.settings && typeof st.settings === "object") {  // the simulator's snapshot has them
      Object.assign(settings, st.settings);
      renderSettings();
    }
    const words = pageWords();
    const hasReserves = st.reserves !== undefined || st.game === undefined || !!words.reserves;
    setHidden(role("reserves"), !hasReserves);
    if (hasReserves) {
      const r = reserves(st);
      setText(role("res-common"), String(r.common !== undefined ? r.common : "–"));
      setText(role("res-ns"), String(r.ns !== undefined ? r.ns : "–"));
      setText(role("res-ew"), String(r.ew !== undefined ? r.ew : "–"));
    }
    // the rules of the game's record and position notation, where it has them (XoBo's N2, N3)
    for (const el of document.querySelectorAll("[data-notation-rule]")) {
      const rule = (words.notation || [])[Number(el.dataset.notationRule)] || "";
      setText(el, rule);
      setHidden(el, !rule);
    }
    setText(ui.record, st.record || "");
    setText(ui.position, st.position || "");
  }

  /* a player's dot: the colour its cells light, or, for a game whose pieces have their own
   * colours (Brochs's black and natural wood men: draw.players), the piece ringed in its
   * light */
  function paintDot(dot, k) {
    const light = ((snap && snap.colours) || [])[k];
    const piece = ((snap && snap.draw && snap.draw.players) || [])[k];
    if (piece) {
      dot.style.background = "#" + piece;
      if (light) dot.style.boxShadow = "0 0 0 2px #" + light;
      dot.dataset.piece = piece;
    } else if (light) {
      dot.style.background = "#" + light;
    }
  }

  /* the game's players, each in its colour (the board layer's player colour), the one to
   * move marked, the winner crowned */
  function renderPlayers(st, side, over) {
    const names = st.players || [];
    const colours = (snap && snap.colours) || [];
    const pieces = (snap && snap.draw && snap.draw.players) || [];
    const key = names.join(",") + "|" + colours.join(",") + "|" + pieces.join(",");
    if (ui.players.dataset.key !== key) {
      ui.players.dataset.key = key;
      ui.players.innerHTML = "";
      names.forEach((name, k) => {
        const li = document.createElement("li");
        li.dataset.player = name;
        li.innerHTML = '<i class="dot"></i><span></span>';
        paintDot(li.firstChild, k);
        li.lastChild.textContent = playerText(name);
        ui.players.appendChild(li);
      });
    }
    for (const li of ui.players.children) {
      const name = li.dataset.player;
      const toMove = !over && name === side, winner = !!over && name === st.result;
      if (li.classList.contains("to-move") !== toMove) li.classList.toggle("to-move", toMove);
      if (li.classList.contains("winner") !== winner) li.classList.toggle("winner", winner);
    }
  }

  /* the game menu: the games this board can play (the backend's games_menu: the installed
   * games that fit the board's grid) */
  function renderGames(st) {
    const games = (snap && snap.games) || [];
    const key = games.map((g) => g.name).join(",");
    if (ui.game.dataset.key !== key) {
      ui.game.dataset.key = key;
      ui.game.innerHTML = "";
      for (const g of games) {
        const o = document.createElement("option");
        o.value = g.name;
        o.textContent = g.title;
        ui.game.appendChild(o);
      }
    }
    setHidden(role("games"), !games.length);
    if (st.game && ui.game.value !== st.game && document.activeElement !== ui.game) ui.game.value = st.game;
    const title = (st.title || "XoBo") + " · board simulator";
    if (document.title !== title) document.title = title;
  }

  /* a score per player ({"light": 3, "dark": 5}, a game layer's state_extra), in the
   * players' order, in words: "Light 3 · Dark 5" */
  function scoreWords(names, score) {
    return names.map((name, k) => playerText(name) + " " + score[k]).join(" · ");
  }

  function scoreOf(st) {
    const names = st.players || [];
    const sc = st.score;
    if (!sc || typeof sc !== "object") return null;
    const list = Array.isArray(sc) ? sc : names.map((name) => sc[name]);
    return list.length === names.length && list.every((v) => typeof v === "number") ? list : null;
  }

  function renderScore(st, over) {
    const el = role("score");
    const score = scoreOf(st);
    setHidden(el, !score || over);
    if (!score) { setText(el, ""); return; }
    setText(el, (st.score_label || "Score") + ": " + scoreWords(st.players, score) +
      (typeof st.target === "number" ? " (target " + st.target + ")" : ""));
  }

  /* how a game ended, in words: the winner, then how (the board layer's result text after
   * the winner, in the game's words with the rules they cite: its host module's RESULT_WORDS,
   * where {winner} and {loser} are the players' labels) */
  function resultText(st) {
    if (st.result === "draw") return "Draw";
    const names = st.players || [];
    const words = String(st.result_text || "").trim().split(/\s+/);
    let how = words[0] === st.result ? words.slice(1).join(" ") : "";
    const known = pageWords().results || {};
    if (known[how] !== undefined) {
      const others = names.filter((n) => n !== st.result);
      how = known[how].replace(/\{winner\}/g, playerText(st.result))
        .replace(/\{loser\}/g, others.length === 1 ? playerText(others[0]) : "the loser");
    }
    // a final score, one number per player in their order ('red 2-1-1'): named
    const m = /^\d+(-\d+)+$/.exec(how);
    const nums = m ? how.split("-").map(Number) : null;
    if (nums && nums.length === names.length) {
      how = scoreWords(names, nums) + " corners: the highest score nobody else has wins (XE2)";
    }
    else if (scoreOf(st)) {  // 'light points' and the score: 'Light wins (points): ...'
      return playerText(st.result) + " wins" + (how ? " (" + how + ")" : "") + ": " +
        scoreWords(names, scoreOf(st));
    }
    return playerText(st.result) + " wins" + (how ? ": " + how : "");
  }

  const pieceWord = () => (snap && snap.cubes ? "cube" : "piece");  // a counted set: cubes
  const SEES = {
    progress: () => "move in progress", complete: () => "move complete, committing…",
    "wait-longer": () => "complete: press ok or wait (it could still grow)",
    unknown: () => "unknown situation", fix: () => "fix the board",
    restore: () => "restore the " + pieceWord() + "s",
    over: () => "the game is over: the " + pieceWord() + "s may be moved freely",
  };
  /* "How to play": the game's lessons, each its diagram (the rules pages' own SVG, made by
   * the server from the game's geometry: xobo_host.sim.diagrams) and its words */
  let shownGuide = "";
  function renderGuide(g) {
    const key = g && g.game ? g.game + ":" + g.steps.length : "";
    if (key === shownGuide) return;
    shownGuide = key;
    const card = role("howto");
    card.hidden = !key;
    if (!key) return;
    role("howto-game").textContent = g.title;
    const link = role("howto-rules");  // the rules page, served by the simulator (/docs/...)
    link.href = "/" + g.rules;
    role("howto-rules-game").textContent = g.title;
    role("howto-rules-file").textContent = g.rules;
    role("rules-link").href = "/" + g.rules;
    const list = role("howto-steps");
    list.innerHTML = "";
    for (const step of g.steps) {
      const li = document.createElement("li");
      const pic = document.createElement("figure");
      pic.className = "diagram";
      pic.innerHTML = step.svg;  // the server's own drawing (no text of the user's in it)
      const svg = pic.querySelector("svg");
      if (svg) { svg.setAttribute("role", "img"); svg.setAttribute("aria-label", step.title + ": a diagram of the position"); }
      const text = document.createElement("div");
      text.className = "howto-text";
      text.innerHTML = "<b></b> <span></span>";
      text.firstChild.textContent = step.title[0].toUpperCase() + step.title.slice(1) + ".";
      text.lastChild.textContent = step.words;
      li.appendChild(pic);
      li.appendChild(text);
      list.appendChild(li);
    }
  }

  /* The board waits for the pieces to stay still before it commits a move (the settle time,
   * serial `set settle`): a bar fills meanwhile (a CSS animation of the wait's length, started
   * once: the snapshot does not change while it fills) and the words say that ok commits now;
   * a click made meanwhile waits for the commit (the backend holds it), and is named. */
  let shownSettle = "";
  const pendingClicks = [];
  function renderSettle(s) {
    const el = role("settle");
    const w = s && s.settle;
    const key = w ? [w.state, w.since, w.move, pendingClicks.join(" ")].join("|") : "";
    if (key === shownSettle) return;
    const restart = !w || !shownSettle || shownSettle.split("|")[1] !== String(w.since);
    shownSettle = key;
    setHidden(el, !w || readOnly());
    if (!w) return;
    setData(el, "state", w.state);
    const secs = (w.ms / 1000).toFixed(1) + " s";
    let text = w.state === "unknown"
      ? "The board waits " + secs + " for the " + pieceWord() + "s to stay still: what it sees is no move yet"
      : (w.move ? w.move + ": " : "") + "the board plays it once the " + pieceWord() +
        "s stay still for " + secs + (w.state === "wait-longer" ? " (the move could still grow)" : "") +
        " · ok plays it now";
    if (pendingClicks.length) text += " · then " + pendingClicks.join(", ");
    setText(role("settle-text"), text);
    if (restart) {
      const bar = el.querySelector(".settle-bar i");
      bar.style.animation = "none";
      void bar.offsetWidth;  // the animation starts again with this wait
      bar.style.animation = "settle-fill " + w.ms + "ms linear forwards";
    }
  }

  /* the learn mode (serial learn): the lesson's words in their own card, its buttons */
  const LEARN_INTRO = role("learn-words") ? role("learn-words").textContent : "";
  function renderLearn(st, say) {
    const learning = !!st.learn;
    const card = role("learn-card");
    setData(card, "learning", learning ? "yes" : "no");
    setHidden(role("learn"), learning || readOnly());
    setHidden(role("learn-next"), !learning || st.learn === "learn done" || readOnly());
    setHidden(role("learn-off"), !learning || readOnly());
    // the lesson's pieces set out with one click (the board's words say what by hand)
    setHidden(role("learn-setup"), !learning || !(snap && snap.setup) || readOnly());
    setText(role("learn-progress"), !learning ? "" : st.learn === "learn done"
      ? "course complete" : "lesson " + st.learn.split(" ")[1]);
    setText(role("learn-words"), learning ? say : LEARN_INTRO);
  }

  function renderInference(st, say) {
    const el = role("inference");
    const inf = st.inference || "match";
    setData(el, "state", inf);
    // the firmware's own words first (what is left of a move, the regroup to touch, the
    // computer's move, a move offered to ok); the state's name when it has none
    let text = say || (SEES[inf] ? SEES[inf]() : "");
    if (st.expect && !say) text = (text ? text + " · " : "") + "expecting " + st.expect;
    if (st.learn) {  // the lesson's words name the pieces to put and take themselves
      setText(el, text);
      return;
    }
    const fill = st.fill || [], clear = st.clear || [], tall = st.fill_heights || {};
    const fillText = fill.map(c => (tall[c] ? c + " (a stack of " + tall[c] + ")" : c));
    if (fill.length) text += " · put back: " + fillText.join(" ");
    if (clear.length) text += " · take off: " + clear.join(" ");
    const heights = st.heights || {};
    const heightText = Object.keys(heights).sort().map(c => c + ": make it " +
      (heights[c] === 1 ? "a single cube" : "a stack of " + heights[c]));
    if (heightText.length) text += " · " + heightText.join(" · ");
    setText(el, text);
  }

  function addEvents(list) {
    let settingChanged = false;
    for (const item of list) {
      const li = document.createElement("li");
      const line = Array.isArray(item) ? item[1] : String(item);
      // [seq, line, kind]: the kind says what happened (the line is only shown)
      const kind = Array.isArray(item) ? item[2] : "";
      if (kind === "setting" || kind === "game") settingChanged = true;
      li.textContent = line.replace(/^event\s+/, "");
      li.title = line;
      ui.events.insertBefore(li, ui.events.firstChild);
    }
    while (ui.events.children.length > 40) ui.events.removeChild(ui.events.lastChild);
    if (settingChanged) readSettings();
  }

  /* ---------------------------------------------------------------- play against the computer
   * The panel shows the board's own settings (serial `settings`), read at load and after each
   * `event setting …` (a `set` from here or the console, or the hint button held 1.5 s), and
   * changes them with serial `set opponent …` / `set level …`. */
  const settings = {};
  let settingsReading = null;
  let shownVs = null;  // "opponent level" last shown: a change is also said under the board

  function readSettings() {
    if (readOnly()) return Promise.resolve();
    if (settingsReading) return settingsReading;
    settingsReading = act({ action: "command", line: "settings" }).then((r) => {
      for (const line of r.reply || []) {
        const m = /^ok (\S+) (\S+)/.exec(line);
        if (m && m[1] !== "end") settings[m[1]] = m[2];
      }
      renderSettings();
    }).finally(() => { settingsReading = null; });
    return settingsReading;
  }

  /* the opponent's choices are the game's players, the levels its computer's */
  function renderVsChoices() {
    const games = (snap && snap.games) || [];
    const st = (snap && snap.state) || {};
    const game = games.find((g) => g.name === st.game);
    if (!game) return;
    const seg = role("opponent");
    const key = game.name;
    if (seg.dataset.key !== key) {
      seg.dataset.key = key;
      seg.dataset.players = String(game.players.length);
      seg.innerHTML = '<button role="radio" data-opponent="off" aria-checked="false" title="set opponent off: the players play each other">Off</button>';
      game.players.forEach((name, k) => {
        const b = document.createElement("button");
        b.setAttribute("role", "radio");
        b.dataset.opponent = name;
        b.setAttribute("aria-checked", "false");
        b.title = "set opponent " + name + ": the computer plays " + playerText(name);
        b.innerHTML = '<i class="dot"></i>';
        paintDot(b.firstChild, k);
        b.appendChild(document.createTextNode(playerText(name)));
        seg.appendChild(b);
      });
      // three players: the computer may play two of them (set opponent yellow+green)
      if (game.players.length > 2) {
        game.players.forEach((a, i) => game.players.forEach((z, j) => {
          if (j <= i) return;
          const b = document.createElement("button");
          b.setAttribute("role", "radio");
          b.dataset.opponent = a + "+" + z;
          b.setAttribute("aria-checked", "false");
          b.title = "set opponent " + a + "+" + z + ": the computer plays " + playerText(a) +
            " and " + playerText(z);
          for (const k of [i, j]) {
            const dot = document.createElement("i");
            dot.className = "dot";
            const rgb = (snap.colours || [])[k];
            if (rgb) dot.style.background = "#" + rgb;
            b.appendChild(dot);
          }
          b.appendChild(document.createTextNode(playerText(a) + " + " + playerText(z)));
          seg.appendChild(b);
        }));
      }
      wireOpponents();
      // the hint button's long press cycles three of the choices: say which
      role("vs-note").innerHTML = game.players.length > 2
        ? "On the board: hold <b>hint</b> 1.5 s to cycle off → the two players not to move → " +
          "the player to move; the other pairs here or with <code>set opponent</code>."
        : "On the board: hold <b>hint</b> 1.5 s to cycle off → the side not to move → the " +
          "side to move.";
      ui.loadText.placeholder = "a record or a position of " + game.title + ", e.g. " +
        (st.position || "");
      const level = role("level");
      level.innerHTML = "";
      for (const lv of game.levels || []) {
        const o = document.createElement("option");
        o.value = lv;
        o.textContent = lv;
        level.appendChild(o);
      }
    }
  }

  function renderSettings() {
    renderVsChoices();
    const opp = settings.opponent || "off";
    for (const b of document.querySelectorAll("[data-opponent]")) {
      const checked = b.dataset.opponent === opp ? "true" : "false";
      if (b.getAttribute("aria-checked") !== checked) b.setAttribute("aria-checked", checked);
    }
    const level = role("level");
    if (settings.level && level.value !== settings.level) level.value = settings.level;
    setData(role("vs"), "computer", opp);
    const now = opp + " " + (settings.level || "");
    if (shownVs !== null && now !== shownVs) {
      say(opp === "off" ? "Two players: the computer does not play"
        : "The computer plays " + opp.split("+").map(playerText).join(" and ") + " at level " +
          (settings.level || "?"), "info");
    }
    shownVs = settings.opponent ? now : null;
  }

  async function setSetting(key, value) {
    const vs = role("vs");
    vs.dataset.busy = "1";
    const r = await act({ action: "command", line: "set " + key + " " + value });
    vs.dataset.busy = "";
    const m = /^ok (\S+) (\S+)/.exec((r.reply || [])[0] || "");
    if (m) settings[m[1]] = m[2];
    renderSettings();
  }

  function wireOpponents() {
    for (const b of document.querySelectorAll("[data-opponent]")) {
      b.addEventListener("click", () => { setSetting("opponent", b.dataset.opponent); b.blur(); });
    }
  }

  function wireVs() {
    wireOpponents();
    role("level").addEventListener("change", (ev) => setSetting("level", ev.target.value));
    ui.game.addEventListener("change", async (ev) => {
      const name = ev.target.value;
      ev.target.blur();
      const r = await act({ action: "game", name });
      if (r.ok) {
        for (const k of Object.keys(settings)) delete settings[k];
        say("Now playing " + ((snap.games || []).find((g) => g.name === name) || {}).title, "info");
        readSettings();
      }
    });
  }

  /* ---------------------------------------------------------------- server I/O */
  let msgTimer = null;
  function say(text, kind) {
    ui.message.textContent = text || "";
    ui.message.dataset.kind = kind || "info";
    clearTimeout(msgTimer);
    if (text) msgTimer = setTimeout(() => { ui.message.textContent = ""; }, 4000);
  }

  /* actions go one after the other, in the order the person made them */
  let queue = Promise.resolve();
  function act(body) {
    const p = queue.then(() => send(body));
    queue = p.catch(() => {});
    return p;
  }

  async function send(body) {
    let reply;
    try {
      const res = await fetch("/action", {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
      });
      reply = await res.json();
    } catch (err) {
      say("The simulator does not answer: " + err, "error");
      return { ok: false, error: String(err) };
    }
    if (!reply.ok) say(reply.error || (reply.reply || []).join(" ") || "refused", "error");
    return reply;
  }

  function connect() {
    const es = new EventSource("/events");
    es.addEventListener("state", (ev) => {
      // every snapshot says "live": written only when it was not (a rewritten text is laid
      // out again, 16 times a second while lights pulse)
      setData(ui.conn, "state", "live");
      setText(ui.conn, "live");
      render(JSON.parse(ev.data));
    });
    es.onerror = () => { setData(ui.conn, "state", "lost"); setText(ui.conn, "reconnecting…"); };
    fetch("/state").then((r) => r.json()).then((s) => { if (!snap) render(s); readSettings(); })
      .catch(() => {});
    fetch("/legend").then((r) => r.json()).then((items) => { if (!shownLegend) renderLegend(items); })
      .catch(() => {});
  }

  function renderLegend(items) {
    ui.legend.innerHTML = "";
    if (!items || !items.length) {
      ui.legend.innerHTML = '<li class="none">The firmware publishes no colour legend yet.</li>';
      return;
    }
    for (const it of items) {
      const li = document.createElement("li");
      const pat = String(it.pattern || "steady").split(" ")[0];
      li.innerHTML = '<i class="swatch"></i><span class="meaning"></span><small></small>';
      li.children[0].style.setProperty("--led", "#" + it.rgb);
      li.children[0].dataset.pattern = pat;
      li.children[1].textContent = it.meaning || it.name;
      li.children[2].textContent = it.pattern || "";
      ui.legend.appendChild(li);
    }
  }

  /* ---------------------------------------------------------------- physical actions */
  const readOnly = () => snap && snap.mode === "monitor";

  function cellAction(c, how) {
    if (readOnly()) return;
    setCursor(c, false);
    const name = cellName(c);
    const kind = how === "lift" || how === "take" ? how : "put";
    if (kind === "lift" && tool === "lift") setTool("put");
    // while the board waits to commit a move, a click waits for it: named under the board
    const shown = cells[c].dataset.gameCell || name;
    const waiting = snap && snap.settle && snap.settle.state === "complete";
    if (waiting) { pendingClicks.push(shown); renderSettle(snap); }
    act({ action: kind, cell: name }).finally(() => {
      if (!waiting) return;
      pendingClicks.splice(pendingClicks.indexOf(shown), 1);
      renderSettle(snap);
    });
  }

  function wireCell(el, c) {
    let timer = null;
    let longDone = false;
    el.addEventListener("pointerdown", (ev) => {
      if (ev.button !== 0) return;
      longDone = false;
      clearTimeout(timer);
      timer = setTimeout(() => { longDone = true; cellAction(c, "lift"); }, LONG_PRESS_MS);
    });
    const cancel = () => { clearTimeout(timer); timer = null; };
    el.addEventListener("pointerleave", cancel);
    el.addEventListener("pointercancel", cancel);
    el.addEventListener("pointerup", (ev) => {
      if (ev.button !== 0) return;
      const wasPending = timer !== null;
      cancel();
      if (longDone || !wasPending) return;
      cellAction(c, ev.shiftKey ? "take" : tool);
    });
    el.addEventListener("contextmenu", (ev) => {
      ev.preventDefault();
      cancel();
      if (!longDone) cellAction(c, "lift");
      longDone = false;
    });
  }

  function setTool(name) {
    tool = name;
    for (const b of document.querySelectorAll("[data-tool]")) {
      b.setAttribute("aria-pressed", b.dataset.tool === name ? "true" : "false");
    }
  }

  function wireButtons() {
    for (const b of document.querySelectorAll("[data-button]")) {
      const name = b.dataset.button;
      let down = false;
      let since = 0;
      const press = (ev) => {
        if (ev) ev.preventDefault();
        if (down || readOnly()) return;
        down = true;
        since = performance.now();
        b.classList.add("down");
        // a click held for the move before it waits in the queue: the buttons do not wait
        // behind it (ok is what plays that move now)
        (pendingClicks.length ? send : act)({ action: "press", button: name });
      };
      const release = () => {
        if (!down) return;
        down = false;
        // a real press lasts longer than the firmware's debounce: keep short taps >= 80 ms
        const wait = Math.max(0, MIN_PRESS_MS - (performance.now() - since));
        setTimeout(() => {
          b.classList.remove("down");
          (pendingClicks.length ? send : act)({ action: "release", button: name });
        }, wait);
      };
      b.addEventListener("pointerdown", press);
      b.addEventListener("pointerup", () => { release(); b.blur(); });
      b.addEventListener("pointerleave", release);
      b.addEventListener("pointercancel", release);
      b.addEventListener("contextmenu", (ev) => ev.preventDefault());
      b.addEventListener("keydown", (ev) => { if (ev.key === " " || ev.key === "Enter") { ev.stopPropagation(); press(ev); } });
      b.addEventListener("keyup", (ev) => { if (ev.key === " " || ev.key === "Enter") { ev.stopPropagation(); release(); } });
      buttonHandlers[name] = { press, release };
    }
    for (const b of document.querySelectorAll("[data-tool]")) {
      b.addEventListener("click", () => { setTool(b.dataset.tool); b.blur(); });
    }
    role("drop").addEventListener("click", () => act({ action: "drop" }));
    role("copy-record").addEventListener("click", () => copy(ui.record.textContent, "Record copied"));
    role("copy-position").addEventListener("click", () => copy(ui.position.textContent, "Position copied"));
    role("new").addEventListener("click", () => {
      if (window.confirm("Start a new game? The " + pieceWord() + "s are swept off the board.")) act({ action: "new" });
    });
    role("power-cut").addEventListener("click", async () => {
      const r = await act({ action: "power_cut" });
      // what the board said as it came back (its saved game resumed, or why not)
      if (r.ok) say("Power cut and restored: " + (r.boot || "the board restarted"),
        r.fallback ? "error" : "info");
    });
    role("load").addEventListener("click", load);
    for (const [name, line] of [["learn", "learn"], ["learn-next", "learn next"],
                                ["learn-off", "learn off"]]) {
      role(name).addEventListener("click", async (ev) => {
        ev.currentTarget.blur();
        const r = await act({ action: "command", line });
        if (r.ok && name === "learn-off") say("Back to your game: put the pieces as lit", "info");
      });
    }
    role("learn-setup").addEventListener("click", async (ev) => {
      ev.currentTarget.blur();
      const r = await act({ action: "setup" });
      if (r.ok) say("The lesson's " + pieceWord() + "s are set out", "info");
    });
    role("play").addEventListener("click", async (ev) => {
      ev.currentTarget.blur();
      const r = await act({ action: "play" });
      if (r.ok) say("Played " + r.played + " with the " + pieceWord() + "s: the board commits it when they stay still", "info");
    });
    role("console").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const input = role("console-input");
      const line = input.value.trim();
      if (!line) return;
      const reply = await act({ action: "command", line });
      const out = role("console-output");
      out.textContent = "> " + line + "\n" + (reply.reply || [reply.error || ""]).join("\n");
      input.select();
    });
    role("load-file").addEventListener("change", (ev) => {
      const f = ev.target.files && ev.target.files[0];
      if (!f) return;
      f.text().then((t) => { ui.loadText.value = t; load(); });
      ev.target.value = "";
    });
  }
  const buttonHandlers = {};

  async function load() {
    ui.loadError.textContent = "";
    say("Loading…", "info");
    const text = ui.loadText.value;
    const reply = await act({ action: "load", text });
    if (reply.ok) {
      say(reply.loaded === "record" ? "Record loaded (" + reply.moves + " moves)" : "Position loaded", "info");
    } else {
      ui.loadError.textContent = reply.error || (reply.reply || []).join(" ");
    }
  }

  async function copy(text, done) {
    try {
      await navigator.clipboard.writeText(text);
    } catch (err) {
      const ta = document.createElement("textarea");
      ta.value = text;
      document.body.appendChild(ta);
      ta.select();
      document.execCommand("copy");
      ta.remove();
    }
    say(done, "info");
  }

  /* ---------------------------------------------------------------- keyboard */
  function setCursor(c, show) {
    for (const el of document.querySelectorAll(".cell.cursor")) el.classList.remove("cursor");
    cursor = c;
    if (show !== false) cells[c].classList.add("cursor");
  }

  const KEY_BUTTON = { o: "ok", u: "undo", "?": "hint" };

  /* the game's grid in its own notation: its files and ranks (the board's area) */
  function gameSize() {
    const area = (snap && snap.state && snap.state.area) || {};
    return { w: area.width || board.w, h: area.height || board.h };
  }

  /* why a typed cell is none of the game's: its name, the game's, and the cells it has */
  function outsideWords(name) {
    const names = Array.from(board.gameCells.keys());
    const files = names.map((n) => n[0]).sort(), ranks = names.map((n) => Number(n.slice(1)));
    const title = (snap && snap.state && snap.state.title) || "this game";
    const span = names.length ? files[0] + "1–" + files[files.length - 1] + Math.max(...ranks) : "";
    return name + " is not a cell of " + title + (span ? ": its cells are " + span +
      (names.length < gameSize().w * gameSize().h ? " (the lit area)" : "") : "");
  }

  function onKeyDown(ev) {
    const t = ev.target;
    if (t && (t.tagName === "TEXTAREA" || t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "BUTTON" && (ev.key === " " || ev.key === "Enter"))) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const k = ev.key;
    // a letter starts a cell's name; the keys that are commands (l, t, r, o, u) only where
    // the game has such a file (Brochs's l and o)
    const file = k.length === 1 ? LETTERS.indexOf(k) : -1;
    if (file >= 0 && (!"ltrou".includes(k) || file < gameSize().w)) {
      typed = k; ev.preventDefault(); return;
    }
    if (/^[0-9]$/.test(k) && typed) {
      // a cell is its file then its rank in the game's own notation, as its words and the
      // board's labels name it ('e5'; the test game's 'a1' is the 9 x 9 board's d4; on the
      // 15 x 15 'k13': a second digit refines the first while it still names a rank)
      const name = typed + k;
      const c = view.gameCell(name);
      const rows = gameSize().h;
      const more = /^[a-z]1$/.test(name) && rows >= 10;
      if (c >= 0) setCursor(c);
      else if (!more) say(outsideWords(name), "error");
      typed = more ? name : "";
      ev.preventDefault();
      return;
    }
    typed = "";
    const moves = { ArrowUp: board.w, ArrowDown: -board.w, ArrowLeft: -1, ArrowRight: 1 };
    if (k in moves) {
      const d = moves[k];
      const f = cursor % board.w;
      if ((d === -1 && f === 0) || (d === 1 && f === board.w - 1)) return;
      const c = cursor + d;
      if (c >= 0 && c < board.n && !cells[c].hidden) setCursor(c);
      ev.preventDefault();
      return;
    }
    if (k === "Enter" || k === " ") { cells[cursor].classList.add("cursor"); cellAction(cursor, ev.shiftKey ? "lift" : "put"); ev.preventDefault(); return; }
    if (k === "l" || k === "L") { cellAction(cursor, "lift"); ev.preventDefault(); return; }
    if (k === "t" || k === "T") { cellAction(cursor, "take"); ev.preventDefault(); return; }
    if (k === "r" || k === "R") { if (!readOnly()) act({ action: "drop" }); ev.preventDefault(); return; }
    if (k === "Escape") { setCursor(cursor, false); return; }
    const btn = KEY_BUTTON[k.toLowerCase()] || KEY_BUTTON[k];
    if (btn && !ev.repeat) { buttonHandlers[btn].press(); ev.preventDefault(); }
  }

  function onKeyUp(ev) {
    const btn = KEY_BUTTON[ev.key.toLowerCase()] || KEY_BUTTON[ev.key];
    if (btn && buttonHandlers[btn]) buttonHandlers[btn].release();
  }

  view.build();
  wireButtons();
  wireVs();
  document.addEventListener("keydown", onKeyDown);
  document.addEventListener("keyup", onKeyUp);
  connect();
  window.xobo = {
    act, render, cellName, parseCell, readSettings,
    get snapshot() { return snap; }, get settings() { return Object.assign({}, settings); },
  };
})();
