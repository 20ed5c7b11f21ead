"""Other cafés' floors, shown to this café's spectators only once checked (docs/remote.md,
"Spectators"): a café's floor is signed with its key (``seal.sign_floor``), and a floor is
shown as café X's only when it is signed with the key this café knows for X, and newer than
the last floor of X it showed.

The key known for X is, in this order:

- the key X gave in this café's newest match with it, when that match is newer than the key
  kept below (a key learnt under an invitation's code: nobody else could have given it);
- the key kept in this café's database (``floor_keys``) when X's first floor was seen (trust
  on first use), or learnt from a match then;
- none yet: the key of the first floor seen is kept, with when.

Anything else under X's name on the broker (unsigned, a bad signature, another key, a floor
older than the last one taken: a retained floor published again) is refused: the page says
that what the broker carries under X's name is not X's and shows nothing of it, and the
refusal goes to the staff's list (``MatchService.refuse``, through the ``SealError`` raised).
The staff can forget X's key (``forget``: a café that changed its key, a new installation):
every key learnt before is set aside, and the next floor's key is kept.

The newest sequence number taken from X is kept with its key, in the file at most every
``KEEP_SEQ_S`` (a watching host started again refuses the floors older than it).

Usage::

    >>> import json
    >>> from xobo_host.cafe.floorwatch import WatchedFloors
    >>> from xobo_host.cafe.match import MatchStore
    >>> from xobo_host.cafe.seal import CafeKey, sign_floor
    >>> store = MatchStore("games.sqlite")
    >>> topics = []                               # (a BrokerLink's subscribe, in the host)
    >>> floors = WatchedFloors(store, learnt_key=lambda cafe: None,   # MatchService.learnt_key
    ...                        subscribe=topics.append, changed=lambda: None)
    >>> floors.watch("corner-cafe", "xobo/v1/corner-cafe/floor")   # its floor: none yet
    >>> theirs = CafeKey.new()                    # corner-cafe's, at corner-cafe
    >>> envelope = json.loads(sign_floor(theirs, "corner-cafe", 1, {"tables": []}))
    >>> floors.take("corner-cafe", envelope)      # (the broker's inbox): shown
    True
    >>> view = floors.view("corner-cafe")         # {"floor", "signed", "refused", "at"}
    >>> view["floor"], view["signed"]["source"]   # its first floor's key is kept
    ({'tables': []}, 'first seen')
    >>> floors.take("corner-cafe", json.loads(sign_floor(CafeKey.new(), "corner-cafe", 2, {})))
    Traceback (most recent call last):
    ...
    xobo_host.cafe.seal.SealError: a floor not signed with corner-cafe's key (...
    >>> floors.forget("corner-cafe")["reply"]     # the staff's: the next floor's key is kept
    'the key of corner-cafe forgotten: the key of its next floor will be kept'
    >>> store.close()
"""

import threading
import time

from xobo_host.cafe.seal import SealError, fingerprint, floor_signer, open_floor

MAX_WATCHED = 16  # other cafés' floors followed at most
# the newest sequence number taken from a café is written to the file at most this often:
# a floor comes up to 5 times a second, and a write waits for the file's other writers
KEEP_SEQ_S = 10.0
# a refusal stays on the watch page this long, and until a floor newer than it is taken: a
# forger publishing between the café's floors does not make the warning flicker away
REFUSAL_SHOWN_S = 60.0


class WatchError(ValueError):
    """A café that cannot be watched, or whose key cannot be forgotten (the text says why)."""


class WatchedFloors:
    """The floors of the cafés this café watches, each with the key it was checked with."""

    def __init__(self, store, learnt_key, subscribe, changed):
        self.db = store.db
        self.conn = store.conn
        self.learnt_key = learnt_key  # cafe -> (public hex, when, match id) or None
        self.subscribe = subscribe  # topic -> None (kept across reconnections)
        self.changed = changed  # () -> None: the pages that follow a floor look again
        self.keep_seq_s = KEEP_SEQ_S
        self.lock = threading.Lock()
        # cafe -> {"snap": its floor or None, "at": when taken, "seq", "sig": of the last
        # taken, "signed": what vouches for it, "refused": {"at", "why"} or None,
        # "kept_at": when its sequence number was last written}
        self.watched = {}
        self.conn.execute("CREATE TABLE IF NOT EXISTS floor_keys (cafe TEXT PRIMARY KEY, "
                          "public_key TEXT, since REAL NOT NULL, source TEXT NOT NULL, "
                          "match TEXT NOT NULL DEFAULT '', seq INTEGER NOT NULL DEFAULT -1, "
                          "sig TEXT NOT NULL DEFAULT '')")
        self.conn.commit()

    # -- the file ---------------------------------------------------------------------------
    def _row(self, cafe):
        """Café ``cafe``'s kept key: {"key" (None: forgotten), "since", "source" ("first
        seen", "match", "forgotten"), "match", "seq", "sig"}, or None."""
        row = self.conn.execute("SELECT public_key, since, source, match, seq, sig FROM "
                                "floor_keys WHERE cafe = ?", (cafe,)).fetchone()
        if row is None:
            return None
        return dict(zip(("key", "since", "source", "match", "seq", "sig"), row, strict=True))

    def _keep(self, cafe, row):
        with self.db.writing("keep %s's floor key in" % cafe), self.conn:
            self.conn.execute(
                "INSERT OR REPLACE INTO floor_keys (cafe, public_key, since, source, match, "
                "seq, sig) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (cafe, row["key"], row["since"], row["source"], row["match"], row["seq"],
                 row["sig"]))
        return row

    def _keep_seq(self, cafe, seq, sig):
        with self.db.writing("keep %s's floor number in" % cafe), self.conn:
            self.conn.execute("UPDATE floor_keys SET seq = ?, sig = ? WHERE cafe = ?",
                              (seq, sig, cafe))

    # -- watching ---------------------------------------------------------------------------
    def watch(self, cafe, topic):
        """Follow café ``cafe``'s floor (on ``topic``); its floor once one was taken."""
        with self.lock:
            entry = self.watched.get(cafe)
            if entry is None:
                if len(self.watched) >= MAX_WATCHED:  # (a page cannot make it follow more)
                    raise WatchError("this host already follows %d cafés' floors"
                                     % MAX_WATCHED)
                row = self._row(cafe)
                entry = self.watched[cafe] = {
                    "snap": None, "at": None, "seq": row["seq"] if row else -1,
                    "sig": row["sig"] if row else "", "signed": None, "refused": None,
                    "row": row, "kept_at": 0.0, "topic": topic}
                self.subscribe(topic)
            return entry["snap"]

    def _trusted(self, cafe, row):
        """(the key café ``cafe``'s floors must be signed with, what vouches for it: a row
        as kept) or (None, None): none known yet."""
        learnt = self.learnt_key(cafe)
        if learnt is not None and (row is None or learnt[1] > row["since"] or (
                row["source"] == "match" and row["match"] == learnt[2])):
            key, since, match = learnt
            return key, {"key": key, "since": since, "source": "match", "match": match}
        if row is not None and row["key"]:
            return row["key"], row
        return None, None

    def take(self, cafe, envelope):
        """A floor on café ``cafe``'s topic, as the broker's JSON gave it: shown when it is
        ``cafe``'s (True), ignored when it is none (None: a floor cleared, a café not
        watched); SealError (kept for its page too) when it is not what it claims."""
        with self.lock:
            entry = self.watched.get(cafe)
            if entry is None or envelope is None:
                return None
            now = time.time()
            try:
                row = entry["row"]
                key, vouch = self._trusted(cafe, row)
                claimed = floor_signer(envelope)
                if key is not None and claimed != key:
                    raise SealError("a floor not signed with %s's key (%s, %s): it names "
                                    "the key %s" % (cafe, fingerprint(key), _known_text(vouch),
                                                    fingerprint(claimed)))
                if key is None:
                    key, vouch = claimed, {"key": claimed, "since": now,
                                           "source": "first seen", "match": ""}
                seq, floor = open_floor(envelope, key, cafe)
                sig = envelope["sig"]
                # (the floors signed with another key before, a forger's taken at first
                # sight among them, leave no number this key must pass)
                last, last_sig = (entry["seq"], entry["sig"]) if row and row["key"] == key \
                    else (-1, "")
                if seq < last or (seq == last and sig != last_sig):
                    raise SealError("a floor of %s older than the last one shown (published "
                                    "again: a replay)" % cafe)
            except SealError as exc:
                entry["refused"] = {"at": now, "why": str(exc)}
                self.changed()
                raise
            entry.update(snap=floor, at=now, seq=seq, sig=sig, signed={
                "cafe": cafe, "key": key, "fingerprint": fingerprint(key),
                "source": vouch["source"], "since": vouch["since"], "match": vouch["match"]})
            if row is None or row["key"] != key or row["source"] != vouch["source"] or \
                    row["since"] != vouch["since"]:
                entry["row"] = self._keep(cafe, dict(vouch, seq=seq, sig=sig))  # (at once)
                entry["kept_at"] = now
            elif now - entry["kept_at"] >= self.keep_seq_s:
                self._keep_seq(cafe, seq, sig)
                entry["kept_at"] = now
        self.changed()
        return True

    def view(self, cafe):
        """What a page shows of café ``cafe``'s floor: {"floor": the floor taken last (None:
        none yet), "at": when, "signed": who signed it and how its key is known, "refused":
        the last refusal ({"at", "why"}) while it stands}."""
        with self.lock:
            entry = self.watched.get(cafe)
            if entry is None:
                return {"floor": None, "at": None, "signed": None, "refused": None}
            refused = entry["refused"]
            if refused is not None and entry["at"] is not None and \
                    refused["at"] < entry["at"] and \
                    time.time() - refused["at"] >= REFUSAL_SHOWN_S:
                refused = None  # (a newer floor taken since, and a while ago)
            return {"floor": entry["snap"], "at": entry["at"],
                    "signed": dict(entry["signed"]) if entry["signed"] else None,
                    "refused": dict(refused) if refused else None}

    # -- the staff's ------------------------------------------------------------------------
    def keys(self):
        """The cafés' keys kept here: [{"cafe", "fingerprint", "source", "since",
        "match"}], by café."""
        with self.lock:
            rows = self.conn.execute("SELECT cafe, public_key, since, source, match FROM "
                                     "floor_keys WHERE public_key IS NOT NULL "
                                     "ORDER BY cafe").fetchall()
        return [{"cafe": c, "fingerprint": fingerprint(k), "source": s, "since": t,
                 "match": m} for c, k, t, s, m in rows]

    def forget(self, cafe):
        """Forget café ``cafe``'s key: every key of it learnt until now is set aside (its
        matches' too), and the key of its next floor is kept. The staff's, deliberately: a
        café that changed its key says its new fingerprint."""
        with self.lock:
            row = self._row(cafe)
            if (row is None or not row["key"]) and self.learnt_key(cafe) is None:
                raise WatchError("no key of %s is kept here" % cafe)
            row = self._keep(cafe, {"key": None, "since": time.time(), "source": "forgotten",
                                    "match": "", "seq": -1, "sig": ""})
            entry = self.watched.get(cafe)
            if entry is not None:  # (its floor taken again from the broker, checked anew)
                entry.update(snap=None, at=None, seq=-1, sig="", signed=None, refused=None,
                             row=row)
                self.subscribe(entry["topic"])
        self.changed()
        # (the reply is cleaned as the page's other replies: plain words, no quote)
        return {"ok": True, "reply": "the key of %s forgotten: the key of its next floor will "
                "be kept" % cafe}


def _known_text(vouch):
    """How a key is known, in words."""
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(vouch["since"]))
    if vouch["source"] == "match":
        return "known from your match of %s" % when
    return "known since %s" % when
