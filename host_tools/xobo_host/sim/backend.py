"""The simulated board behind the web page: the firmware (VirtualBoard) stepped in real time.

A thread steps the firmware every ``step_ms`` under a lock; every action of the page (put a
cube, lift a stack into the hand, take a captured pair off, press a button, send a protocol
command, load a position or a record) runs under the same lock. The page reads a *snapshot*
(LED colours, cube counts, the hand, the firmware's state) that changes ``version`` whenever
anything it shows changes, plus the event lines the firmware sent.

Usage::

    >>> from xobo_host.sim.backend import SimBackend, make_virtual_board
    >>> backend = SimBackend(make_virtual_board(flash_dir="flash"))   # its saves in flash/
    >>> backend = backend.start()                # steps the firmware in real time
    >>> backend.action({"action": "game", "name": "tiny"})     # serial `set game tiny`
    {'game': 'tiny', 'reply': ['ok game tiny'], 'ok': True, 'version': ...}
    >>> backend.action({"action": "put", "cell": "e5"})        # a cube from the box
    {'cell': 'e5', 'from': 'box', 'ok': True, 'version': ...}
    >>> backend.action({"action": "command", "line": "settings"})["reply"][:2]   # any line
    ['ok game tiny', 'ok first x']
    >>> snap = backend.snapshot()                # what the page draws
    >>> len(snap["cells"]), snap["cells"][0]     # an "rrggbb" a board cell; also "counts",
    (81, '000000')
    >>> snap["state"]["game"], snap["state"]["players"]   # "games", "draw", "state"...
    ('tiny', ['x', 'o'])
    >>> backend.stop()
"""

import os
import threading
import time

from xobo import hostkit
from xobo.compat import ticks_diff
from xobo.errors import XoboError
from xobo.games import part
from xobo.runtime import colours
from xobo.runtime.events import SETTING, format_event
from xobo_host.sim.feed import PageFeed

BUTTONS = ("ok", "undo", "hint")
CELL_ACTIONS = ("put", "lift", "take")  # the page's actions that change a switch
SETTLE_WAIT_S = 1.0  # the longest a cell action waits for the previous change to be seen
# A cell action that would spoil a complete move waiting for stillness waits for its commit
# (the settle time, and this much more at most): a person's next click comes before the board
# commits, where a hand on the real board waits for the move's light
COMMIT_GRACE_S = 1.0
# A press must stay down for this long on the board's clock, over at least MIN_PRESS_STEPS
# steps, before its release reaches the firmware: the buttons' debounce (20 ms) then always sees
# it, even when the stepping thread was starved while the page's short tap came and went.
MIN_PRESS_MS = 60
MIN_PRESS_STEPS = 3
EDGES = ("N", "E", "S", "W")
# What the page knows of each game's pieces comes from the game's host module
# (``xobo.hostkit``): the set's count when it is counted (XoBo's 36 cubes: what is neither on
# the board nor in the hand is in the box; the other games' pieces are not counted), and the
# most pieces a cell holds (a click on a full cell says why rather than stacking a piece the
# board would then ask to take off).
# Virtual time between two hand actions when the simulator moves the cubes itself (a record's
# replay, the computer's move played for the player): long enough for the switches' debounce.
HAND_MS = 60


class ActionError(ValueError):
    """A page action that cannot be done (bad cell, empty cell, unknown action)."""


def default_flash_dir():
    """Per-user directory where the simulated Pico's flash lives between runs."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                           "share")
    return os.path.join(base, "xobo", "sim-flash")


def make_virtual_board(flash_dir=None, board="pico_gpio", settings=None):
    """The firmware's VirtualBoard facade in real time (imported lazily: it is the app's)."""
    from xobo.runtime.virtual_board import VirtualBoard

    if flash_dir:
        os.makedirs(flash_dir, exist_ok=True)
    return VirtualBoard(flash_dir=flash_dir, board=board, realtime=True, settings=settings)


def _is_position(text):
    """A position's first field holds its ranks separated by '/' (Chain Reaction's towers in
    brackets among them: '..[dl]dd..'); a record opens with a tag line ('[Event "..."]') or a
    move number."""
    first = text.strip().split()[0]
    return "/" in first and not first.startswith("[")


def _rgb(code):
    v = colours.RGB[code]
    return "%06x" % v


# ---------------------------------------------------------------- what each game draws
# The page draws any rectangular game from the state (the board, the game's area, the LEDs,
# the pieces' counts, the players' colours where the position has ``owner``). A game whose
# pieces or cells need more (X's hexagons, Chain Reaction's two-colour towers and goal rows,
# Brochs's donjons and quadrants) has ``draw(app, name) -> dict`` in its host module
# (``xobo.games.<name>.host``, docs/games.md): it reads the game's position (``app.pos``, the
# rules engine's documented fields) and returns what the page draws, by *board* cell name
# (``name(g)`` names game cell g where the game sits on the board):
#
# - ``shape``: "square" (default) or "hex" (a rhombus of hexagons, X's XB3 adjacency);
# - ``pieces``: {cell: [kind, ...]} bottom first, the pieces' own colours (kinds are keys of
#   ``kinds``); a cell not listed shows the switches' neutral cubes;
# - ``kinds``: {kind: {"rgb": "rrggbb", "label": words}};
# - ``marks``: {cell: mark} ("goal" / "goal2" on Chain Reaction's goal rows, "donjon");
# - ``quadrant``: {cell: 0-3} (Brochs's quadrants NW, NE, SW, SE; the central cross has none);
# - ``glow``: "under" where the LEDs light around the pieces, under them (Brochs's dark men);
# - ``box``: the kind of a piece put from the box now (the side to move's: Brochs's man).
# The page draws a cell's pieces as the position says where the switches see as many; a cell
# the position does not explain (a man moved where it may not go) shows the pieces the hands
# put there (``SimBackend`` follows them from cell to hand to cell), in the game's own look.
# A board layer that has ``state_extra(pos)`` puts its own fields in the state instead.
# ``words`` is the game's host module's for every game (``page_words``): the players' labels,
# how a game ends, the notation's rules, whether the page shows the reserves.


def page_words(name):
    """The page's words of game ``name`` (its host module, xobo.hostkit): ``labels``
    {player: label}, ``results`` {how: words}, ``notation`` [record rule, position rule] or
    None, ``reserves`` (shown or not)."""
    from xobo import games

    kit = hostkit.of(name)
    players = games.load(name).PLAYER_NAMES
    labels = kit.PLAYER_LABELS or [p.capitalize() for p in players]
    return {"labels": dict(zip(players, labels, strict=True)), "results": kit.RESULT_WORDS,
            "notation": list(kit.NOTATION_RULES) if kit.NOTATION_RULES else None,
            "reserves": bool(kit.RESERVES)}


def game_drawing(app):
    """What the page draws of the game beyond the LEDs and the counts (its host module's
    ``draw``, above), and its words (``page_words``)."""
    game = app.settings["game"]
    hook = hostkit.of(game).draw
    out = {}
    if hook is not None:
        to_board = app.place.to_board
        topo = app.topo

        def name(g):
            return topo.cell_name(to_board[g])

        out = dict(hook(app, name))
    owner = getattr(app.pos, "owner", None)
    if isinstance(owner, (bytes, bytearray)) and "pieces" not in out:
        # X's and the test game's pieces are their players' colours (the piece sets of
        # hardware/pieces.py), as the diagrams draw them: a piece from the box is the side
        # to move's
        to_board = app.place.to_board
        topo = app.topo
        names = app.names
        labels = hostkit.of(game).PLAYER_LABELS or [n.capitalize() for n in names]
        out["kinds"] = {names[k]: {"rgb": _rgb(app.layers.PLAYER_CODES[k]), "label": labels[k]}
                        for k in range(len(names))}
        out["pieces"] = {topo.cell_name(to_board[g]): [names[owner[g] - 1]]
                         for g in range(len(owner)) if owner[g]}
        out["box"] = names[app.pos.side]
    out["words"] = page_words(game)
    return out


def game_guide(app):
    """The page's "How to play" card for the game being played, from the game's own course
    (``xobo.games.<name>.lessons``, docs/games.md "Lessons"): its title, the rules page, and
    one diagram a lesson (but the last, the game against the computer) with the lesson's
    words. The diagram is the rules pages' own SVG (``xobo_host.sim.diagrams``: the game's
    geometry, its pieces in their colours, the cells the lesson speaks of ringed), so the
    panel and the rules pages never draw a position two ways. ``{}`` for a game without
    lessons."""
    from xobo_host.sim import diagrams

    name = app.settings["game"]
    steps = [{"title": lesson["title"], "words": lesson["words"], "svg": text}
             for lesson, text in diagrams.lesson_diagrams(name)]
    if not steps:
        return {}
    return {"game": name, "title": app.game.TITLE, "rules": "docs/rules/%s.md" % name,
            "steps": steps}


def games_menu(app):
    """The games this board can play: [{"name", "title", "players", "levels"}] (the
    firmware's installed games that fit the board's grid, ``xobo.runtime.loading.playable``:
    Brochs only on the 15 x 15 board), less those whose rules or board layer are not
    installed (``set game`` would refuse them)."""
    from xobo import games
    from xobo.runtime import loading

    out = []
    for g in loading.playable(app):
        pkg = games.load(g)
        try:
            part(pkg, "engine")
            part(pkg, "board")
        except ImportError:
            continue
        out.append({"name": g, "title": pkg.TITLE, "players": list(pkg.PLAYER_NAMES),
                    "levels": list(getattr(pkg, "LEVELS", ()))})
    return out


class SimBackend(PageFeed):
    """The firmware in this process, stepped by a thread, shared by every page that connects."""

    mode = "sim"

    def __init__(self, board, step_ms=10, snapshot_ms=40, max_events=200, restore_cubes=True):
        PageFeed.__init__(self, max_events)
        self.board = board
        self.step_ms = step_ms
        self.snapshot_ms = snapshot_ms
        self.hand = 0
        self.in_hand = []  # the kinds of the hand's pieces, last lifted last (a game of kinds)
        self.on_cells = {}  # board cell name -> the kinds of its pieces, bottom first
        self._box_kind = None  # what a piece put from the box is (the drawing's "box")
        self._thread = None
        self._running = False
        self._pressed = {}  # button -> [board ticks at press, steps since, release pending]
        self.errors = 0
        self.last_error = ""
        self.loading = None  # a record's replay: {"done": moves replayed, "total": moves}
        self.settings_seq = 0  # bumped by every ``setting`` event: the page reads them again
        self.menu = games_menu(board.app)
        self._legend_key = None
        self._guide_key = None
        self._guide = {}
        self._legend = []
        board.subscribe_events(self._on_event)
        with self.lock:
            if restore_cubes:
                # the cubes stayed on the board while the simulator was off: the resumed game
                self._sync_cubes()
                board.step()
            self._refresh()

    # -- the stepping thread ------------------------------------------------------------------
    def start(self):
        if self._thread is None:
            self._running = True
            self._thread = threading.Thread(target=self._run, name="xobo-sim-step", daemon=True)
            self._thread.start()
        return self

    def stop(self):
        self._running = False
        if self._thread is not None:
            self._thread.join(2)
            self._thread = None
        self._wake_listeners()

    def _run(self):
        next_snap = 0.0
        while self._running:
            t0 = time.monotonic()
            with self.lock:
                try:
                    self.board.step()
                    self._release_due_buttons()
                except Exception as exc:  # the firmware must never take the server down
                    self.errors += 1
                    self.last_error = "%s: %s" % (type(exc).__name__, exc)
                if t0 >= next_snap:
                    self._refresh()
                    next_snap = t0 + self.snapshot_ms / 1000.0
            left = self.step_ms / 1000.0 - (time.monotonic() - t0)
            if left > 0:
                time.sleep(left)

    # -- what the page sees -------------------------------------------------------------------
    def _on_event(self, ev):
        """A typed event (``xobo.runtime.events``): its line for the page's list, its kind
        for what the page does about it (a ``setting`` re-reads the settings)."""
        if ev[0] == SETTING:
            self.settings_seq += 1
        self._add_event(format_event(ev), ev[0])

    def _read(self):
        b = self.board
        st = dict(b.state())
        st.pop("counts", None)
        app = b.app
        counts = list(b.switches.counts)
        draw = game_drawing(app)
        self._pieces_as_seen(draw, counts)
        return {
            "mode": self.mode,
            "cells": list(b.cell_colors()),
            "edges": dict(b.edge_colors()),
            "counts": counts,
            "hand": self.hand,
            "hand_pieces": list(self.in_hand) if draw.get("kinds") else [],
            "box": self.box(),
            "cubes": self.cubes(),
            "games": self.menu,
            "colours": [_rgb(app.layers.PLAYER_CODES[k]) for k in range(len(app.names))],
            "draw": draw,
            # the game's legend and How to play change with the game only: the page asks for
            # them ({"action": "guide"}) when this key changes, not with every snapshot
            "guide_key": app.settings["game"],
            "settings_seq": self.settings_seq,
            "say": b.app.guide_text() if b.powered else "",
            "hint": self.shown_hint(),
            "settle": self.settle() if b.powered else None,
            "setup": self.can_set_up() if b.powered else False,
            "loading": self.loading,
            "state": st,
            "event_seq": self.event_seq,
            "errors": self.errors,
            "last_error": self.last_error,
        }

    def _pieces_as_seen(self, draw, counts):
        """The drawing's pieces as they lie on the board (lock held): a cell's as the
        position says where the switches see as many pieces, else those the hands put there
        (``on_cells``); a piece whose kind nobody knows is the box's. A game whose pieces are
        all alike or lit by the LEDs (no ``kinds``: XoBo's cubes, X's pieces) is left as it
        is."""
        if not draw.get("kinds"):
            return
        kinds = draw["kinds"]
        self._box_kind = draw.get("box") if draw.get("box") in kinds else next(iter(kinds))
        pieces = draw.get("pieces") or {}
        name = self.board.app.topo.cell_name
        seen = {}
        for c, n in enumerate(counts):
            if not n:
                continue
            cell = name(c)
            stack = pieces.get(cell) or []
            if len(stack) != n:  # not as the position says: the pieces the hands put there
                stack = (self.on_cells.get(cell) or [])[:n]
                stack = stack + [self._box_kind] * (n - len(stack))
            seen[cell] = list(stack)
        self.on_cells = seen
        draw["pieces"] = seen

    def settle(self):
        """The board waiting for the pieces to stay still (lock held): ``{"state": complete,
        wait-longer or unknown, "ms": how long the pieces must stay still, "since": the
        board's ticks when they last changed (the key of this wait), "move": the move it
        will commit}``, else None. The page shows it as a bar that fills in ``ms`` (the
        snapshot does not change while it fills)."""
        app = self.board.app
        inf = app.inf
        state = inf.state_name()
        if state not in ("complete", "wait-longer", "unknown"):
            return None
        if state == "complete":
            ms = inf.settle_ms
        elif state == "wait-longer":
            ms = inf.long_ms
        else:
            ms = inf.settle_ms if inf.touch < 0 else inf.long_ms
        m = inf.complete_move() if state != "unknown" else -1
        return {"state": state, "ms": ms, "since": inf.changed_at,
                "move": app.pos.move_text(m) if m >= 0 else ""}

    def can_set_up(self):
        """True while a lesson waits for its pieces (lock held): the page's "Set up this
        lesson" puts them as the lesson's position (or the board's words after a try) says."""
        app = self.board.app
        learning = getattr(app.mode, "state_field", None)  # the learn mode's (the board's
        # serial state names the lesson by it, as virtual_board.state does)
        if learning is None or learning() == "learn done" or app.inf.state_name() == "over":
            return False
        want = self._position_counts()
        return bytes(self.board.switches.counts) != bytes(want) or self.hand > 0

    def _position_counts(self):
        """The pieces of the firmware's position, by board cell."""
        app = self.board.app
        want = bytearray(self.board.bd.n_cells)
        to_board = app.place.to_board
        heights = app.pos.heights
        for g in range(len(heights)):
            if heights[g]:
                want[to_board[g]] = heights[g]
        return want

    def _game_legend(self, app):
        """The light colours of the game being played (made again when the game changes)."""
        key = (app.settings["game"], app.layers)
        if self._legend_key != key:
            from xobo_host.sim.legend import game_legend

            self._legend_key = key
            self._legend = game_legend(app)
        return self._legend

    def _do_guide(self, req):
        """The page's "How to play" card and colour legend of the game being played."""
        app = self.board.app
        return {"guide": self._game_guide(app), "legend": self._game_legend(app)}

    def _game_guide(self, app):
        """The "How to play" card of the game being played (made again when it changes)."""
        key = app.settings["game"]
        if self._guide_key != key:
            self._guide_key = key
            try:
                self._guide = game_guide(app)
            except Exception as exc:  # a lesson the engine refuses must not stop the page
                self.errors += 1
                self.last_error = "the game's guide: %s: %s" % (type(exc).__name__, exc)
                self._guide = {}
        return self._guide

    def shown_hint(self):
        """The hint's move while the board shows it (the hint button, 8 s of light), None
        otherwise: "Play it for me" plays it with the pieces, as the player would."""
        app = self.board.app
        if not self.board.powered or app.pending >= 0 or app.hint_move < 0:
            return None
        if not app.light.hint_on or app.pos.is_terminal():
            return None
        if app.inf.state_name() != "match":  # pieces moved since: it cannot be played now
            return None
        return app.pos.move_text(app.hint_move)

    def kit(self):
        """The host kit of the game being played (``xobo.hostkit``)."""
        return hostkit.of(self.board.app.settings["game"])

    def cubes(self):
        """The pieces of the game's set (XoBo's 36 cubes), None when they are not counted."""
        return self.kit().PIECES

    def box(self):
        """The cubes left in the box: the set's less those on the board and in the hand
        (None for a game whose pieces are not counted)."""
        n = self.cubes()
        if n is None:
            return None
        return max(0, n - sum(self.board.switches.counts) - self.hand)

    def board_cell(self, value):
        """The board cell of a name ('e5', 'k13' on the 15 x 15) or a board cell number."""
        topo = self.board.app.topo
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise ActionError("an action needs a cell, like \"e5\"")
        if isinstance(value, str):
            value = value.strip().lower()
        try:
            return self.board.board_cell(value)
        except ValueError as exc:
            raise ActionError("%s (files a-%s, ranks 1-%d)" % (
                exc, topo.cell_name(topo.width - 1)[0], topo.height)) from None

    def _name(self, c):
        return self.board.app.topo.cell_name(c)

    def _refresh(self):
        """Read the board (lock held); bump the version and wake the listeners on a change."""
        snap = self._read()
        if snap != self._snap:
            self._snap = snap
            self._bump()

    # -- what the page does -------------------------------------------------------------------
    def action(self, req):
        """Do one page action (a dict from POST /action); returns a dict for the reply."""
        if not isinstance(req, dict):
            raise ActionError("an action is a JSON object like {\"action\": \"put\", ...}")
        kind = req.get("action")
        handler = getattr(self, "_do_" + str(kind), None)
        if handler is None:
            raise ActionError(
                "unknown action %r (put, lift, take, drop, press, release, command, game, "
                "load, new, clear, power_cut, play, guide, setup)" % (kind,)
            )
        if kind in CELL_ACTIONS:
            self._let_waiting_move_commit(req)
        with self.lock:
            if kind in CELL_ACTIONS:
                self._let_switches_settle()
            out = handler(req)
            self.board.step()
            self._refresh()
        out.setdefault("ok", True)
        out["version"] = self.version
        return out

    def _spoils_waiting_move(self, req):
        """``(ply, since, ms)`` when a complete move waits for the pieces to stay still and
        the cell action ``req`` would spoil it (a piece put, lifted or taken off another cell:
        nothing can extend a complete move), else None (lock held)."""
        board = self.board
        app = board.app
        if not board.powered or app.inf.state_name() != "complete":
            return None
        m = app.inf.complete_move()
        try:
            c = self.board_cell(req.get("cell"))
        except ActionError:
            return None  # the handler says what is wrong with the cell
        g = app.place.to_game[c]
        if m < 0:
            return None
        size = max(64, app.inf.fp)  # the game's largest footprint
        lifted = bytearray(size)
        added = bytearray(size)
        nl, na = app.pos.footprint(m, lifted, added)
        if g != 0xFF and (g in lifted[:nl] or g in added[:na]):
            return None  # the move's own cell: a change of mind, not the next move
        return app.pos.ply, app.inf.changed_at, app.inf.settle_ms

    def _let_waiting_move_commit(self, req):
        """A click that comes while a complete move waits for stillness (two placements 0.4 s
        apart: the firmware saw two cubes, no move, and asked to take both off) waits until
        the board has committed the move, as a player waits for its light: no click is lost
        at a person's pace. The page shows the wait (``settle``); ok commits at once."""
        with self.lock:
            waiting = self._spoils_waiting_move(req)
        if waiting is None:
            return
        ply, since, ms = waiting
        deadline = time.monotonic() + ms / 1000.0 + COMMIT_GRACE_S
        while time.monotonic() < deadline:
            with self.lock:
                app = self.board.app
                inf = app.inf
                if (app.pos.ply != ply or inf.state_name() != "complete"
                        or inf.changed_at != since):
                    return
                if self._thread is None:  # nobody steps the board: its time passes here
                    self.board.advance(10)
                    continue
            time.sleep(0.01)

    def _let_switches_settle(self):
        """Steps the firmware until it has seen the last change of the switches. A hand never
        puts a piece back within the switches' debounce (20 ms) of lifting it, but two clicks
        of the page can reach a stepping thread that a loaded machine starved in between: the
        lift would never be seen, and the board would wait for it for ever."""
        board = self.board
        deadline = time.monotonic() + SETTLE_WAIT_S
        while board.settling() and time.monotonic() < deadline:
            if board.realtime:
                time.sleep(0.005)
            else:
                board.clock.advance(10)
            board.step()

    def _do_put(self, req):
        """Put one cube on a cell: from the hand if it holds any, else from the reserve."""
        c = self.board_cell(req.get("cell"))
        full = self.kit().CELL_HOLDS
        if full is not None and self.board.switches.counts[c] >= full[0]:
            raise ActionError("%s is taken: %s; lift it first to move it" % (
                self._name(c), full[1]))
        if self.hand == 0 and self.box() == 0:
            word = self.kit().PIECE_WORD
            raise ActionError("no %s left in the box: the set has %d and they are all on "
                              "the board; take some off first (shift-click)"
                              % (word[:-1] if word.endswith("s") else word, self.cubes()))
        self.board.put(c)
        src = "hand" if self.hand > 0 else "box"
        if self.hand > 0:
            self.hand -= 1
        kind = self.in_hand.pop() if src == "hand" and self.in_hand else self._box_kind
        if kind is not None:
            self.on_cells.setdefault(self._name(c), []).append(kind)
        return {"cell": self._name(c), "from": src}

    def _do_lift(self, req):
        """Lift everything off a cell into the hand (a stack about to be spread)."""
        c = self.board_cell(req.get("cell"))
        n = self.board.switches.counts[c]
        if n == 0:
            raise ActionError("%s is empty: nothing to lift" % self._name(c))
        self.board.lift(c)
        self.hand += n
        self.in_hand += self.on_cells.pop(self._name(c), [])
        return {"cell": self._name(c), "lifted": n}

    def _do_take(self, req):
        """Take cubes off a cell back into the box (a captured pair to the mover's reserve)."""
        c = self.board_cell(req.get("cell"))
        have = self.board.switches.counts[c]
        n = req.get("n", have)
        if not isinstance(n, int) or n < 1:
            raise ActionError("take needs a number of cubes n >= 1")
        if have == 0:
            raise ActionError("%s is empty: nothing to take off" % self._name(c))
        n = min(n, have)
        self.board.take(c, n)
        left = self.on_cells.get(self._name(c))
        if left:
            del left[max(0, len(left) - n):]
        return {"cell": self._name(c), "taken": n}

    def _do_drop(self, req):
        """Put the cubes in the hand back into the box."""
        n, self.hand = self.hand, 0
        self.in_hand = []
        return {"dropped": n}

    def _button(self, req):
        name = req.get("button")
        if name not in BUTTONS:
            raise ActionError("unknown button %r (ok, undo, hint)" % (name,))
        return name

    def _do_press(self, req):
        name = self._button(req)
        self.board.press(name)
        self._pressed[name] = [self.board.clock.ticks_ms(), 0, False]
        return {"button": name}

    def _do_release(self, req):
        name = self._button(req)
        held = self._pressed.get(name)
        if held is not None and self._thread is not None and not self._press_seen(held):
            held[2] = True  # the stepping thread releases it once the firmware has seen it
        else:
            self._pressed.pop(name, None)
            self.board.release(name)
        return {"button": name}

    def _press_seen(self, held):
        return (held[1] >= MIN_PRESS_STEPS
                and ticks_diff(self.board.clock.ticks_ms(), held[0]) >= MIN_PRESS_MS)

    def _release_due_buttons(self):
        """After a step: count it for held buttons, and release those whose time has come."""
        for name in list(self._pressed):
            held = self._pressed[name]
            held[1] += 1
            if held[2] and self._press_seen(held):
                del self._pressed[name]
                self.board.release(name)

    def _do_command(self, req):
        line = req.get("line")
        if not isinstance(line, str) or not line.strip():
            raise ActionError("command needs a protocol line, like \"position\"")
        reply = list(self.board.command(line.strip()))
        ok = bool(reply) and reply[0].startswith("ok")
        return {"ok": ok, "reply": reply}

    def _do_play(self, req):
        """Play the host's or the computer's move that waits for the pieces, else the hint
        the board shows, as a player would: one hand action at a time through the virtual
        switches. The firmware commits it once the pieces stay still, as any move."""
        app = self.board.app
        m = app.pending
        if m < 0 and self.shown_hint() is not None:
            m = app.hint_move
        what = self.kit().PIECE_WORD
        if m < 0:
            raise ActionError("no move waits for the %s: the computer's move is shown on "
                              "its turn (Play against the computer), a hint when you press "
                              "hint" % what)
        if app.inf.state_name() != "match":
            raise ActionError("the %s are not as the position says: finish or put back "
                              "what was moved first" % what)
        if self.hand:
            self._do_drop(req)
        text = app.pos.move_text(m)
        button = self._button_of(m)
        if button:  # an action no piece shows (Brochs's submission question): its button
            reply = list(self.board.command("press " + button))
            if not reply or not reply[0].startswith("ok"):
                raise ActionError("press %s: %s" % (button, _error_text(reply)))
            return {"played": text, "button": button}
        to_board = app.place.to_board
        for what, g, n in self.hands(m):
            act = {"cell": to_board[g]}
            if what == "take":
                act["n"] = n
            getattr(self, "_do_" + what)(act)
            self.board.advance(HAND_MS)
        if self.hand:
            self._do_drop(req)
        return {"played": text}

    def hands(self, m):
        """Move ``m`` of the position being played as the player's hands do it, by game cell:
        ``[(what, cell, n)]`` (``"put"``, ``"lift"``, ``"take"`` n; the game's host module,
        ``xobo.hostkit``)."""
        return self.kit().hands(self.board.app.pos, m)

    def _button_of(self, m):
        """The game's button that plays ``m`` now (a move whose footprint is empty: a pass,
        Brochs's submission question and its answers), or ""."""
        app = self.board.app
        pos = app.pos
        sl = bytearray(64)
        sa = bytearray(64)
        if pos.footprint(m, sl, sa) != (0, 0):
            return ""
        layers = app.layers
        for name in layers.BUTTON_NAMES:
            if layers.button_move(pos, name) == m:
                return name
        return ""

    def _do_power_cut(self, req):
        """Power lost and back: the firmware reboots from its flash; the cubes stay. The reply
        says what the boot said (``boot``: its note, and whether it fell back)."""
        self.board.power_cut()
        app = self.board.app
        return {"boot": app.boot_note, "fallback": bool(app.fallback)}

    def _do_clear(self, req):
        """Sweep every piece off the board and empty the hand (physical only)."""
        self.board.switches.set_counts(bytearray(self.board.bd.n_cells))
        self.hand = 0
        self.in_hand = []
        self.on_cells = {}
        return {}

    def _do_new(self, req):
        """A new game: the firmware's ``new`` and the board swept clean (the pieces of a game
        whose start position has some are set out)."""
        reply = list(self.board.command("new"))
        if not reply or not reply[0].startswith("ok"):
            return {"ok": False, "reply": reply, "error": _error_text(reply)}
        self._sync_cubes()
        return {"reply": reply}

    def _do_game(self, req):
        """Play another game (serial ``set game NAME``): the board's pieces are set out as
        that game's position says (its saved game, else its start)."""
        from xobo import games
        from xobo.runtime import loading

        name = req.get("name")
        names = [g["name"] for g in self.menu]
        if name not in names:
            why = ""
            if name in games.GAMES:  # a game this board cannot play: the firmware says why
                try:
                    why = loading.misfit(self.board.app, name)
                except (ImportError, ValueError) as exc:
                    why = "%s is not installed (%s)" % (name, exc)
            raise ActionError("%s (this board has: %s)" % (
                why or "unknown game %r" % (name,), ", ".join(names)))
        reply = list(self.board.command("set game " + name))
        if not reply or not reply[0].startswith("ok"):
            return {"ok": False, "reply": reply, "error": _error_text(reply)}
        self._sync_cubes()
        return {"game": name, "reply": reply}

    def _sync_cubes(self):
        """Set the physical pieces to the heights of the firmware's position (each piece as
        the position says: the drawing's)."""
        self.board.switches.set_counts(bytearray(self.board.bd.n_cells))
        self.board.set_cubes(self.board.app.pos.heights)
        self.hand = 0
        self.in_hand = []
        self.on_cells = {}

    def _do_setup(self, req):
        """Set up the lesson: the pieces put as the lesson's position says (the board's words
        after a try), as a player would set them out; the hand's go back to the box. Only
        while a lesson waits for its pieces."""
        if not self.can_set_up():
            raise ActionError("no lesson waits for its pieces: Start the lessons first, or "
                              "the pieces are already set out")
        before = bytes(self.board.switches.counts)
        self._sync_cubes()
        after = bytes(self.board.switches.counts)
        return {"changed": sum(1 for a, b in zip(before, after, strict=True) if a != b)}

    def _do_load(self, req):
        """Load a position or a game record, in the game's notation: the pieces are then set
        to match (a record is replayed on the board, move by move)."""
        text = req.get("text")
        if not isinstance(text, str) or not text.strip():
            raise ActionError("paste a position or a game record to load")
        text = text.strip()
        app = self.board.app
        if _is_position(text):
            one_line = " ".join(text.split())
            try:  # the game's own words for what is wrong (the serial line is ASCII only)
                app.game.parse_position(one_line, app.settings)
            except XoboError as exc:
                return {"ok": False, "error": "position: %s" % exc}
            reply = list(self.board.command("load " + one_line))
            if not reply or not reply[0].startswith("ok"):
                return {"ok": False, "reply": reply, "error": "position: " + _error_text(reply)}
            self._sync_cubes()
            return {"loaded": "position", "reply": reply}
        from xobo_host.records.gamerecords import GameRecordError, record_module

        try:
            rec = record_module(app.settings["game"]).parse_record(text)
        except (GameRecordError, XoboError) as exc:
            return {"ok": False, "error": "record: %s" % exc}
        return self._replay(rec)

    def _advance_until(self, done, ms):
        """Let up to ``ms`` of the board's time pass (lock held; virtual time, so a replay
        waits for no clock) until ``done()``; returns ``done()``."""
        left = ms
        while left > 0:
            if done():
                return True
            self.board.advance(10)
            left -= 10
        return done()

    def _ply(self):
        return self.board.app.pos.ply

    def _replay(self, rec):
        """Replay a game record on the board as players would: the board is told each move
        (``move``), the pieces are set to the position after it and ``ok`` commits it. The
        record's settings (its game's ``record_settings(rec)``: XoBo's variant and first
        player) are set for the replay only: the user's settings (for the next new game) are
        restored afterwards, whatever happened."""
        settings = self.board.app.settings
        wanted = self.kit().record_settings(rec)
        saved = {key: settings[key] for key in wanted}
        try:
            return self._replay_moves(rec, wanted)
        finally:
            self.loading = None
            self._refresh()
            for key, value in saved.items():
                if settings[key] != value:
                    self.board.command("set %s %s" % (key, value))

    def _replay_moves(self, rec, wanted):
        app = self.board.app
        replies = []
        for key, value in wanted.items():
            replies += self.board.command("set %s %s" % (key, value))
        pos = rec.start_position()
        if pos.to_string() != app.game.new_position(app.settings).to_string():
            reply = list(self.board.command("load " + pos.to_string()))
        else:
            reply = list(self.board.command("new"))
        replies += reply
        if not reply or not reply[0].startswith("ok"):
            return {"ok": False, "reply": replies, "error": _error_text(reply)}
        self.hand = 0
        self.in_hand = []
        self.board.set_cubes(pos.heights)
        inf = app.inf
        self._advance_until(lambda: inf.state_name() == "match", 2000)
        total = len(rec.moves)
        for k, m in enumerate(rec.moves):
            self.loading = {"done": k, "total": total}
            self._refresh()  # the page shows the progress (its snapshot needs no lock)
            text = pos.move_text(m)
            reply = list(self.board.command("move " + text))
            replies += reply
            if not reply or not reply[0].startswith("ok"):
                return {"ok": False, "reply": replies,
                        "error": "move %s: %s" % (text, _error_text(reply))}
            pos.apply(m)
            self.board.set_cubes(pos.heights)
            want = k + 1
            if not self._advance_until(lambda want=want: inf.state_name() in
                                       ("complete", "wait-longer") or self._ply() >= want, 2000):
                return {"ok": False, "reply": replies,
                        "error": "move %s: the board did not see the pieces" % text}
            if self._ply() < want:
                self.board.press("ok")
                self._advance_until(lambda want=want: self._ply() >= want, HAND_MS)
                self.board.release("ok")
                self.board.advance(HAND_MS)
            if not self._advance_until(lambda want=want: self._ply() >= want, 3000):
                return {"ok": False, "reply": replies,
                        "error": "move %s: the board did not commit it" % text}
        return {"loaded": "record", "moves": len(rec.moves), "reply": replies}


def _error_text(reply):
    if not reply:
        return "the board did not answer"
    line = reply[0]
    return line[len("error"):].strip() if line.startswith("error") else line
