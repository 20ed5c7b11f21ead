"""Runs the café's events: pairs each round, gives each game a free table whose board fits
it, sets the game up on the board and starts it, takes the result from the board when the
game ends, and pairs the next round when one is over (``auto``), to the last.

Its worker thread wakes when a board says its game ended (``intake.Watcher``), when the staff
acts, and every ``TICK_S``; each time it looks at the running events' current round:

- a game ``waiting`` gets the first free table (the event's tables in their order, else
  every table by name): online, its board fits the game, in no match and hosting no other
  event game; it is ``starting`` while the host sets the board up (``intake.start``), then
  ``playing``; a board that refuses is left for ``RETRY_S`` and the game waits again;
- a game ``playing`` is read from its board (``intake.read_end``) when the board said its
  game ended or was found again, when the floor shows it over, and every ``CHECK_S`` while
  online: the board's result words become the places (``results``); the record's id in the
  games database is kept with it;
- a board offline keeps its game: the event waits for it (the floor and the screen say so).

Everything is in the events' file (``store``) before it is acted on: a host killed at any
moment and started again finds each event, its round, each game's table and every result;
a game ``starting`` is set up again, and each ``playing`` board is read as it comes back.

Usage::

    >>> from xobo_host.cafe.events.director import Director, StaffInfo
    >>> from xobo_host.cafe.floor import Floor
    >>> floor = Floor("games.sqlite", scan_usb=False).start()   # no board yet (cafe.floor)
    >>> director = Director(floor, "events.sqlite").start()
    >>> eid = director.create({"name": "Friday Swiss", "game": "xobo", "format": "swiss",
    ...                        "rounds": 5})
    >>> staff = StaffInfo("Sam", address="192.168.1.20")        # who acts (the corrections')
    >>> for name in ("Alice", "Bob"):
    ...     _ = director.action(eid, {"action": "add_player", "name": name,
    ...                               "checked_in": True}, staff)
    >>> director.action(eid, {"action": "start"}, staff)
    {'ok': True, 'reply': 'round 1 paired'}
    >>> view = director.view(eid, staff=False)     # what the room's screen shows
    >>> [(g["board"], [s["name"] for s in g["seats"]], g["state"]) for g in view["games"]]
    [(1, ['Alice', 'Bob'], 'waiting')]
    >>> director.stop(); floor.stop()             # (the game waits for a free table's board)
"""

import hashlib
import threading
import time

from xobo import games as game_packages
from xobo_host.cafe.events import intake, results
from xobo_host.cafe.events.model import (
    MAX_PLAYERS,
    ROUND_ROBIN_MAX,
    EventError,
    check_event,
    check_name,
    seat_names,
)
from xobo_host.cafe.events.pairing import FIRST, SECOND, Entrant, pair_swiss, round_robin
from xobo_host.cafe.events.ratings import Ratings, player_key
from xobo_host.cafe.events.standings import standings
from xobo_host.cafe.events.store import EventStore, utc_now
from xobo_host.cafe.events.trios import TrioEntrant, group_trios
from xobo_host.sim.backend import ActionError

TICK_S = 1.0
CHECK_S = 10.0  # a playing board is read this often besides what it says
RETRY_S = 10.0  # a board that refused to set a game up is tried again after this long
# an ended game's record is looked for in the games database this many times (a tick
# each): the table's recorder writes it within a second or two; the board's own record of
# it is kept with the event anyway
BIND_TRIES = 120


class StaffInfo:
    """Who acts: the name they give (corrections), their session (a hash of its token) and
    their address."""

    def __init__(self, name="", token="", address=""):
        self.name = name
        self.session = hashlib.sha256(token.encode()).hexdigest()[:12] if token else ""
        self.address = address


class Director:
    def __init__(self, floor, path, matches=None, tick_s=TICK_S):
        self.floor = floor
        self.store = EventStore(path)
        self.matches = matches
        self.tick_s = tick_s
        self.lock = threading.RLock()
        self.wake = threading.Event()
        self.stopping = threading.Event()
        # table keys whose board may have ended its game (its own lock: the boards' serial
        # readers add to it, and must never wait for the staff's action that holds ``lock``
        # while it waits for a board's reply)
        self.to_check = set()
        self.check_lock = threading.Lock()
        self.checked_at = {}  # game id -> when its board was last read
        self.refused = {}  # table key -> when its board last refused a set-up
        self.bind_tries = {}  # game id -> how often its record was looked for
        self.labels = {}  # table key -> what the floor shows of its event game
        self._ratings = {}  # game -> (store version, Ratings)
        self._thread = None
        self.watcher = intake.Watcher(floor, self._board_said)
        floor.view_hooks.append(self.label_of)
        self._relabel()

    # -- lifecycle ----------------------------------------------------------------------------
    def start(self):
        self._thread = threading.Thread(target=self._run, name="xobo-cafe-events",
                                        daemon=True)
        self._thread.start()
        return self

    def stop(self):
        self.stopping.set()
        self.wake.set()
        if self._thread is not None:
            self._thread.join(10)
        self.store.close()

    @property
    def version(self):
        return self.store.version

    def _run(self):
        while not self.stopping.is_set():
            self.wake.wait(self.tick_s)
            self.wake.clear()
            if self.stopping.is_set():
                break
            try:
                self.step()
            except Exception as exc:  # one odd table must not stop the events
                self.problem = "%s: %s" % (type(exc).__name__, exc)

    problem = ""

    def _board_said(self, key):
        with self.check_lock:
            self.to_check.add(key)
        self.wake.set()

    def _changed(self, keys=()):
        self._relabel()
        for key in keys:
            self.floor.touch(key)
        self.floor.touch(None)

    # -- the worker's step --------------------------------------------------------------------
    def step(self):
        """One look at every running event's current round (the worker calls it)."""
        with self.check_lock:
            checks, self.to_check = self.to_check, set()
        events = {ev["id"]: ev for ev in self.store.events()}
        for g in self.store.unbound_games():
            if self.bind_tries.get(g["id"], 0) < BIND_TRIES and g["event_id"] in events:
                self.bind_tries[g["id"]] = self.bind_tries.get(g["id"], 0) + 1
                self._bind_record(events[g["event_id"]], g)
        for ev in events.values():
            if ev["state"] != "running":
                continue
            # (the staff's actions wait: a game moved off its table is not set up there)
            with self.lock:
                ev = self.store.event(ev["id"])
                if ev is None or ev["state"] != "running":
                    continue
                for g in self.store.games(ev["id"], ev["current_round"]):
                    if g["state"] == "starting":
                        self._set_up(ev, g)
                    elif g["state"] == "waiting" and g["kind"] == "game":
                        self._give_table(ev, g)
                    elif g["state"] == "playing":
                        self._look(ev, g, checks)
                self._advance(ev["id"])
        self.problem = ""

    def _busy_tables(self):
        busy = set()
        for ev in self.store.events():
            if ev["state"] != "running":
                continue
            for g in self.store.games(ev["id"], ev["current_round"]):
                if g["state"] in ("starting", "playing") and g["table_key"]:
                    busy.add(g["table_key"])
        return busy

    def free_tables(self, ev):
        """The tables a waiting game of ``ev`` may have now, in the order it takes them."""
        busy = self._busy_tables()
        now = time.monotonic()
        keys = ev["tables"] or self.floor.keys()
        out = []
        for key in keys:
            table = self.floor.table(key)
            if table is None or key in busy or not intake.fits(table, ev["game"]):
                continue
            if self.matches is not None and self.matches.busy(key):
                continue
            if now - self.refused.get(key, -RETRY_S) < RETRY_S:
                continue
            out.append(table)
        return out

    def _give_table(self, ev, g):
        tables = self.free_tables(ev)
        if not tables:
            return
        table = tables[0]
        self.store.update_game(g["id"], state="starting", table_key=table.key,
                               table_name=table.name, note="")
        self._changed([table.key])
        self._set_up(ev, dict(g, table_key=table.key))

    def _set_up(self, ev, g):
        table = self.floor.table(g["table_key"]) if g["table_key"] else None
        if table is None or not table.online:
            return  # (the board comes back, or the staff moves the game)
        try:
            intake.start(table, ev["game"], ev["settings"])
        except ActionError as exc:
            self.refused[table.key] = time.monotonic()
            self.store.update_game(g["id"], state="waiting", table_key=None, table_name=None,
                                   note="%s could not start it: %s" % (table.key, exc))
            self._changed([table.key])
            return
        self.store.update_game(g["id"], state="playing", started_at=utc_now(),
                               table_name=table.name, note="")
        self.checked_at[g["id"]] = time.monotonic()
        self._changed([table.key])

    def _look(self, ev, g, checks):
        key = g["table_key"]
        table = self.floor.table(key) if key else None
        if table is None or not table.online:
            return
        due = key in checks or table.view().get("result", "*") != "*" or \
            time.monotonic() - self.checked_at.get(g["id"], 0) >= CHECK_S
        if not due:
            return
        self.checked_at[g["id"]] = time.monotonic()
        end = intake.read_end(table, with_record=True)
        if end is None or end["result"] == "*":
            return
        if end["game"] not in (None, ev["game"]):
            note = "the board of %s plays %s now, not the event's %s" % (key, end["game"],
                                                                          ev["game"])
            if g["note"] != note:
                self.store.update_game(g["id"], note=note)
                self._changed([key])
            return
        try:
            places = results.places_from_words(ev["game"], g["seats"], end["result"])
        except results.ResultError as exc:
            self.store.update_game(g["id"], note="the board's result '%s': %s"
                                   % (end["result"], exc))
            self._changed([key])
            return
        self.store.update_game(g["id"], state="over", places=places, how="board",
                               words=end["result"], ended_at=utc_now(),
                               record_text=end.get("record"), note="")
        self._changed([key])
        self._bind_record(ev, dict(g, record_text=end.get("record")))

    def _bind_record(self, ev, g):
        """The games database's record of an ended game, once the table's recorder has it
        (the board's own record says which moves it holds)."""
        if g["record_id"] is not None or not g["record_text"] or not g["table_key"]:
            return
        moves = intake.record_moves(ev["game"], g["record_text"])
        if moves is None:
            return
        known = {x["record_id"] for x in self.store.games(ev["id"]) if x["record_id"]}
        rid = intake.find_record(self.floor, g["table_key"], ev["game"], moves, known)
        if rid is not None:
            self.store.update_game(g["id"], record_id=rid)

    def _advance(self, eid):
        """The round over: the event finished after its last, else the next paired (auto)."""
        ev = self.store.event(eid)
        number = ev["current_round"]
        games = self.store.games(eid, number)
        if not games or any(g["state"] != "over" for g in games):
            return
        rounds = {r["number"]: r for r in self.store.rounds(eid)}
        if rounds.get(number, {}).get("state") != "done":
            self.store.update_round(eid, number, state="done", ended_at=utc_now())
            self._changed()
        if number >= ev["rounds"]:
            self.store.update_event(eid, state="finished", ended_at=utc_now())
            self._changed()
        elif ev["auto"]:
            self.pair_round(eid)

    # -- pairing ------------------------------------------------------------------------------
    def active_players(self, ev, number):
        return [p for p in self.store.players(ev["id"])
                if p["checked_in"] and p["entry_round"] <= number
                and (p["withdrawn_round"] is None or p["withdrawn_round"] > number)]

    def ratings(self, game):
        """The café's ratings of ``game`` from every event's results (computed again when a
        result changes)."""
        version = self.store.results_version
        got = self._ratings.get(game)
        if got is not None and got[0] == version:
            return got[1]
        r = Ratings()
        for g in self.store.rated_games(game):
            r.rate(game, [player_key(n) for n in g["names"]], g["places"])
        self._ratings[game] = (version, r)
        return r

    def standings(self, ev):
        players = self.store.players(ev["id"])
        r = self.ratings(ev["game"])
        seeds = sorted(players, key=lambda p: (-r.get(ev["game"], player_key(p["name"]))[
            "ordinal"], p["id"]))
        seed = {p["id"]: k for k, p in enumerate(seeds)}
        rows = standings([{"id": p["id"], "name": p["name"], "seed": seed[p["id"]]}
                          for p in players],
                         [{"players": g["players"], "places": g["places"], "kind": g["kind"]}
                          for g in self.store.games(ev["id"])])
        for row in rows:
            rating = r.get(ev["game"], player_key(row["name"]))
            row["rating"] = {"mu": round(rating["mu"], 1), "sigma": round(rating["sigma"], 1),
                             "games": rating["games"]}
        return rows

    def pair_round(self, eid):
        """Pair the event's next round (the first: the event starts)."""
        with self.lock:
            ev = self.store.event(eid)
            if ev is None:
                raise EventError("no event %s" % eid)
            if ev["state"] == "finished":
                raise EventError("%s is finished" % ev["name"])
            number = ev["current_round"] + 1
            if ev["current_round"]:
                pending = [g for g in self.store.games(eid, ev["current_round"])
                           if g["state"] != "over"]
                if pending:
                    raise EventError("round %d is not over: %d game%s still without a result"
                                     % (ev["current_round"], len(pending),
                                        "" if len(pending) == 1 else "s"))
            if number > ev["rounds"]:
                raise EventError("%s has %d rounds" % (ev["name"], ev["rounds"]))
            active = self.active_players(ev, number)
            players = game_packages.load(ev["game"]).PLAYERS
            need = 3 if players == 3 else 2
            if len(active) < need:
                raise EventError("round %d needs %d checked-in players at least, not %d"
                                 % (number, need, len(active)))
            if ev["format"] == "round-robin":
                games, how = self._round_robin(ev, number, active)
            elif players == 3:
                games, how = self._trios(ev, number, active)
            else:
                games, how = self._swiss(ev, number, active)
            self.store.add_round(eid, number, how, games)
        self._changed()
        self.wake.set()

    def _ranks(self, ev, active):
        ids = {p["id"] for p in active}
        rows = [r for r in self.standings(ev) if r["id"] in ids]
        return {r["id"]: k for k, r in enumerate(rows)}, {r["id"]: r["points"] for r in rows}

    def _swiss(self, ev, number, active):
        rank, score = self._ranks(ev, active)
        seats = seat_names(ev["game"])
        info = {p["id"]: {"opponents": {}, "seats": [], "byes": 0, "float": None}
                for p in active}
        for g in self.store.games(ev["id"]):
            ids = g["players"]
            if g["kind"] == "bye":
                if ids[0] in info:
                    info[ids[0]]["byes"] += 1
                continue
            if g["kind"] != "game":
                continue
            for k, pid in enumerate(ids):
                if pid not in info:
                    continue
                other = ids[1 - k]
                info[pid]["opponents"][other] = info[pid]["opponents"].get(other, 0) + 1
                info[pid]["seats"].append(FIRST if k == 0 else SECOND)
                if g["round"] == number - 1:
                    info[pid]["float"] = g["floats"].get(str(pid))
        entrants = [Entrant(pid, score[pid], rank[pid], d["opponents"], d["seats"], d["byes"],
                            d["float"]) for pid, d in info.items()]
        rnd = pair_swiss(entrants)
        games = []
        for board, (a, b) in enumerate(rnd.pairs, 1):
            floats = {str(pid): rnd.floats[pid] for pid in (a, b) if pid in rnd.floats}
            games.append({"board": board, "kind": "game", "seats": seats, "players": [a, b],
                          "floats": floats})
        if rnd.bye is not None:
            games.append(self._bye(len(games) + 1, rnd.bye))
        return games, "Swiss, networkx maximum-weight matching (%s)" % rnd.graph

    def _bye(self, board, pid):
        return {"board": board, "kind": "bye", "seats": [""], "players": [pid],
                "state": "over", "places": [1], "how": "bye", "words": "bye"}

    def _trios(self, ev, number, active):
        rank, score = self._ranks(ev, active)
        seats = seat_names(ev["game"])
        info = {p["id"]: {"met": {}, "trios": set(), "counts": [0, 0, 0], "last": None,
                          "byes": 0} for p in active}
        for g in self.store.games(ev["id"]):
            ids = g["players"]
            if g["kind"] == "bye":
                if ids[0] in info:
                    info[ids[0]]["byes"] += 1
                continue
            if g["kind"] != "game":
                continue
            for k, pid in enumerate(ids):
                if pid not in info:
                    continue
                d = info[pid]
                d["trios"].add(frozenset(ids))
                d["counts"][k] += 1
                if g["round"] == number - 1:
                    d["last"] = k
                for other in ids:
                    if other != pid:
                        d["met"][other] = d["met"].get(other, 0) + 1
        entrants = [TrioEntrant(pid, score[pid], rank[pid], d["met"], d["trios"], d["counts"],
                                d["last"], d["byes"]) for pid, d in info.items()]
        rnd = group_trios(entrants)
        games = [{"board": board, "kind": "game", "seats": seats, "players": list(trio)}
                 for board, trio in enumerate(rnd.groups, 1)]
        for pid in rnd.byes:
            games.append(self._bye(len(games) + 1, pid))
        return games, "groups of three by standing (window %d)" % rnd.window

    def _round_robin(self, ev, number, active):
        roster = ev["roster"]
        if number == 1:
            if len(active) > ROUND_ROBIN_MAX:
                raise EventError("a round robin is for %d players at most, not %d: choose "
                                 "swiss" % (ROUND_ROBIN_MAX, len(active)))
            rank, _ = self._ranks(ev, active)
            roster = sorted(rank, key=rank.get)
            rounds = len(roster) - 1 + len(roster) % 2
            self.store.update_event(ev["id"], roster=roster, rounds=rounds)
        schedule = round_robin(roster)
        seats = seat_names(ev["game"])
        active_ids = {p["id"] for p in active}
        games = []
        for board, (a, b) in enumerate(schedule[number - 1], 1):
            if b is None:
                games.append({"board": board, "kind": "free", "seats": [""], "players": [a],
                              "state": "over", "places": None, "how": "free",
                              "words": "free round"})
            elif a in active_ids and b in active_ids:
                games.append({"board": board, "kind": "game", "seats": seats,
                              "players": [a, b]})
            else:  # a withdrawn player: the other wins by forfeit (both gone: no game)
                places = [1 if a in active_ids else 2, 1 if b in active_ids else 2]
                games.append({"board": board, "kind": "forfeit", "seats": seats,
                              "players": [a, b], "state": "over", "places": places,
                              "how": "forfeit", "words": "forfeit"})
        return games, "round robin, Berger tables"

    # -- the staff ----------------------------------------------------------------------------
    def create(self, spec):
        spec = check_event(spec)
        eid = self.store.create_event(spec)
        self._changed()
        return eid

    def action(self, eid, req, staff):
        """One staff action on event ``eid`` (see docs/events.md); {"ok": True, "reply"}.
        EventError or ActionError says why not."""
        if not isinstance(req, dict) or not isinstance(req.get("action"), str):
            raise EventError('an action is an object {"action": ...}')
        with self.lock:
            ev = self.store.event(eid)
            if ev is None:
                raise EventError("no event %s" % eid)
            what = req["action"]
            handler = getattr(self, "_do_" + what.replace("-", "_"), None)
            if handler is None or what.startswith("_"):
                raise EventError("unknown action '%s'" % what[:40])
            reply = handler(ev, req, staff)
        self._changed(self._keys_of(eid))
        self.wake.set()
        return {"ok": True, "reply": reply}

    def _keys_of(self, eid):
        return [g["table_key"] for g in self.store.games(eid) if g["table_key"]]

    def _player(self, ev, req):
        pid = req.get("player")
        for p in self.store.players(ev["id"]):
            if p["id"] == pid:
                return p
        raise EventError("no player %r in %s" % (pid, ev["name"]))

    def _game(self, ev, req):
        g = self.store.game(req.get("game")) if isinstance(req.get("game"), int) else None
        if g is None or g["event_id"] != ev["id"]:
            raise EventError("no game %r in %s" % (req.get("game"), ev["name"]))
        return g

    def _do_update(self, ev, req, staff):
        spec = dict(ev, **{k: req[k] for k in ("name", "rounds", "tables", "auto",
                                                  "settings", "game", "format") if k in req})
        spec = check_event(spec)
        if ev["state"] != "registration":
            for k in ("game", "format", "settings"):
                if spec[k] != ev[k]:
                    raise EventError("the %s cannot change once the event has started" % k)
            if spec["rounds"] < ev["current_round"]:
                raise EventError("%d rounds are played already" % ev["current_round"])
            if ev["format"] == "round-robin" and spec["rounds"] != ev["rounds"]:
                raise EventError("a round robin has as many rounds as it needs")
        self.store.update_event(ev["id"], **{k: spec[k] for k in (
            "name", "rounds", "tables", "auto", "settings", "game", "format")})
        if ev["state"] == "finished" and spec["rounds"] > ev["rounds"]:
            self.store.update_event(ev["id"], state="running", ended_at=None)
        return "saved"

    def _do_delete(self, ev, req, staff):
        if ev["state"] != "registration":
            raise EventError("an event that has started keeps its games (and the ratings "
                             "theirs)")
        self.store.delete_event(ev["id"])
        return "deleted"

    def _do_add_player(self, ev, req, staff):
        name = check_name(req.get("name"))
        players = self.store.players(ev["id"])
        if len(players) >= MAX_PLAYERS:
            raise EventError("an event has %d players at most" % MAX_PLAYERS)
        key = player_key(name)
        if any(player_key(p["name"]) == key for p in players):
            raise EventError("%s is already registered (a second player of that name needs "
                             "another: 'Alex B.')" % name)
        if ev["state"] == "finished":
            raise EventError("%s is finished" % ev["name"])
        entry = 1
        checked = bool(req.get("checked_in", ev["state"] != "registration"))
        if ev["state"] == "running":
            if ev["format"] == "round-robin":
                raise EventError("a round robin takes no late entry: its schedule is made "
                                 "at the start")
            entry = ev["current_round"] + 1
            checked = True
        self.store.add_player(ev["id"], name, entry, checked)
        return "%s registered%s" % (name, " for round %d" % entry if entry > 1 else "")

    def _do_remove_player(self, ev, req, staff):
        p = self._player(ev, req)
        if any(p["id"] in g["players"] for g in self.store.games(ev["id"])):
            raise EventError("%s has been paired: withdraw them instead" % p["name"])
        self.store.delete_player(p["id"])
        return "%s removed" % p["name"]

    def _do_check_in(self, ev, req, staff):
        p = self._player(ev, req)
        value = bool(req.get("value", True))
        fields = {"checked_in": int(value)}
        if value and ev["state"] == "running" and not p["checked_in"]:
            if ev["format"] == "round-robin":
                raise EventError("a round robin takes no late entry")
            fields["entry_round"] = max(p["entry_round"], ev["current_round"] + 1)
        if not value and ev["state"] != "registration":
            raise EventError("%s is in the event: withdraw them instead" % p["name"])
        self.store.update_player(p["id"], **fields)
        return "%s %s" % (p["name"], "checked in" if value else "not checked in")

    def _do_withdraw(self, ev, req, staff):
        p = self._player(ev, req)
        if p["withdrawn_round"] is not None:
            raise EventError("%s has withdrawn already" % p["name"])
        current = ev["current_round"]
        playing = any(p["id"] in g["players"] and g["state"] != "over"
                      for g in self.store.games(ev["id"], current)) if current else False
        # (a game under way is played out, or its result corrected: from the next round)
        self.store.update_player(p["id"], withdrawn_round=current + 1 if current else 1)
        return "%s withdrawn from round %d%s" % (
            p["name"], current + 1 if current else 1,
            " (their game of this round goes on: its result counts)" if playing else "")

    def _do_reinstate(self, ev, req, staff):
        p = self._player(ev, req)
        if ev["format"] == "round-robin" and ev["state"] != "registration":
            raise EventError("a round robin's withdrawals are final")
        self.store.update_player(p["id"], withdrawn_round=None,
                                 entry_round=max(p["entry_round"], ev["current_round"] + 1))
        return "%s back from round %d" % (p["name"], ev["current_round"] + 1)

    def _do_start(self, ev, req, staff):
        if ev["state"] != "registration":
            raise EventError("%s has started already" % ev["name"])
        self.pair_round(ev["id"])
        return "round 1 paired"

    def _do_pair_next(self, ev, req, staff):
        self.pair_round(ev["id"])
        return "round %d paired" % (ev["current_round"] + 1)

    def _do_finish(self, ev, req, staff):
        pending = [g for g in self.store.games(ev["id"], ev["current_round"])
                   if g["state"] != "over"]
        if pending:
            raise EventError("round %d still has %d game(s) without a result"
                             % (ev["current_round"], len(pending)))
        self.store.update_event(ev["id"], state="finished", rounds=ev["current_round"],
                                ended_at=utc_now())
        return "%s finished after round %d" % (ev["name"], ev["current_round"])

    def _do_resign(self, ev, req, staff):
        g = self._game(ev, req)
        if g["state"] != "playing":
            raise EventError("board %d is %s: no resignation" % (g["board"], g["state"]))
        seat = req.get("seat")
        if seat not in g["seats"]:
            raise EventError("the seats are %s" % ", ".join(g["seats"]))
        table = self.floor.table(g["table_key"])
        if table is None or not table.online:
            raise EventError("the board of %s is offline: correct the result instead"
                             % g["table_key"])
        winner = [s for s in g["seats"] if s != seat][0] if len(g["seats"]) == 2 else None
        intake.resign(table, seat, winner)
        self._board_said(table.key)
        return "%s resigned at %s" % (self._name_at(g, seat), table.key)

    def _name_at(self, g, seat):
        pid = g["players"][g["seats"].index(seat)]
        names = {p["id"]: p["name"] for p in self.store.players(g["event_id"])}
        return names.get(pid, "?")

    def _do_correct(self, ev, req, staff):
        g = self._game(ev, req)
        if g["kind"] not in ("game", "forfeit"):
            raise EventError("a %s has no result to correct" % g["kind"])
        by = check_name(req.get("by"), "the name of who corrects")
        why = str(req.get("why") or "").strip()[:200]
        if not why:
            raise EventError("a correction says why (the players' word, a board broken...)")
        places = results.check_places(req.get("places"), len(g["seats"]))
        before = {"places": g["places"], "how": g["how"], "words": g["words"],
                  "state": g["state"]}
        names = {p["id"]: p["name"] for p in self.store.players(ev["id"])}
        fields = {"places": places, "how": "staff", "state": "over",
                  "words": results.describe(places, [names.get(pid, "?")
                                                     for pid in g["players"]])}
        if g["ended_at"] is None:
            fields["ended_at"] = utc_now()
        self.store.correct(g["id"], fields, by, staff.session, staff.address, before,
                           {"places": places}, why)
        return "board %d: %s (by %s)" % (g["board"], fields["words"], by)

    def _do_restart_game(self, ev, req, staff):
        g = self._game(ev, req)
        if g["state"] not in ("playing", "starting") or not g["table_key"]:
            raise EventError("board %d is %s: nothing to start again" % (g["board"],
                                                                        g["state"]))
        self.store.update_game(g["id"], state="starting", note="")
        return "board %d starts again at %s" % (g["board"], g["table_key"])

    def _do_move_table(self, ev, req, staff):
        g = self._game(ev, req)
        if g["state"] == "over" or g["kind"] != "game":
            raise EventError("board %d is over: it keeps its table" % g["board"])
        self.store.update_game(g["id"], state="waiting", table_key=None, table_name=None,
                               note="moved off %s by the staff" % (g["table_key"] or "-"))
        return "board %d waits for another table" % g["board"]

    # -- what the pages show ------------------------------------------------------------------
    def _relabel(self):
        labels = {}
        for ev in self.store.events():
            if ev["state"] != "running":
                continue
            names = {p["id"]: p["name"] for p in self.store.players(ev["id"])}
            for g in self.store.games(ev["id"], ev["current_round"]):
                if not g["table_key"] or g["kind"] != "game":
                    continue
                labels[g["table_key"]] = {"event": {
                    "id": ev["id"], "name": ev["name"], "round": g["round"],
                    "board": g["board"], "state": g["state"],
                    "players": [{"seat": s, "name": names.get(pid, "?")}
                                for s, pid in zip(g["seats"], g["players"], strict=True)]}}
        self.labels = labels

    def label_of(self, key):
        """What the floor shows of the event game at table ``key`` (a view hook)."""
        return self.labels.get(key)

    def events(self):
        return [{k: ev[k] for k in ("id", "name", "game", "format", "rounds", "state",
                                     "current_round", "created_at")}
                for ev in reversed(self.store.events())]

    def view(self, eid, staff=False):
        """The event as its pages show it: the screen's (``staff`` False: the current
        round, the standings with ratings) or the staff's (every player, round and
        correction)."""
        ev = self.store.event(eid)
        if ev is None:
            raise EventError("no event %s" % eid)
        players = self.store.players(eid)
        names = {p["id"]: p["name"] for p in players}
        pkg = game_packages.load(ev["game"])
        out = {"id": ev["id"], "name": ev["name"], "game": ev["game"], "title": pkg.TITLE,
               "format": ev["format"], "rounds": ev["rounds"], "round": ev["current_round"],
               "state": ev["state"], "settings": ev["settings"], "version": self.version,
               "seats": seat_names(ev["game"])}
        out["games"] = [self._game_view(g, names) for g in
                        self.store.games(eid, ev["current_round"])] if ev["current_round"] \
            else []
        out["standings"] = self.standings(ev)
        if staff:
            out.update({"tables": ev["tables"], "auto": bool(ev["auto"]),
                        "problem": self.problem})
            out["players"] = [{"id": p["id"], "name": p["name"], "checked_in":
                               bool(p["checked_in"]), "entry_round": p["entry_round"],
                               "withdrawn_round": p["withdrawn_round"]} for p in players]
            out["history"] = [self._game_view(g, names, staff=True)
                              for g in self.store.games(eid)]
            out["corrections"] = [{k: c[k] for k in ("id", "game_id", "round", "board", "at",
                                                     "by_name", "session", "address",
                                                     "before", "after", "why")}
                                  for c in self.store.corrections(eid)]
            out["free_tables"] = [t.key for t in self.free_tables(ev)]
        return out

    def _game_view(self, g, names, staff=False):
        table = self.floor.table(g["table_key"]) if g["table_key"] else None
        seats = [{"seat": s, "player": pid, "name": names.get(pid, "?")}
                 for s, pid in zip(g["seats"], g["players"], strict=True)]
        text = ""
        if g["places"] is not None:
            pts = results.points(g["places"]) if g["kind"] == "game" else [
                1.0 if p == 1 else 0.0 for p in g["places"]]
            for s, place, p in zip(seats, g["places"], pts, strict=True):
                s["place"] = place
                s["points"] = p
            text = g["words"] if g["kind"] != "game" else results.describe(
                g["places"], [s["name"] for s in seats])
        elif g["kind"] == "free":
            text = "free round"
        return {"id": g["id"], "round": g["round"], "board": g["board"], "kind": g["kind"],
                "state": g["state"], "table": g["table_key"],
                "table_name": g["table_name"] or g["table_key"] or "",
                "online": bool(table is not None and table.online), "seats": seats,
                "result": text, "how": g["how"], "words": g["words"],
                "record_id": g["record_id"], "note": g["note"], "floats": g["floats"],
                "record_text": g["record_text"] if staff else None}
