"""A match between tables (docs/remote.md): its seats, its moves, and what a message about it
means. Pure logic and its SQLite rows: no board, no network (``matches`` drives those).

A match is a game (its name and parameters: the settings of its new game) played by seats:
seat ``i`` is player ``i`` of the game (XoBo's ``ns``, ``ew``; X's ``red``, ``yellow``,
``green``), and each seat is a table of some café (``[cafe, table]``). Its **log** is the list
of moves played, in the game's notation; the host keeps the game's own position (the rules
engine the board runs) replayed from it, so every move is checked before it is taken, and the
position each move applies to is known.

A move travels as ``{"t": "move", "n": N, "move": "e5", "before": HASH, "epoch": E}``:

- ``n`` its number (1 for the first move), ``before`` a hash of the position it applies to
  (``position_hash``), ``epoch`` the number of take-backs agreed so far (a move of an older
  epoch was taken back: it is stale and ignored);
- a move already in the log (same number, same move) is a **duplicate**: ignored;
- a move beyond the next is kept until the moves before it arrive and the **missing** ones
  are asked for (``gap``);
- a move that names another move at a number already played, or applies to another position
  than ours, is a **conflict**: the match stops relaying and shows it (both sides' moves).

Usage::

    >>> from xobo_host.cafe.match import Match
    >>> seats = [["cafe-a", "t1"], ["cafe-b", "t7"]]
    >>> here = Match.new("xobo", {"variant": "xobo", "first": "ns"}, seats)
    >>> there = Match.new("xobo", {"variant": "xobo", "first": "ns"}, seats)  # the other café
    >>> for move in ("e5", "d4", "e4"): there.play(move)
    >>> def arrives(n):                   # move n, as the other café's message says it
    ...     msg = there.move_message(n)
    ...     return here.offer(msg["n"], msg["move"], msg["before"], msg["epoch"])
    >>> arrives(1), arrives(1)
    (('applied', ['e5']), ('duplicate', []))
    >>> arrives(3)                        # kept; move 2 is asked for
    ('gap', [2])
    >>> arrives(2)
    ('applied', ['d4', 'e4'])
    >>> here.position_text() == there.position_text()
    True
"""

import hashlib
import json
import secrets
import threading
import time

from xobo import games
from xobo_host.cafe.movetrace import new_lock

# a match's state: waiting for the invited tables, played, ended (by the rules or a
# resignation), stopped by a conflict, or declined / cancelled before it started
STATES = ("inviting", "playing", "over", "conflict", "declined", "cancelled")
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud, typed
MAX_PENDING = 64  # moves held beyond a gap (a peer cannot make the host keep more)
LOCK_TIMEOUT_S = 15.0  # a match's row waits this long for the recorders' writes


class MatchError(ValueError):
    """A match that cannot be (a game with another number of players, a move that is not
    legal): the message says what is wrong."""


def new_code():
    """An invitation code: 8 characters of ``CODE_ALPHABET`` (40 bits), as ``ABCD-EFGH``."""
    raw = "".join(secrets.choice(CODE_ALPHABET) for _ in range(8))
    return raw[:4] + "-" + raw[4:]


def normal_code(text):
    """An invitation code as typed ('abcd efgh', 'ABCDEFGH') in its form 'ABCD-EFGH', or ''
    when it cannot be one."""
    if not isinstance(text, str):
        return ""
    raw = "".join(c for c in text.upper() if c not in " -")
    if len(raw) != 8 or any(c not in CODE_ALPHABET for c in raw):
        return ""
    return raw[:4] + "-" + raw[4:]


def position_hash(text):
    """The short hash that names a position (its notation) in messages."""
    return hashlib.sha256(text.encode("ascii", "replace")).hexdigest()[:16]


class Match:
    def __init__(self, ident, game, params, seats, moves=(), epoch=0, state="playing",
                 code="", created=None, resigned=-1, undo=None, conflict="", note="",
                 prepared=(), ended=(), keys=None, seen=None):
        if game not in games.GAMES:
            raise MatchError("unknown game '%s'" % str(game)[:24])
        self.pkg = games.load(game)
        if len(seats) != self.pkg.PLAYERS:
            raise MatchError("%s is played by %d players, not %d" % (
                game, self.pkg.PLAYERS, len(seats)))
        self.id = ident
        self.game = game
        self.params = dict(params)
        self.seats = [list(s) if s else None for s in seats]
        self.epoch = epoch
        self.state = state
        self.code = code
        self.created = created or time.time()
        self.resigned = resigned  # the seat that resigned, -1
        self.undo = undo  # a take-back proposed: {"to": ply, "by": seat, "ok": [seats]}
        self.conflict = conflict
        self.note = note
        self.prepared = list(prepared)  # this café's tables whose board started the match
        self.ended = list(ended)  # this café's tables whose board shows the resignation
        # the public key of each café of the match, learnt from the sealed invitation and
        # its answers (docs/remote.md, "Security"): {cafe: 64 hex digits}
        self.keys = dict(keys or {})
        # the newest sequence number taken from each other café (``seal.ReplayGuard``)
        self.seen = dict(seen or {})
        self.pending = {}  # n -> (move, before, seats of its sender): moves beyond a gap
        # in a conflict, the other cafés' logs as they sent them: {cafe: moves}
        self.other_logs = {}
        self.resolved_by = ""  # the café whose resolution made this epoch's log
        # (the café host's: what a table's worker, a message of another café and a page do
        # to this match, one at a time; other matches' are not waited for)
        self.lock = new_lock()
        self._positions = [self._start()]  # the position's text after each ply
        self._pos = self.pkg.new_position(self._settings())
        self.moves = []
        for text in moves:
            self._append(text)

    @classmethod
    def new(cls, game, params, seats, code=""):
        return cls(secrets.token_hex(8), game, params, seats, state="inviting" if any(
            s is None for s in seats) else "playing", code=code)

    # -- the game ---------------------------------------------------------------------------
    def _settings(self):
        s = dict(self.pkg.DEFAULTS)
        s.update(self.params)
        return s

    def _start(self):
        return self.pkg.new_position(self._settings()).to_string()

    @property
    def names(self):
        return self.pkg.PLAYER_NAMES

    def position(self):
        """The game's position after the log (a fresh one: the caller may change it)."""
        return self.pkg.parse_position(self._positions[-1], self._settings())

    def position_text(self, ply=None):
        return self._positions[len(self.moves) if ply is None else ply]

    def position_hash(self, ply=None):
        return position_hash(self.position_text(ply))

    @property
    def ply(self):
        return len(self.moves)

    def side(self):
        """The seat to move now."""
        return self._pos.side

    def terminal(self):
        return self._pos.is_terminal()

    def winner_of_resignation(self):
        """The seat that wins when ``resigned`` resigned: the other one of two; of three
        (X) none (-1): no rule names one winner then."""
        if self.resigned < 0 or len(self.seats) != 2:
            return -1
        return 1 - self.resigned

    def seat_name(self, seat):
        """Seat ``seat`` as the pages say it: its table (and café)."""
        s = self.seats[seat]
        return "%s of %s" % (s[1], s[0]) if s else "a seat still invited"

    def resign_line(self):
        """The serial command that shows the resignation on a board (docs/protocol.md)."""
        w = self.winner_of_resignation()
        return "resign %s %s" % (self.names[self.resigned], self.names[w] if w >= 0 else "none")

    def result_text(self):
        if self.resigned >= 0:
            w = self.winner_of_resignation()
            return "%s resigned%s" % (self.names[self.resigned],
                                      ", %s wins" % self.names[w] if w >= 0 else "")
        if not self._pos.is_terminal():
            return "*"
        w = self._pos.winner()
        return ("%s wins" % self.names[w]) if w >= 0 else "draw"

    def _append(self, text):
        pos = self._pos
        try:
            m = pos.parse_move(text)
            canonical = pos.move_text(m)  # (its text depends on the position before it)
            pos.play(m)  # checked: MoveError says why it is not legal
        except Exception as exc:
            raise MatchError("%s is not a legal move %d of this match: %s"
                             % (str(text)[:40], len(self.moves) + 1, exc)) from None
        self.moves.append(canonical)
        self._positions.append(pos.to_string())
        if pos.is_terminal() and self.state == "playing":
            self.state = "over"

    def play(self, text):
        """A move of the log's next number (played here); MatchError when not legal."""
        self._append(text)

    def unplay(self):
        """Forget the last move (it could not be saved: it is played again when the board
        is read)."""
        self._pos.undo()
        self.moves.pop()
        self._positions.pop()
        if self.state == "over" and self.resigned < 0:
            self.state = "playing"

    def truncate(self, ply):
        """Take the log back to ``ply`` moves (an agreed take-back): the epoch goes up."""
        if ply < 0 or ply > len(self.moves):
            raise MatchError("no ply %d in a match of %d moves" % (ply, len(self.moves)))
        keep = self.moves[:ply]
        self.moves = []
        self._positions = self._positions[:1]
        self._pos = self.pkg.new_position(self._settings())
        if self.state == "over" and self.resigned < 0:
            self.state = "playing"
        for text in keep:
            self._append(text)
        self.epoch += 1
        self.undo = None
        self.pending = {}

    def leads_to(self, ply, text, position_text):
        """The move ``text`` (its canonical text) when it is legal at ``ply`` and leads to
        ``position_text``, else None."""
        pos = self.pkg.parse_position(self._positions[ply], self._settings())
        try:
            m = pos.parse_move(text)
        except Exception:
            return None
        if not pos.is_legal(m):
            return None
        canonical = pos.move_text(m)
        pos.apply(m)
        return canonical if pos.to_string() == position_text else None

    def find_move(self, ply, position_text):
        """The legal move at ``ply`` that leads to ``position_text`` (a board that played a
        move the host did not see: a host restarted meanwhile), or None."""
        pos = self.pkg.parse_position(self._positions[ply], self._settings())
        for m in pos.legal_actions():
            nxt = pos.clone()
            nxt.apply(m)
            if nxt.to_string() == position_text:
                return pos.move_text(m)
        return None

    def agreed(self, cafes):
        """The moves every log has in common (ours and those of ``cafes``, the other cafés
        of the match), up to the first move where two differ; None while a café's log is
        not known yet."""
        if any(c not in self.other_logs for c in cafes):
            return None
        n = len(self.moves)
        for c in cafes:
            theirs = self.other_logs[c]
            k = 0
            while k < min(n, len(theirs)) and theirs[k] == self.moves[k]:
                k += 1
            n = k
        return self.moves[:n]

    def resolve(self, epoch, moves, by):
        """A conflict settled by the staff of café ``by`` (docs/remote.md): the log becomes
        ``moves`` (each checked with the rules) at ``epoch``, and the match goes on (or is
        over, when the rules say so). MatchError, and nothing changed, when a move is not
        legal."""
        old, state, conflict = list(self.moves), self.state, self.conflict
        epoch0 = self.epoch
        try:
            self.truncate(0)
            for text in moves:
                self._append(text)
        except MatchError:
            self.truncate(0)
            for text in old:
                self._append(text)
            self.epoch, self.state, self.conflict = epoch0, state, conflict
            raise
        self.epoch = epoch
        self.state = "over" if self._pos.is_terminal() else "playing"
        self.conflict = ""
        self.other_logs = {}
        self.resolved_by = by

    # -- messages ---------------------------------------------------------------------------
    def move_message(self, n):
        return {"t": "move", "match": self.id, "n": n, "move": self.moves[n - 1],
                "before": self.position_hash(n - 1), "epoch": self.epoch}

    def offer(self, n, move, before, epoch, seats=None):
        """A move from another café: ('applied', [moves applied]), ('duplicate', []),
        ('stale', []), ('gap', [first missing number]), ('conflict', [why]) or ('refused',
        [why]). ``seats``: the seats that café plays (None: any): a move of another seat is
        refused, and one kept beyond a gap is dropped when its turn comes (asked again)."""
        if epoch < self.epoch:
            return "stale", []
        if epoch > self.epoch:
            return "gap", [0]  # a take-back agreed that we missed: ask for the whole log
        if not isinstance(n, int) or n < 1 or not isinstance(move, str):
            return "stale", []
        if n <= len(self.moves):
            if self.moves[n - 1] == move and self.position_hash(n - 1) == before:
                return "duplicate", []
            return "conflict", ["move %d: %s here, %s there" % (n, self.moves[n - 1], move)]
        if n > len(self.moves) + 1:
            if len(self.pending) < MAX_PENDING:
                self.pending[n] = (move, before, seats)
            return "gap", [len(self.moves) + 1]
        if seats is not None and self._pos.side not in seats:
            return "refused", ["move %d is %s's to play" % (n, self.seat_name(self._pos.side))]
        if before != self.position_hash():
            return "conflict", ["move %d (%s) applies to another position than ours" % (
                n, move)]
        try:
            self._append(move)
        except MatchError as exc:
            return "conflict", [str(exc)]
        applied = [move]
        while len(self.moves) + 1 in self.pending:  # the moves that waited for this one
            nxt, bef, by = self.pending.pop(len(self.moves) + 1)
            if by is not None and self._pos.side not in by:
                self.pending = {}  # (not that café's seat: the hellos ask again)
                break
            if bef != self.position_hash():
                return "conflict", ["move %d (%s) applies to another position than ours" % (
                    len(self.moves) + 1, nxt)]
            try:
                self._append(nxt)
            except MatchError as exc:
                return "conflict", [str(exc)]
            applied.append(nxt)
        return "applied", applied

    def adopt(self, epoch, moves):
        """The whole log of another café (its answer to an ask): taken when its epoch is
        newer, or when it extends ours. Returns ('applied'|'duplicate'|'conflict', info)."""
        if epoch < self.epoch:
            return "stale", []
        if epoch == self.epoch:
            common = min(len(moves), len(self.moves))
            if moves[:common] != self.moves[:common]:
                return "conflict", ["the logs differ from move %d" % next(
                    i + 1 for i in range(common) if moves[i] != self.moves[i])]
            if len(moves) <= len(self.moves):
                return "duplicate", []
            applied = []
            for text in moves[len(self.moves):]:
                try:
                    self._append(text)
                except MatchError as exc:
                    return "conflict", [str(exc)]
                applied.append(text)
            self.pending = {}
            return "applied", applied
        old = list(self.moves)
        state = self.state
        try:
            self.truncate(0)
            for text in moves:
                self._append(text)
        except MatchError as exc:
            self.truncate(0)
            for text in old:
                self._append(text)
            self.state = state
            return "conflict", [str(exc)]
        self.epoch = epoch
        return "applied", list(moves)

    # -- rows -------------------------------------------------------------------------------
    def to_json(self):
        return json.dumps({
            "id": self.id, "game": self.game, "params": self.params, "seats": self.seats,
            "moves": self.moves, "epoch": self.epoch, "state": self.state, "code": self.code,
            "created": self.created, "resigned": self.resigned, "undo": self.undo,
            "conflict": self.conflict, "note": self.note, "prepared": self.prepared,
            "ended": self.ended, "keys": self.keys, "seen": self.seen})

    @classmethod
    def from_json(cls, text):
        d = json.loads(text)
        m = cls(d["id"], d["game"], d["params"], d["seats"], (), d["epoch"], d["state"],
                d.get("code", ""), d.get("created"), d.get("resigned", -1), d.get("undo"),
                d.get("conflict", ""), d.get("note", ""), d.get("prepared", ()),
                d.get("ended", ()), d.get("keys"), d.get("seen"))
        state = m.state
        for text in d["moves"]:
            m._append(text)
        m.state = state
        return m

    def view(self):
        """What the pages show of it."""
        return {"id": self.id, "game": self.game, "title": self.pkg.TITLE,
                "params": self.params, "seats": self.seats, "players": list(self.names),
                "ply": len(self.moves), "moves": list(self.moves), "epoch": self.epoch,
                "state": self.state, "code": self.code, "result": self.result_text(),
                "side": self.names[self._pos.side], "undo": self.undo,
                "conflict": self.conflict, "note": self.note}


class MatchStore:
    """The matches in the café's SQLite file (table ``matches``: one row a match), written by
    one thread of their own: the rows queued meanwhile (each match's latest) go in one commit.

    ``queue(match, then)`` takes the match's row as it is now and returns at once (``then``
    is called once that row is in the file); ``save(match)`` waits until it is. Nothing
    waits for SQLite while holding the matches: a hundred tables moving at once queued
    behind each other's commit, each one waiting its turn on the file with the tables'
    recorders (measured: docs/remote.md). A commit that fails keeps its rows queued and is
    tried again (``RETRY_S``); ``save`` then raises its error."""

    RETRY_S = 1.0

    def __init__(self, path):
        from xobo_host.records.gamesdb import GamesDB

        # (made a games database first: the same file; the tables' recorders write to it
        # too, so a write may wait for theirs)
        self.db = GamesDB(str(path), lock_timeout=LOCK_TIMEOUT_S)
        self.conn = self.db.conn
        self.db.write_ahead()
        # (no fsync at every commit: a killed host loses nothing; after a power cut the
        # boards and the other cafés give back the last moves, docs/remote.md)
        self.conn.execute("PRAGMA synchronous=NORMAL")
        self.conn.execute("CREATE TABLE IF NOT EXISTS matches (id TEXT PRIMARY KEY, "
                          "data TEXT NOT NULL, updated_at REAL NOT NULL)")
        self.conn.commit()
        self._cond = threading.Condition()
        self._queued = {}  # match id -> (row, its ply) not written yet, the latest
        self._then = []  # called once the rows queued before them are written
        self._writing = set()  # match ids of the commit under way
        self._tickets = 0  # rows queued so far
        self._written = 0  # ... and written
        self._failed = (0, None)  # (the last ticket of a commit that failed, its error)
        self._closing = False
        self._thread = threading.Thread(target=self._write, daemon=True,
                                        name="xobo-match-store")
        self._thread.start()

    def queue(self, match, then=None):
        """The match's row as it is now goes into the file soon; ``then()`` once it is
        there (on the store's thread: it must not wait for anything). A ticket for
        ``wait``."""
        row = (match.id, match.to_json(), len(match.moves))
        with self._cond:
            if self._closing:
                raise MatchError("the matches' file is closed (the host is stopping)")
            self._queued[match.id] = row
            if then is not None:
                self._then.append(then)
            self._tickets += 1
            self._cond.notify_all()
            return self._tickets

    def wait(self, ticket, timeout=LOCK_TIMEOUT_S + 5):
        """Until the rows queued up to ``ticket`` are in the file; the error of a commit
        that held them and failed (they are tried again meanwhile)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._written < ticket:
                if self._failed[0] >= ticket:
                    raise self._failed[1]
                left = deadline - time.monotonic()
                if left <= 0:
                    raise MatchError("the match was not written in %.0f s" % timeout)
                self._cond.wait(left)

    def save(self, match):
        """The match's row into the file before this returns."""
        self.wait(self.queue(match))

    def wait_written(self, ident, timeout=LOCK_TIMEOUT_S + 5):
        """Until match ``ident``'s row, as last queued, is in the file (a move is given to
        a board only once it is: docs/remote.md)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while ident in self._queued or ident in self._writing:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise MatchError("the match's moves were not written in %.0f s: %s" % (
                        timeout, self._failed[1] or "the file is busy"))
                self._cond.wait(left)

    def _write(self):
        from xobo_host.cafe.movetrace import trace

        while True:
            with self._cond:
                while not self._queued and not self._closing:
                    self._cond.wait()
                if not self._queued:
                    return  # closing, everything written
                rows, self._queued = self._queued, {}
                then, self._then = self._then, []
                top = self._tickets
                self._writing = set(rows)
            try:
                now = time.time()
                with self.db.writing("save the matches into"), self.conn:
                    self.conn.executemany(
                        "INSERT OR REPLACE INTO matches (id, data, updated_at) "
                        "VALUES (?, ?, ?)", [(i, data, now) for i, data, _ in rows.values()])
            except Exception as exc:
                with self._cond:
                    for ident, row in rows.items():  # (a newer row queued meanwhile wins)
                        self._queued.setdefault(ident, row)
                    self._then[:0] = then
                    self._writing = set()
                    self._failed = (top, exc)
                    self._cond.notify_all()
                    if self._closing:
                        return  # (stopping: nothing more can be done)
                print("xobo cafe: the matches could not be saved (%s): tried again in %.0f s"
                      % (exc, self.RETRY_S))
                time.sleep(self.RETRY_S)
                continue
            for ident, _, ply in rows.values():
                trace("stored", ident, ply)
            with self._cond:
                self._written = top
                self._writing = set()
                self._cond.notify_all()
            for call in then:
                try:
                    call()
                except Exception as exc:  # the store's thread never dies
                    print("xobo cafe: after saving the matches: %s: %s"
                          % (type(exc).__name__, exc))

    def cafe_key(self, cafe):
        """Café ``cafe``'s key pair (``seal.CafeKey``), made at its first match and kept in
        this file (readable by the host's user only, as the broker's password)."""
        from xobo_host.cafe.seal import CafeKey

        self.conn.execute("CREATE TABLE IF NOT EXISTS cafe_keys (cafe TEXT PRIMARY KEY, "
                          "private_key BLOB NOT NULL)")
        row = self.conn.execute("SELECT private_key FROM cafe_keys WHERE cafe = ?",
                                (cafe,)).fetchone()
        if row is not None:
            return CafeKey.from_bytes(row[0])
        key = CafeKey.new()
        with self.db.writing("keep the café's key in"), self.conn:
            self.conn.execute("INSERT INTO cafe_keys (cafe, private_key) VALUES (?, ?)",
                              (cafe, key.to_bytes()))
        return key

    def seq_reserved(self, cafe):
        """The sequence numbers café ``cafe`` may have signed so far, at most (``reserve_seq``:
        0 before its first): a host started again signs only above it, whatever its clock
        says (a Raspberry Pi's clock starts behind until NTP sets it)."""
        self.conn.execute("CREATE TABLE IF NOT EXISTS cafe_seq (cafe TEXT PRIMARY KEY, "
                          "reserved INTEGER NOT NULL)")
        row = self.conn.execute("SELECT reserved FROM cafe_seq WHERE cafe = ?",
                                (cafe,)).fetchone()
        return row[0] if row else 0

    def reserve_seq(self, cafe, upto):
        """Café ``cafe`` may sign sequence numbers up to ``upto`` (kept before they are)."""
        with self.db.writing("keep the café's sequence numbers in"), self.conn:
            self.conn.execute("INSERT OR REPLACE INTO cafe_seq (cafe, reserved) VALUES (?, ?)",
                              (cafe, upto))

    def load_all(self):
        out = []
        for ident, data in self.conn.execute("SELECT id, data FROM matches"):
            try:
                out.append(Match.from_json(data))
            except (MatchError, ValueError, KeyError, TypeError) as exc:
                print("xobo cafe: match %s cannot be read (%s): left aside" % (ident, exc))
        return out

    def close(self, timeout=LOCK_TIMEOUT_S + 5):
        """Writes what is queued, then closes the file."""
        with self._cond:
            self._closing = True
            self._cond.notify_all()
        self._thread.join(timeout)
        self.db.close()
