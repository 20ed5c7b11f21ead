"""Matches between tables, in one café or across cafés through an MQTT broker
(docs/remote.md): the café host keeps each match's log (``match.Match``, in the café's SQLite
file), brings every board seated in it to the log, and tells the other cafés.

Each board plays the match as the log says: a move of another table is sent to it as a host
move (serial ``move e5``: lit as the computer's move is, committed when the pieces play it);
a move its own players play on their turn goes into the log and to the other tables; a move
played at the wrong table (the other table's side) is taken back on that board (serial
``undo``: the board shows what to put back). A board that is behind (the host or the board
was away) is given the moves it missed one after the other; a board ahead of the log is taken
back. All of that is one rule, ``TableSync.reconcile``: from the board's ply and position
(``state``, ``position``) to the log's, whatever happened before.

A take-back is proposed by pressing undo on a board (or from a table's page) and agreed when
every other table of the match presses undo too (or accepts on its page); a move played by
another table meanwhile, or a decline, cancels it and the proposing board is given its moves
back. A resignation ends the match for every table.

Across cafés (``BrokerLink``) every change goes out as a message (``match`` has their
format), signed with the café's key; a message is taken only once opened and checked
(``_open``: the signature of a café seated in the match, a sequence number not seen before,
an invitation's answer sealed with its code: ``seal``), else refused and listed for the
staff (``refused``). A café that finds a gap asks again, a duplicate is ignored, a conflict
stops the match and shows both moves. Every ``hello_s`` and after every reconnection each
café says where its log is (``hello``), so a message lost anywhere is asked again.

Usage::

    >>> from xobo_host.cafe.floor import Floor
    >>> from xobo_host.cafe.matches import MatchService
    >>> from xobo_host.sim.ptyboard import PtyBoard
    >>> boards = [PtyBoard("flash-" + name).plug() for name in ("terrace-3", "bar-1")]
    >>> for board, name in zip(boards, ("terrace-3", "bar-1")):
    ...     _ = board.play("serial set name " + name)
    >>> floor = Floor("games.sqlite", ports=[b.device for b in boards], scan_usb=False,
    ...               scan_s=0.05).start()
    >>> snap = floor.snapshot()
    >>> for _ in range(50):                       # until a scan has found both
    ...     if floor.table("terrace-3") and floor.table("bar-1"): break
    ...     snap = floor.wait_change(snap["version"], 1.0)
    >>> service = MatchService(floor, "games.sqlite", cafe="cafe-a").start()
    >>> code = service.invite("terrace-3")["code"]   # another café accepts it with its table,
    >>> service.accept(code, "bar-1")["reply"]       # ... or a table of this café
    'bar-1 plays ew in match ...'
    >>> [(m["state"], m["seat_text"]) for m in service.views()]
    [('playing', ['terrace-3', 'bar-1'])]
    >>> service.stop(); floor.stop()
    >>> for board in boards: board.unplug()
    >>> # across cafés (a broker; not run here): MatchService(floor, "games.sqlite",
    >>> #     cafe="cafe-a", broker=BrokerSettings("broker.example.org", 8883, tls=True))
"""

import collections
import secrets
import threading
import time

from xobo import games
from xobo_host.cafe.match import Match, MatchError, MatchStore, new_code, normal_code
from xobo_host.cafe.movetrace import trace
from xobo_host.cafe.tablesync import TableSync
from xobo_host.sim.backend import ActionError
from xobo_host.sim.monitor import LinkError

ACTIVE = ("inviting", "playing")
HELLO_S = 2.0
LOOKUP_S = 5.0  # how long an accept waits for an invitation of another café
FLOOR_EVERY_S = 0.2  # the published floor: at most this often
# while a table's worker has a move to relay (its board's move to send on, or another
# table's move to light on its board), the café's board mirrors wait this long at most
# before reading their boards: a hundred tables' moves of the same instant are relayed
# first, the mirrors' readings (the floor's view, the records) come after them (measured:
# docs/remote.md); a relay not done after RELAY_STALE_S no longer holds them
RELAY_FIRST_S = 0.1
RELAY_STALE_S = 2.0


SETTLED_KEPT = 16  # declined or cancelled take-backs remembered per match (_settle_undo)
REFUSED_KEPT = 50  # refused messages shown on the staff's page, the newest


def _word(value):
    """A take-back's id as another café sent it: a short plain word, else None."""
    if isinstance(value, str) and 0 < len(value) <= 16 and value.isalnum():
        return value
    return None


class MatchService:
    def __init__(self, floor, db_path, cafe="cafe", broker=None, hello_s=HELLO_S,
                 publish_floor=False):
        self.floor = floor
        self.cafe = cafe
        self.store = MatchStore(db_path)
        from xobo_host.cafe import movetrace
        # the matches' lock: the list of matches, and the controls that look at several
        # (a table in one match at most); each match has its own (``Match.lock``), taken
        # after this one when both are: a table's move, a message of another café about a
        # match wait only for what is done to that match (with one lock for all, a hundred
        # tables moving at once waited for each other)
        self.lock = movetrace.new_lock()
        self.matches = {}
        for m in self.store.load_all():
            self.matches[m.id] = m
        self.syncs = {}  # table key -> TableSync
        self.settled_undos = {}  # match id -> ids of take-backs declined or cancelled here
        self.syncs_lock = threading.Lock()
        # the tables whose worker has a move to relay: table key -> (how many were due, since
        # when); the mirrors of the café's boards wait for them (``relays_first``)
        self.relaying = {}
        self.relays = threading.Condition()
        self.stopping = threading.Event()
        self.changed = threading.Condition()
        self.version = 0
        self.hello_s = hello_s
        self.publish_floor = publish_floor
        self.invites = {}  # code -> invitation seen on the broker (looked up)
        self.invite_seen = threading.Condition()
        self.broker = None
        self.filter = None  # tests: filter(sender, kind, rest, msg) -> [messages to handle]
        # messages refused (``refuse``), the newest first, for the staff's page
        self.refused = collections.deque(maxlen=REFUSED_KEPT)
        self.guards = {}  # (match id, café) -> seal.ReplayGuard
        self.secrets = {}  # invitation code -> seal.InviteSecret (scrypt once per code)
        self.secrets_lock = threading.Lock()
        self.looking = {}  # topic id -> code: the invitations being looked up
        self.key = self.store.cafe_key(cafe) if broker is not None else None
        self.floors = None  # other cafés' floors, checked (``floorwatch``): with a broker
        if broker is not None:
            from xobo_host.cafe.broker import BrokerLink
            from xobo_host.cafe.floorwatch import WatchedFloors

            self.broker = BrokerLink(cafe, broker, self._on_message, self._on_connect,
                                     key=self.key, on_refused=self._refused_by_link,
                                     seq_reserved=self.store.seq_reserved(cafe),
                                     reserve_seq=lambda upto: self.store.reserve_seq(cafe,
                                                                                     upto))
            self.floors = WatchedFloors(self.store, self.learnt_key, self.broker.subscribe,
                                        self._watched_changed)
        floor.line_hooks.append(self._on_line)
        floor.read_hooks.append(self.relays_first)
        self._threads = []

    # -- lifecycle --------------------------------------------------------------------------
    def start(self):
        with self.lock:
            keys = {k for m in self.matches.values() if m.state in ACTIVE + ("over",)
                    for k in self.local_tables(m)}
        for key in keys:
            self._sync(key)
        if self.broker is not None:
            self.broker.start()
            t = threading.Thread(target=self._hellos, daemon=True, name="xobo-match-hello")
            t.start()
            self._threads.append(t)
            if self.publish_floor:
                t = threading.Thread(target=self._publish_floor, daemon=True,
                                     name="xobo-floor-publish")
                t.start()
                self._threads.append(t)
        return self

    def stop(self):
        self.stopping.set()
        with self.floor.changed:
            self.floor.changed.notify_all()
        for sync in list(self.syncs.values()):
            sync.wake.set()
        if self.broker is not None:
            self.broker.stop()
        for t in self._threads:
            t.join(2)
        self.store.close()  # (what is queued is written first; not under the lock: see save_soon)

    # -- bookkeeping ------------------------------------------------------------------------
    def save(self, match):
        """The match's row into the database before anything is said about it (the
        controls, the invitations, a conflict...)."""
        self.store.save(match)
        self._bump()

    def save_soon(self, match, then=None):
        """The match's row into the database on the store's thread, together with those of
        the other matches that changed meanwhile; ``then()`` once it is there (it must not
        take the matches' lock: a ``save`` may wait for the store under it). A move: the
        caller does not wait for SQLite, nor make the other tables wait."""
        self.store.queue(match, then)
        self._bump()

    def _bump(self):
        with self.changed:
            self.version += 1
            self.changed.notify_all()
        with self.floor.changed:  # the pages follow the floor: a match is part of it
            self.floor.version += 1
            self.floor.changed.notify_all()

    def local_tables(self, match):
        return [s[1] for s in match.seats if s is not None and s[0] == self.cafe]

    def seats_of(self, match, key):
        return [i for i, s in enumerate(match.seats) if s == [self.cafe, key]]

    def seat_text(self, match, seat):
        s = match.seats[seat]
        if s is None:
            return "a table still invited"
        return s[1] if s[0] == self.cafe else "%s of %s" % (s[1], s[0])

    def remote_cafes(self, match):
        return sorted({s[0] for s in match.seats if s is not None and s[0] != self.cafe})

    def match_of_table(self, key):
        """The table's match in play (or ended, still shown), the latest (without the
        matches' lock: a match is only ever added to the list)."""
        best = None
        for m in list(self.matches.values()):
            if m.state in ("playing", "over", "conflict") and [self.cafe, key] in m.seats:
                if best is None or m.created > best.created:
                    best = m
        return best

    def busy(self, key):
        return any(m.state in ACTIVE + ("conflict",) and [self.cafe, key] in m.seats
                   for m in self.matches.values())

    def _sync(self, key):
        with self.syncs_lock:  # (also called on the store's thread, without the lock)
            sync = self.syncs.get(key)
            if sync is None:
                sync = self.syncs[key] = TableSync(self, key)
        sync.poke()
        return sync

    # -- relays first ------------------------------------------------------------------------
    def _relay_due(self, key):
        """Table ``key``'s worker has a move to relay (woken for it)."""
        with self.relays:
            due = self.relaying.get(key)
            self.relaying[key] = (due[0] + 1 if due else 1,
                                  due[1] if due else time.monotonic())

    def relays_due(self, key):
        """(the table's worker, before its pass) How many relays were due at its table."""
        with self.relays:
            due = self.relaying.get(key)
            return due[0] if due else 0

    def relayed(self, key, relays):
        """(the table's worker, after its pass) The ``relays`` due before it are done (more
        that came meanwhile stay due: the worker was woken for them and passes again)."""
        if not relays:
            return
        with self.relays:
            due = self.relaying.get(key)
            if due is not None and due[0] <= relays:
                del self.relaying[key]
                if not self.relaying:
                    self.relays.notify_all()

    def relays_first(self):
        """(a board's mirror, before it reads its board) Wait, ``RELAY_FIRST_S`` at most,
        until no table's worker has a move to relay: at a hundred tables moving at once, the
        moves reach the other tables first, the pages and the records a little later. The
        moves this café published wait for the broker's acknowledgement in the same time
        (``BrokerLink.wait_sent``)."""
        deadline = time.monotonic() + RELAY_FIRST_S
        self._relays_done(deadline)
        if self.broker is not None:
            self.broker.wait_sent(deadline)

    def _relays_done(self, deadline):
        with self.relays:
            while self.relaying:
                now = time.monotonic()
                for key in [k for k, (_, since) in self.relaying.items()
                            if now - since > RELAY_STALE_S]:
                    del self.relaying[key]  # (a worker held up: the mirrors go on)
                if not self.relaying or now >= deadline:
                    return
                self.relays.wait(deadline - now)

    def _wake_tables(self, match, but=None):
        for key in self.local_tables(match):
            if key != but:  # (``but``: the table whose worker is at work on it already)
                self._sync(key)

    def _on_line(self, key, line):
        sync = self.syncs.get(key)
        if sync is None:
            return
        words = line.split()
        if len(words) > 2 and words[1] == "move":
            trace("line", key, words[2])
        if len(words) > 1 and words[1] in ("move", "undo", "new", "load", "game", "attached",
                                           "boot", "match", "cancel"):
            if words[1] == "move":
                if len(words) > 2 and sync.pass_on(words[2]):
                    return  # (passed on by this thread, the board's reader)
                self._relay_due(key)
            sync.hints.put(line)
            sync.poke()

    # -- what the tables do -----------------------------------------------------------------
    def local_move(self, match, move, by=None):
        """A move played by this café's table ``by`` on its turn (lock held): into the log,
        to the other cafés at once, into the database just after (the board that played it
        holds it meanwhile: a host killed before the row is written reads it from that
        board again and sends it again, a duplicate there), and to this café's other tables
        once it is in the database."""
        match.play(move)
        self._settle_undo(match)  # a move instead of the take-back: declined
        self._send(match, match.move_message(match.ply))
        trace("pub", match.id, match.ply, int(self.broker is not None and
                                              self.broker.connected.is_set()))
        self.save_soon(match, then=lambda: self._wake_tables(match, but=by))

    def board_undo(self, match, key, ply):
        """A player pressed undo on a board of the match (the board took its move back):
        a take-back proposed, or agreed when another table proposed one."""
        with match.lock:
            if match.state not in ("playing", "over"):
                return
            here = self.seats_of(match, key)
            undo = match.undo
            if undo is None or set(undo["by"]) & set(here):
                to = min(ply, match.ply) if undo is None else min(ply, undo["to"])
                match.undo = self._proposal(match, to, here)
                self.save(match)
                self._send(match, {"t": "undo", "to": to, "by": here, "epoch": match.epoch,
                                   "id": match.undo["id"]})
            else:
                self._accept_undo(match, here)

    def _accept_undo(self, match, seats, send=True):
        undo = match.undo
        for s in seats:
            if s not in undo["ok"]:
                undo["ok"].append(s)
        epoch = undo["epoch"]
        if send:
            self._send(match, {"t": "undo-ok", "to": undo["to"], "seats": seats,
                               "epoch": epoch})
        if len(undo["ok"]) >= len(match.seats):
            match.truncate(undo["to"])
            for key in self.local_tables(match):  # (a board still ahead: taken back)
                sync = self.syncs.get(key)
                if sync is not None:
                    sync.rewind = match.epoch
                    sync.known_ply = -1
        self.save(match)
        self._wake_tables(match)

    # -- the staff's controls (the pages) ----------------------------------------------------
    def action(self, match_id, req):
        """A staff control of a match: undo (propose or accept for a table), decline (a
        take-back), resign (a table), cancel (an invitation)."""
        with self.lock:
            match = self.matches.get(match_id)
        if match is None:
            raise ActionError("no match '%s'" % str(match_id)[:20])
        with match.lock:
            what = req.get("action") if isinstance(req, dict) else None
            key = req.get("table") if isinstance(req, dict) else None
            here = self.seats_of(match, key) if isinstance(key, str) else []
            if what in ("undo", "resign") and not here:
                raise ActionError("%s plays no seat of this match here" % str(key)[:24])
            if what == "undo":
                if match.state != "playing" and not (match.state == "over"
                                                     and match.resigned < 0):
                    raise ActionError("the match is %s: nothing to take back" % match.state)
                if match.undo is None:
                    if match.ply == 0:
                        raise ActionError("nothing to take back: no move yet")
                    self.board_undo_proposal(match, here)
                    return {"ok": True, "reply": "take-back of the last move proposed"}
                if set(match.undo["by"]) & set(here):
                    raise ActionError("this table proposed it: the others accept or decline")
                self._accept_undo(match, here)
                return {"ok": True, "reply": "take-back accepted"}
            if what == "decline":
                if match.undo is None:
                    raise ActionError("no take-back is proposed")
                to, ident = match.undo["to"], match.undo.get("id")
                self._settle_undo(match)
                self.save(match)
                self._send(match, {"t": "undo-no", "to": to, "epoch": match.epoch,
                                   "id": ident})
                self._wake_tables(match)
                return {"ok": True, "reply": "take-back declined"}
            if what == "resign":
                if match.state != "playing":
                    raise ActionError("the match is %s: no resignation" % match.state)
                match.resigned = here[0]
                match.state = "over"
                self.save(match)
                self._send(match, {"t": "resign", "seat": here[0], "epoch": match.epoch})
                self._wake_tables(match)  # every board shows it
                return {"ok": True, "reply": match.result_text()}
            if what == "resolve":
                return self._staff_resolve(match, req.get("keep", "agreed"))
            if what == "cancel":
                if match.state not in ACTIVE + ("conflict",):
                    raise ActionError("the match is %s already" % match.state)
                match.state = "cancelled"
                self.save(match)
                self._clear_invite(match)
                self._send(match, {"t": "cancel"})
                return {"ok": True, "reply": "match cancelled"}
            raise ActionError("unknown match control '%s' (undo, decline, resign, resolve, "
                              "cancel)" % str(what)[:20])

    def _staff_resolve(self, match, keep):
        """The staff settles a conflict (lock held): ``agreed`` keeps the moves every café's
        log has, up to the first that differs (the boards take the rest back, the match goes
        on from there); ``ours`` makes this café's log the match's. Every café applies the
        same log at a new epoch (``resolve`` message; a lost one is asked again by the
        hellos)."""
        if match.state != "conflict":
            raise ActionError("the match is %s: no conflict to resolve" % match.state)
        remote = self.remote_cafes(match)
        if keep == "agreed":
            moves = match.agreed(remote)
            if moves is None:
                raise ActionError("the other café's log has not arrived yet (%s): try again "
                                  "in a moment" % ", ".join(c for c in remote
                                                           if c not in match.other_logs))
        elif keep == "ours":
            moves = list(match.moves)
        else:
            raise ActionError("a conflict is resolved keeping 'agreed' (the moves both logs "
                              "have) or 'ours' (this café's log), not %r" % str(keep)[:20])
        epoch = match.epoch + 1
        self._apply_resolution(match, epoch, moves, self.cafe)
        self._send(match, {"t": "resolve", "epoch": epoch, "moves": moves})
        return {"ok": True, "reply": "conflict resolved: the match goes on after move %d"
                % len(moves)}

    def _apply_resolution(self, match, epoch, moves, by):
        match.resolve(epoch, moves, by)
        self.save(match)
        for key in self.local_tables(match):
            sync = self.syncs.get(key)
            if sync is not None:
                sync.known_ply = -1  # every board read again: it may be ahead of the log
        self._wake_tables(match)

    def _take_resolution(self, match, sender, epoch, moves):
        """Another café's resolution (its ``resolve``, or its log of a newer epoch while we
        are in conflict). Two cafés that resolve at once both land on the resolution of the
        café whose name sorts first."""
        if epoch < match.epoch or (epoch == match.epoch and not (
                match.resolved_by and sender < match.resolved_by and moves != match.moves)):
            return
        try:
            self._apply_resolution(match, epoch, moves, sender)
        except MatchError as exc:
            self._conflict(match, "%s's resolution is not legal here: %s" % (sender, exc))

    def board_undo_proposal(self, match, here):
        to = match.ply - 1
        match.undo = self._proposal(match, to, here)
        self.save(match)
        self._send(match, {"t": "undo", "to": to, "by": here, "epoch": match.epoch,
                           "id": match.undo["id"]})
        self._wake_tables(match)

    @staticmethod
    def _proposal(match, to, here):
        """A take-back proposal, with its own ``id``: once declined or cancelled it is never
        taken up again from a message that left before (``_settle_undo``)."""
        return {"to": to, "by": here, "ok": list(here), "epoch": match.epoch,
                "id": secrets.token_hex(4)}

    def _settle_undo(self, match):
        """The take-back proposed is declined or cancelled (lock held): gone, and its id kept
        so that a hello or a log of another café that still carries it (sent before that
        café knew) does not bring it back: a take-back declined on one café's page came back
        from the other café's hello as it crossed the decline, and stayed (a test under
        load)."""
        undo = match.undo
        match.undo = None
        if undo is not None and undo.get("id"):
            settled = self.settled_undos.setdefault(match.id, [])
            settled.append(undo["id"])
            del settled[:-SETTLED_KEPT]

    def _settled(self, match, undo):
        """True when ``undo`` (a proposal another café sent) was declined or cancelled here."""
        return undo.get("id") in self.settled_undos.get(match.id, ())

    # -- invitations ------------------------------------------------------------------------
    def invite(self, key, seat=None):
        """Invite another table (of this café or another) to play ``key``'s game with
        ``key``'s board settings: an invitation code."""
        table = self.floor.table(key)
        if table is None or not table.online:
            raise ActionError("%s is not on the floor, or offline" % str(key)[:24])
        try:  # the board's settings now (the mirror may not have read a change yet)
            reply = table.conn.link.command("settings")
        except LinkError as exc:
            raise ActionError("%s does not answer: %s" % (key, exc)) from None
        settings = {}
        for line in reply:
            words = line.split()
            if len(words) == 3 and words[0] == "ok":
                settings[words[1]] = words[2]
        game = settings.get("game")
        if game not in games.GAMES:
            raise ActionError("%s plays no game the host knows" % key)
        pkg = games.load(game)
        params = {}
        for k in pkg.NEW_GAME_SETTINGS:
            v = settings.get(k, pkg.DEFAULTS.get(k))
            if v is not None:
                params[k] = int(v) if isinstance(pkg.DEFAULTS.get(k), int) else v
        names = pkg.PLAYER_NAMES
        if seat is None or seat == "":
            seat = params.get("first", names[0])
        if seat not in names:
            raise ActionError("%s has no player '%s' (players: %s)" % (
                game, str(seat)[:20], ", ".join(names)))
        with self.lock:
            if self.busy(key):
                raise ActionError("%s already plays a match: end it first" % key)
            seats = [None] * pkg.PLAYERS
            seats[names.index(seat)] = [self.cafe, key]
            match = Match.new(game, params, seats, code=new_code())
            if self.key is not None:
                match.keys[self.cafe] = self.key.public_hex
            self.matches[match.id] = match
            self.save(match)
        self._publish_invite(match)
        return {"ok": True, "code": match.code, "match": match.id,
                "reply": "invitation %s: %s, %s plays %s" % (match.code, pkg.TITLE, key, seat)}

    def _invite_message(self, match):
        return {"t": "invite", "match": match.id, "game": match.game, "params": match.params,
                "seats": match.seats, "title": match.pkg.TITLE, "keys": match.keys}

    def _publish_invite(self, match):
        """The invitation, sealed with its code's key, on the topic its code names."""
        if self.broker is not None and match.code:
            secret = self._secret(match.code)
            self.broker.publish("invite", secret.topic_id,
                                secret.seal(self._invite_message(match)),
                                retain=match.state == "inviting")

    def lookup(self, code):
        """What an invitation code invites to (this café's own, or another's through the
        broker): {"code", "cafe", "game", "title", "params", "seats", "match"}."""
        code = normal_code(code)
        if not code:
            raise ActionError("an invitation code is 8 letters and digits, like ABCD-EFGH")
        with self.lock:
            for m in self.matches.values():
                if m.code == code and self.cafe in [s[0] for s in m.seats if s]:
                    if m.state != "inviting":
                        raise ActionError("invitation %s is %s" % (code, m.state))
                    return dict(self._invite_message(m), code=code, cafe=self.cafe)
        if self.broker is None:
            raise ActionError("no invitation %s in this café (and no broker to ask others)"
                              % code)
        topic_id = self._secret(code).topic_id
        topic = "xobo/v1/+/invite/" + topic_id
        with self.invite_seen:  # (read afresh: taken or cancelled since the last look)
            self.invites.pop(code, None)
        self.looking[topic_id] = code
        self.broker.subscribe(topic)
        deadline = time.monotonic() + LOOKUP_S
        try:
            with self.invite_seen:
                while code not in self.invites:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        raise ActionError("no invitation %s found on the broker (a typo? "
                                          "cancelled?)" % code)
                    self.invite_seen.wait(left)
                return dict(self.invites[code])
        finally:
            self.broker.unsubscribe(topic)
            self.looking.pop(topic_id, None)

    def accept(self, code, key):
        """Table ``key`` of this café takes a free seat of the invitation ``code``."""
        inv = self.lookup(code)
        table = self.floor.table(key)
        if table is None or not table.online:
            raise ActionError("%s is not on the floor, or offline" % str(key)[:24])
        with self.lock:
            if self.busy(key):
                raise ActionError("%s already plays a match: end it first" % key)
            if inv["cafe"] == self.cafe:
                match = self.matches[inv["match"]]
                with match.lock:
                    free = [i for i, s in enumerate(match.seats) if s is None]
                    if not free:
                        raise ActionError("invitation %s has no free seat" % code)
                    match.seats[free[0]] = [self.cafe, key]
                    if all(match.seats):
                        match.state = "playing"
                        self._clear_invite(match)
                    self.save(match)
                    self._send(match, self._start_message(match))
                    self._wake_tables(match)
                return {"ok": True, "match": match.id, "reply": "%s plays %s in match %s" % (
                    key, match.names[free[0]], code)}
            seats = inv.get("seats")
            if not isinstance(seats, list):
                raise ActionError("invitation %s is damaged" % code)
            free = [i for i, s in enumerate(seats) if s is None]
            if not free:
                raise ActionError("invitation %s has no free seat" % code)
            seats = [list(s) if s else None for s in seats]
            seats[free[0]] = [self.cafe, key]
            keys = {c: k for c, k in inv["keys"].items() if isinstance(k, str)}
            keys[self.cafe] = self.key.public_hex
            try:
                match = Match(inv["match"], inv["game"], inv["params"], seats,
                              state="inviting", code=code, keys=keys)
            except (MatchError, KeyError, TypeError) as exc:
                raise ActionError("invitation %s cannot be played here: %s" % (code, exc)) \
                    from None
            self.matches[match.id] = match
            self.save(match)
        self._answer(code, {"t": "accept", "match": match.id, "seat": free[0], "table": key,
                            "key": self.key.public_hex})
        return {"ok": True, "match": match.id, "reply": "%s plays %s in match %s (waiting for"
                " %s to start it)" % (key, match.names[free[0]], code, inv["cafe"])}

    def decline(self, code):
        inv = self.lookup(code)
        with self.lock:
            if inv["cafe"] == self.cafe:
                match = self.matches[inv["match"]]
                with match.lock:
                    match.state = "declined"
                    self.save(match)
                    self._clear_invite(match)
                return {"ok": True, "reply": "invitation %s declined" % code}
        self._answer(inv["code"], {"t": "decline", "match": inv["match"]})
        return {"ok": True, "reply": "invitation %s declined" % inv["code"]}

    def _answer(self, code, msg):
        """An answer to another café's invitation, sealed with its code's key."""
        secret = self._secret(code)
        self.broker.publish("reply", secret.topic_id, secret.seal(msg))

    def _clear_invite(self, match):
        """The invitation no longer open: its retained message cleared."""
        if match.code and self.broker is not None:
            self.broker.publish("invite", self._secret(match.code).topic_id, None,
                                retain=True)

    def _start_message(self, match):
        return {"t": "start", "seats": match.seats, "state": match.state,
                "epoch": match.epoch, "keys": match.keys}

    # -- the broker -------------------------------------------------------------------------
    def _send(self, match, msg, qos=1):
        if self.broker is None or not self.remote_cafes(match):
            return
        self.broker.publish_signed(match.id, msg, qos=qos)

    def _hello(self, match):
        hello = {"t": "hello", "n": match.ply, "epoch": match.epoch,
                 "hash": match.position_hash(), "state": match.state, "seats": match.seats,
                 "undo": match.undo, "resigned": match.resigned}
        if match.state == "inviting" and self._inviter(match) == self.cafe:
            hello["keys"] = match.keys  # (a start lost: the hello starts the match)
        return hello

    def _hellos(self):
        """Each match's hello every ``hello_s``, the matches' hellos spread over it: said all
        at once, a hundred matches' hellos were a burst every 2 s that each café's network
        thread, the broker and the other café handled together, and the moves made during
        it waited for it (the benchmark's p95, docs/remote.md)."""
        while True:
            ids = [m.id for m in list(self.matches.values()) if self._says_hello(m)]
            if not ids:
                if self.stopping.wait(self.hello_s):
                    return
                continue
            gap = self.hello_s / len(ids)
            for ident in ids:
                if self.stopping.wait(gap):
                    return
                self.say_hello([self.matches[ident]])

    def _says_hello(self, match):
        return match.state in ("playing", "over", "conflict", "inviting") and \
            bool(self.remote_cafes(match))

    def say_hello(self, matches=None):
        """The hellos of ``matches`` (all: after a (re)connection)."""
        # (each made under its match's lock, all sent after: the tables' moves do not wait
        # for a hundred hellos going out)
        hellos = []
        for m in list(self.matches.values()) if matches is None else matches:
            with m.lock:
                if self._says_hello(m):
                    hellos.append((m.id, self._hello(m)))
        if self.broker is not None:
            for ident, hello in hellos:
                self.broker.publish_signed(ident, hello, qos=0)  # (said again in 2 s)

    def _on_connect(self):
        trace("connected")
        with self.lock:
            for m in self.matches.values():
                if m.state == "inviting" and m.code and m.seats[0] is not None and \
                        any(s and s[0] == self.cafe for s in m.seats) and \
                        self._inviter(m) == self.cafe:
                    with m.lock:
                        self._publish_invite(m)
        self.say_hello()

    def _inviter(self, match):
        for s in match.seats:
            if s is not None:
                return s[0]
        return None

    # -- what arrives: checked first ----------------------------------------------------------
    def refuse(self, sender, topic, why):
        """A message that failed its checks: ignored, logged, and listed on the staff's page
        (``refused``)."""
        entry = {"at": time.time(), "from": str(sender)[:32], "topic": str(topic)[:120],
                 "why": str(why)[:200]}
        with self.changed:
            self.refused.appendleft(entry)
        print("xobo cafe: refused a message on %s: %s" % (entry["topic"], entry["why"]))
        self._bump()

    def _refused_by_link(self, topic, why):
        parts = topic.split("/")
        self.refuse(parts[2] if len(parts) > 2 else "?", topic, why)

    def _on_message(self, sender, kind, rest, msg):
        """(the broker's inbox thread) A message of another café, opened and checked
        (``_open``); one that fails is refused. The tests' ``filter`` then sees what passed."""
        from xobo_host.cafe.seal import SealError

        try:
            opened = self._open(sender, kind, rest, msg)
        except SealError as exc:
            self.refuse(sender, "%s/%s/%s" % (sender, kind, rest[:40]), exc)
            return
        if opened is None:
            return
        kind, rest, msg = opened
        if self.filter is not None:
            for m in self.filter(sender, kind, rest, msg):
                self.handle(sender, kind, rest, m)
            return
        self.handle(sender, kind, rest, msg)

    def _open(self, sender, kind, rest, msg):
        """(kind, rest, message) of what arrived, the code in place of an invitation's topic
        id; None for what is not for this café; SealError for what is not what it claims."""
        from xobo_host.cafe.seal import SealError

        if kind == "match":
            return self._open_match(sender, rest, msg)
        if kind == "invite" and sender == self.cafe:
            self._guard_invite(rest, msg)
            return None
        if kind == "invite":
            code = self.looking.get(rest)
            if code is None or msg is None:
                return None  # (another café's invitation: not looked up here)
            return kind, code, self._secret(code).open(msg)
        if kind == "reply":
            match = self._invited_by_topic(rest)
            if match is None:
                return None
            if msg is None:
                raise SealError("an empty answer")
            return kind, match.code, self._secret(match.code).open(msg)
        if kind == "floor":
            self.floors.take(sender, msg)  # (shown by the pages once taken: SealError else)
            return None
        return None  # (nothing else is said between cafés)

    def _open_match(self, sender, ident, envelope):
        from xobo_host.cafe.seal import ReplayGuard, SealError, open_signed

        match = self.matches.get(ident)  # (only ever added to: no lock needed)
        if match is None:
            return None  # another match on the network
        if envelope is None:
            raise SealError("an empty message")
        if sender == self.cafe:
            raise SealError("a message in this café's own name, not sent by it")
        with match.lock:
            key = match.keys.get(sender)
            if key is None:
                raise SealError("%s plays no seat of this match (no key of it)" % sender
                                if sender not in self.remote_cafes(match) else
                                "%s's key is not known here yet" % sender)
        # (checked without the match's lock: its table's worker, passing its own move on,
        # does not wait for the check, nor this for it)
        seq, msg = open_signed(envelope, key, sender, ident)
        with match.lock:
            guard = self.guards.get((ident, sender))
            if guard is None:
                guard = self.guards[(ident, sender)] = ReplayGuard(match.seen.get(sender, -1))
            if not guard.take(seq):
                raise SealError("a message of %s taken already (a replay)" % sender)
            match.seen[sender] = guard.newest
        return "match", ident, msg

    def _secret(self, code):
        """The invitation ``code``'s topic id and key (``seal.InviteSecret``: scrypt, kept)."""
        from xobo_host.cafe.seal import InviteSecret

        with self.secrets_lock:
            secret = self.secrets.get(code)
        if secret is None:
            secret = InviteSecret(code)
            with self.secrets_lock:
                self.secrets[code] = secret
        return secret

    def _invited_by_topic(self, topic_id):
        """This café's open invitation whose topic id is ``topic_id``."""
        for m in list(self.matches.values()):
            if m.code and m.state == "inviting" and self._inviter(m) == self.cafe and \
                    self._secret(m.code).topic_id == topic_id:
                return m
        return None

    def _guard_invite(self, topic_id, msg):
        """This café's own invitation topic as the broker holds it: cleared or replaced by
        another client (an open broker) while still open, it is said again."""
        from xobo_host.cafe.seal import SealError

        match = self._invited_by_topic(topic_id)
        if match is None:
            return
        try:
            if msg is None:
                raise SealError("an open invitation cleared by another client")
            self._secret(match.code).open(msg)
            return
        except SealError as exc:
            self.refuse("?", "%s/invite/%s" % (self.cafe, topic_id), exc)
        with match.lock:
            self._publish_invite(match)

    # -- what arrives: handled ---------------------------------------------------------------
    def handle(self, sender, kind, rest, msg):
        """One message of another café, opened and checked (``_on_message``)."""
        if kind == "invite":
            if msg.get("t") == "invite" and isinstance(msg.get("keys"), dict) and \
                    isinstance(msg["keys"].get(sender), str):
                with self.invite_seen:
                    self.invites[rest] = dict(msg, cafe=sender, code=rest)
                    self.invite_seen.notify_all()
            return
        if msg is None:
            return
        if kind == "match":
            trace("recv", rest, msg.get("t"), msg.get("n") if msg.get("t") != "log" else
                  len(msg.get("moves") or ()))
        if kind == "reply":
            with self.lock:
                self._reply(sender, rest, msg)
        elif kind == "match":
            match = self.matches.get(rest)  # (only ever added to: no lock needed)
            if match is None:
                return
            with match.lock:  # (the other matches' messages and moves do not wait)
                if sender not in self.remote_cafes(match) and msg.get("t") != "start":
                    return
                self._match_message(match, sender, msg)

    def _reply(self, sender, code, msg):
        match = next((m for m in self.matches.values() if m.code == code
                      and self._inviter(m) == self.cafe), None)
        if match is None:
            return
        with match.lock:
            self._seat_reply(match, sender, code, msg)

    def _seat_reply(self, match, sender, code, msg):
        from xobo_host.cafe.seal import SealError, public_key

        if match.state != "inviting" or msg.get("match") != match.id:
            return
        if msg.get("t") == "decline":
            match.state = "declined"
            self.save(match)
            self.broker.publish("invite", self._secret(code).topic_id, None, retain=True)
            return
        seat, key, their_key = msg.get("seat"), msg.get("table"), msg.get("key")
        if msg.get("t") != "accept" or not isinstance(seat, int) or not isinstance(key, str):
            return
        try:
            public_key(their_key)
        except SealError as exc:
            self.refuse(sender, "%s/reply/%s" % (sender, self._secret(code).topic_id),
                        "an answer without the café's key: %s" % exc)
            return
        if [sender, key[:24]] in match.seats:
            return  # (a reply delivered twice)
        if not 0 <= seat < len(match.seats) or match.seats[seat] is not None:
            # taken meanwhile by another table (X: two cafés accept at once): the first
            # free seat; the start message tells the café which it got
            free = [i for i, s in enumerate(match.seats) if s is None]
            if not free:
                return  # no seat left: the start message tells that café it is out
            seat = free[0]
        match.seats[seat] = [sender, key[:24]]
        match.keys[sender] = their_key
        if all(match.seats):
            match.state = "playing"
            self.broker.publish("invite", self._secret(code).topic_id, None, retain=True)
        else:  # the invitation with its seats taken, for the next café that looks it up
            self._publish_invite(match)
        self.save(match)
        self._send(match, self._start_message(match))
        self._wake_tables(match)

    def _match_message(self, match, sender, msg):
        """One message of café ``sender`` about ``match`` (its lock held), by its kind."""
        handler = self.MESSAGE_HANDLERS.get(msg.get("t"))
        if handler is not None:
            handler(self, match, sender, msg)

    def _on_start(self, match, sender, msg):
        """The inviting café's word on the seats (and the cafés' keys): the match starts,
        or this café's tables were left out."""
        seats = msg.get("seats")
        if self._inviter(match) != sender or not isinstance(seats, list) or \
                len(seats) != len(match.seats):
            return
        seats = [[str(x)[:32] for x in s[:2]] if isinstance(s, list) and len(s) == 2
                 else None for s in seats]
        mine = [s for s in match.seats if s and s[0] == self.cafe]
        if any(s not in seats for s in mine):
            if msg.get("state") == "playing" and match.state == "inviting":
                match.state = "declined"  # every seat went to other tables first
                match.note = "the other tables took every seat first"
        else:
            match.seats = seats
            keys = msg.get("keys")
            if isinstance(keys, dict):  # (the inviter vouches for them: signed by it)
                for s in seats:
                    if s and s[0] != self.cafe and s[0] != sender and \
                            isinstance(keys.get(s[0]), str):
                        match.keys[s[0]] = keys[s[0]]
            if msg.get("state") == "playing" and match.state == "inviting":
                match.state = "playing"
        self.save(match)
        self._wake_tables(match)

    def _on_cancel(self, match, sender, msg):
        if match.state in ACTIVE:
            match.state = "cancelled"
            self.save(match)

    def _on_move(self, match, sender, msg):
        """A move of another café: only of a seat it plays (``Match.offer``)."""
        epoch = msg.get("epoch")
        seats = {i for i, s in enumerate(match.seats) if s and s[0] == sender}
        verdict, info = match.offer(msg.get("n"), msg.get("move"), msg.get("before"),
                                    epoch if isinstance(epoch, int) else -1, seats)
        if verdict == "refused":
            self.refuse(sender, "%s/match/%s" % (sender, match.id), "%s, not %s's" % (
                info[0], sender))
            return
        self._verdict(match, sender, verdict, info)

    def _on_ask(self, match, sender, msg):
        self._send(match, self._log_message(match))

    def _on_log(self, match, sender, msg):
        """Another café's whole log (its answer to an ask, a resolution, a conflict's)."""
        moves, epoch = msg.get("moves"), msg.get("epoch")
        if not isinstance(moves, list) or not isinstance(epoch, int) or \
                not all(isinstance(x, str) for x in moves):
            return
        if msg.get("t") == "resolve" or (match.state == "conflict" and epoch > match.epoch):
            self._take_resolution(match, sender, epoch, moves)
            return
        if match.state == "conflict":  # (its log, for the staff's resolution)
            if epoch == match.epoch:
                match.other_logs[sender] = list(moves)
                self._bump()
            return
        verdict, info = match.adopt(epoch, moves)
        if verdict in ("applied", "duplicate") and match.epoch == epoch:
            self._merge_flags(match, msg)
        self._verdict(match, sender, verdict, info)

    def _on_hello(self, match, sender, msg):
        """Where the other café's log is: ask for what we miss, send what it misses, and
        compare the positions."""
        n, h, epoch = msg.get("n"), msg.get("hash"), msg.get("epoch")
        if not isinstance(n, int) or not isinstance(epoch, int):
            return
        if match.state == "inviting" and msg.get("state") == "playing" and \
                sender == self._inviter(match):
            self._on_start(match, sender, {"seats": msg.get("seats"), "keys": msg.get("keys"),
                                           "state": "playing"})
        if epoch > match.epoch or (epoch == match.epoch and n > match.ply):
            self._send(match, {"t": "ask", "from": match.ply + 1, "epoch": match.epoch})
        elif epoch < match.epoch or n < match.ply:
            self._send(match, self._log_message(match))
        elif h != match.position_hash() and match.state != "conflict":
            self._conflict(match, "the two cafés' positions differ after %d moves" % n)
        elif match.state == "conflict" and sender not in match.other_logs:
            self._send(match, {"t": "ask", "from": 0, "epoch": match.epoch})
        elif self._merge_flags(match, msg):
            self.save(match)
            self._wake_tables(match)

    def _on_undo(self, match, sender, msg):
        """Another café's take-back proposal."""
        to, by, epoch = msg.get("to"), msg.get("by"), msg.get("epoch")
        if epoch == match.epoch and match.undo is None and isinstance(to, int) and \
                isinstance(by, list) and 0 <= to <= match.ply and \
                not self._settled(match, msg):
            seats = [s for s in by if isinstance(s, int) and 0 <= s < len(match.seats)
                     and match.seats[s] and match.seats[s][0] == sender]
            if not seats:
                return
            match.undo = {"to": to, "by": seats, "ok": list(seats), "epoch": epoch,
                          "id": _word(msg.get("id"))}
            self.save(match)
            self._wake_tables(match)

    def _on_undo_ok(self, match, sender, msg):
        seats = msg.get("seats")
        if msg.get("epoch") == match.epoch and match.undo is not None and \
                msg.get("to") == match.undo["to"] and isinstance(seats, list):
            self._accept_undo(match, [s for s in seats if isinstance(s, int)
                                      and 0 <= s < len(match.seats)
                                      and match.seats[s][0] == sender], send=False)

    def _on_undo_no(self, match, sender, msg):
        if msg.get("epoch") == match.epoch and match.undo is not None:
            self._settle_undo(match)
            self.save(match)
            self._wake_tables(match)

    def _on_resign(self, match, sender, msg):
        seat = msg.get("seat")
        if isinstance(seat, int) and 0 <= seat < len(match.seats) and \
                match.seats[seat] and match.seats[seat][0] == sender and match.resigned < 0:
            match.resigned = seat
            match.state = "over"
            self.save(match)
            self._wake_tables(match)

    def _on_conflict(self, match, sender, msg):
        epoch = msg.get("epoch")
        if match.state != "conflict" and (not isinstance(epoch, int) or
                                          epoch >= match.epoch):
            match.state = "conflict"
            match.conflict = "%s says: %s" % (sender, str(msg.get("why"))[:200])
            self.save(match)
            self._send(match, self._log_message(match))  # (for the staff's resolution)

    MESSAGE_HANDLERS = {
        "start": _on_start, "cancel": _on_cancel, "move": _on_move, "ask": _on_ask,
        "log": _on_log, "resolve": _on_log, "hello": _on_hello, "undo": _on_undo,
        "undo-ok": _on_undo_ok, "undo-no": _on_undo_no, "resign": _on_resign,
        "conflict": _on_conflict,
    }

    def _merge_flags(self, match, msg):
        """A resignation or a take-back proposal the other café knows and we missed."""
        changed = False
        r = msg.get("resigned")
        if isinstance(r, int) and 0 <= r < len(match.seats) and match.resigned < 0:
            match.resigned = r
            match.state = "over"
            changed = True
        undo = msg.get("undo")
        if match.undo is None and isinstance(undo, dict) and undo.get("epoch") == match.epoch \
                and isinstance(undo.get("to"), int) and 0 <= undo["to"] <= match.ply and \
                not self._settled(match, undo):
            match.undo = {"to": undo["to"], "by": list(undo.get("by", [])),
                          "ok": list(undo.get("ok", [])), "epoch": match.epoch,
                          "id": _word(undo.get("id"))}
            changed = True
        return changed

    def _verdict(self, match, sender, verdict, info):
        if verdict == "applied":
            trace("applied", match.id, match.ply)
            if match.undo is not None and match.undo["epoch"] == match.epoch:
                self._settle_undo(match)  # a move instead of the take-back: declined
            # (the network thread goes on to the next message at once; the boards are
            # given the move once it is in the database)
            for key in self.local_tables(match):
                if key in self.syncs:
                    self._relay_due(key)
            self.save_soon(match, then=lambda: self._wake_tables(match))
        elif verdict == "gap":
            if info and info[0] == 0:
                self._send(match, {"t": "ask", "from": 0, "epoch": match.epoch})
            else:
                self._send(match, {"t": "ask", "from": info[0] if info else 0,
                                   "epoch": match.epoch})
        elif verdict == "conflict":
            self._conflict(match, info[0] if info else "the logs differ")

    def _conflict(self, match, why):
        match.state = "conflict"
        match.conflict = why
        self.save(match)
        self._send(match, {"t": "conflict", "why": why, "epoch": match.epoch})
        self._send(match, self._log_message(match))  # (for the staff's resolution)

    def _log_message(self, match):
        return {"t": "log", "epoch": match.epoch, "moves": match.moves, "undo": match.undo,
                "resigned": match.resigned}

    # -- spectators -------------------------------------------------------------------------
    def _publish_floor(self):
        floor = self.floor
        version = -1
        while not self.stopping.is_set():
            with floor.changed:
                if floor.version == version:
                    floor.changed.wait(5.0)
            if self.stopping.is_set():
                return
            version = floor.version
            snap = floor.snapshot()
            # the host's ports are nobody else's business: its problems, each table's device
            snap.pop("problems", None)
            snap["tables"] = [{k: v for k, v in t.items() if k != "device"}
                              for t in snap.get("tables", ())]
            snap["cafe"] = self.cafe
            snap["matches"] = [dict(v, code="") for v in self.views()]  # codes: the staff's
            self.broker.publish_floor(snap)  # (signed: a spectator shows no forged floor)
            self.stopping.wait(FLOOR_EVERY_S)

    def watch(self, cafe):
        """Follow another café's published floor (its snapshot once one is taken:
        ``floorwatch``)."""
        from xobo_host.cafe.broker import PREFIX, check_cafe_name
        from xobo_host.cafe.floorwatch import WatchError

        if self.broker is None:
            raise ActionError("this host has no broker: it can watch only its own floor")
        check_cafe_name(cafe)
        try:
            return self.floors.watch(cafe, "%s/%s/floor" % (PREFIX, cafe))
        except WatchError as exc:
            raise ActionError(str(exc)) from None

    def forget_floor_key(self, cafe):
        """The staff's: forget the key kept for café ``cafe``'s floors (``floorwatch``)."""
        from xobo_host.cafe.broker import check_cafe_name
        from xobo_host.cafe.floorwatch import WatchError

        if self.floors is None:
            raise ActionError("this host has no broker: it keeps no other café's key")
        check_cafe_name(cafe)
        try:
            return self.floors.forget(cafe)
        except WatchError as exc:
            raise ActionError(str(exc)) from None

    def learnt_key(self, cafe):
        """(public key, when, match id) of café ``cafe`` as this café's newest match with it
        gave it (sealed with the invitation's code, or in the inviter's signed start), or
        None."""
        best = None
        for m in list(self.matches.values()):  # (only ever added to: no lock needed)
            key = m.keys.get(cafe)
            if isinstance(key, str) and (best is None or m.created > best[1]):
                best = (key, m.created, m.id)
        return best

    def _watched_changed(self):
        """The pages that follow another café's floor look again (not this café's own)."""
        with self.changed:
            self.version += 1
            self.changed.notify_all()

    # -- what the pages show ----------------------------------------------------------------
    def views(self):
        out = []
        for m in sorted(list(self.matches.values()), key=lambda m: -m.created):
            with m.lock:
                v = m.view()
                v["seat_text"] = [self.seat_text(m, i) if m.seats[i] else "invited"
                                  for i in range(len(m.seats))]
                v["local"] = self.local_tables(m)
                v["notes"] = {k: self.syncs[k].note for k in v["local"] if k in self.syncs}
                if m.state == "conflict":  # the moves every café's log has (None: unknown)
                    agreed = m.agreed(self.remote_cafes(m))
                    v["agreed"] = None if agreed is None else len(agreed)
            out.append(v)
        return out
