"""A local table seated in a match (``TableSync``): its worker thread brings the table's board
to the match's log (docs/remote.md), one serial command at a time, whatever happened before:
from the board's ply and position (``state``, ``position``) to the log's (``reconcile``).
A move its players play on their turn goes into the log (``MatchService.local_move``); a
move of another table is sent to the board as a host move (serial ``move e5``); a board
behind is given the moves it missed, a board ahead is taken back, a move played at the wrong
table is undone on that board. The usual move is passed on without reading the board first
(``_fast``: one serial command at each end) and checked by a reading ``VERIFY_AFTER_S`` later.

The match's state belongs to ``matches.MatchService`` (``service``): the worker reads it and
asks it to change it, under each match's lock.

Usage::

    >>> from xobo_host.cafe.tablesync import TableSync, RECONCILE_STEPS
    >>> RECONCILE_STEPS                  # serial commands per reconciliation, at most
    12
    >>> # made by MatchService.start() for each of its tables in a match (a board and the
    >>> # service are needed: the matches module's example runs one)
"""

import queue
import threading
import time

from xobo import games
from xobo_host.cafe.match import MatchError
from xobo_host.cafe.movetrace import trace
from xobo_host.sim.monitor import LinkError

RECONCILE_STEPS = 12  # board commands per reconciliation at most (then it starts again)
IDLE_WAKE_S = 1.0  # a table's worker looks again this often when nothing happens...
IDLE_CHECK_S = 5.0  # ...and reads a board it believes in step this often
# a move passed on the usual way (``TableSync._fast``: one serial command, the board not
# read first) is checked by reading the board this long after, when nothing else read it
# meanwhile: not at once, among the hundred moves of the other tables that come at the same
# instant (measured: docs/remote.md)
VERIFY_AFTER_S = 0.5
# the first words of replies that are no position (a late reply of another command)
OTHER_REPLIES = ("state", "leds", "mem", "timing", "follow", "move", "undo", "new", "load",
                 "xobo-board", "hint", "selftest", "end", "game", "opponent", "level")


def _words(reply):
    return reply[0].split() if reply else []


class TableSync:
    """One local table seated in a match: its worker thread brings the board to the log."""

    def __init__(self, service, key):
        self.service = service
        self.key = key
        self.wake = threading.Event()
        self.hints = queue.Queue()  # event lines of the board, in order
        self.host_undos = 0  # undos the host sent: their events are no proposal
        self.host_cancels = 0  # ... and the lit moves they cancelled
        # the epoch of a take-back agreed while this board was ahead of it: its moves past
        # the log are taken back, not played again (``_step``)
        self.rewind = None
        self.known_ply = -1  # the board's ply when last seen in step with the log
        self.sent = None  # (ply, move) last sent as a host move
        # (time.monotonic) when the board is read to check the moves passed on since it was
        # last read (``_fast``), None when it was read since
        self.verify_at = None
        # held by the worker during its pass, and by a board's reader thread passing its
        # move on itself (``pass_on``): one at a time
        self.passing = threading.Lock()
        self.poked = False  # woken for something to do (not only to wait less: ``pass_on``)
        self.note = ""
        self.thread = threading.Thread(target=self._run, daemon=True,
                                       name="xobo-match-" + key)
        self.thread.start()

    def _run(self):
        svc = self.service
        while not svc.stopping.is_set():
            # a board in step is read again after IDLE_CHECK_S of quiet (not woken every
            # second for nothing: a hundred idle workers took the cores from the moves)
            wait = IDLE_CHECK_S if self.known_ply >= 0 else IDLE_WAKE_S
            if self.verify_at is not None:
                wait = max(0.0, min(wait, self.verify_at - time.monotonic()))
            woke = self.wake.wait(wait)
            if woke:  # (cleared only when seen set: a wake-up just after a timeout stays)
                self.wake.clear()
            if svc.stopping.is_set():
                return
            if woke and not self.poked and self.hints.empty() and (
                    self.verify_at is None or time.monotonic() < self.verify_at):
                continue  # woken only to wait until the check a move passed on asked for
            self.poked = False
            relays = svc.relays_due(self.key)  # (the relays this pass does: see below)
            try:
                with self.passing:
                    self.reconcile()
            except LinkError as exc:
                self.note = "board: %s" % exc
                self.known_ply = -1
            except Exception as exc:  # a worker never dies: say it, try again
                self.note = "%s: %s" % (type(exc).__name__, exc)
                self.known_ply = -1
            finally:
                svc.relayed(self.key, relays)

    def poke(self):
        """Something to do: a pass now."""
        self.poked = True  # (before the wake-up: the worker sees both, or is woken again)
        self.wake.set()

    def pass_on(self, move):
        """(the board's reader thread, at its ``event move``) The usual case of a move of
        ours (``_fast``: the board at the log's end, this table's turn) passed on at once by
        the thread that read it, without waking the worker (among a hundred tables' threads,
        that wake-up was the longest wait of a move: docs/remote.md); the board is read
        ``VERIFY_AFTER_S`` later all the same. False, with nothing done, when it is not that
        case (the worker busy, other events before it, a board not known in step): the
        worker then takes it as before."""
        if not self.passing.acquire(blocking=False):
            return False
        try:
            if self.known_ply < 0 or not self.hints.empty():
                return False
            conn = self._conn()
            match = self.service.match_of_table(self.key)
            if conn is None or match is None or match.state != "playing":
                return False
            trace("woke", self.key)
            # (with a move reported, ``_fast`` sends the board nothing: this thread reads
            # the board's replies, it must not wait for one)
            if not self._fast(conn, match, [move]):
                return False
            if self.verify_at is None:  # (the worker waits for it: told to wait less)
                self.verify_at = time.monotonic() + VERIFY_AFTER_S
                self.wake.set()
            return True
        finally:
            self.passing.release()

    # -- the board ----------------------------------------------------------------------------
    def _conn(self):
        table = self.service.floor.table(self.key)
        conn = table.conn if table is not None else None
        return conn if conn is not None and conn.alive else None

    def _command(self, conn, line):
        return conn.link.command(line)

    def _read(self, conn):
        """(ply, position, expect, result) of the board now: its ``state`` before and after
        its ``position`` agree (a move committed between the two is read again). On a link
        that gave replies up, the position is read twice alike too: a position given up
        that comes late is taken for the next one (a starved host read an older position
        with the board's ply now, took the board for elsewhere and took its move back: a
        match stuck in the benchmark at load 20-50, docs/remote.md)."""
        for _ in range(5):
            first = self._state(conn)
            pos = self._command(conn, "position")
            last = self._state(conn)
            if first != last:
                continue
            if conn.link.replies_given_up and self._command(conn, "position") != pos:
                continue
            break
        else:
            raise LinkError("the board's state changed at each of 5 readings")
        if not pos or not pos[0].startswith("ok ") or pos[0].split()[1] in OTHER_REPLIES:
            raise LinkError("the board's reply to 'position' was %r" % (pos[:1],))
        return last[0], pos[0][3:].strip(), last[1], last[2]

    def _state(self, conn):
        st = _words(self._command(conn, "state"))
        if st[:2] != ["ok", "state"]:  # (a late reply of another command: not ours)
            raise LinkError("the board's reply to 'state' was %r" % " ".join(st[:4]))
        if "say" in st:  # the rest is words for people
            st = st[:st.index("say")]
        ply = int(st[st.index("ply") + 1]) if "ply" in st[:-1] else 0
        expect = st[st.index("expect") + 1] if "expect" in st[:-1] else None
        result = st[st.index("result") + 1] if "result" in st[:-1] else "*"
        return ply, expect, result

    def _undo_of_lit_move(self, conn, match, move):
        """The board's players pressed undo with ``move`` lit (``event cancel host``): when
        it was the log's last move and the board is just before it, a take-back proposed or
        agreed there (``board_undo``)."""
        ply = self._read(conn)[0]
        with match.lock:
            last = match.moves[-1] if match.moves else None
            if match.state != "playing" or ply != match.ply - 1 or last != move:
                return
        self.service.board_undo(match, self.key, ply)

    def _undo(self, conn, why):
        self.host_undos += 1
        reply = self._command(conn, "undo")
        if not reply or reply[0].startswith("error"):
            self.host_undos -= 1
            return False
        if "cancelled the expected move" in reply[0]:  # (its ``event cancel host`` too)
            self.host_cancels += 1
            if reply[0].startswith("ok undo cancelled"):  # (nothing taken back)
                self.host_undos -= 1
        self.note = why
        return True

    # -- the rule -----------------------------------------------------------------------------
    def reconcile(self):
        svc = self.service
        # (the moves passed on since the board was last read are checked now: ``_fast``)
        check = self.verify_at is not None and time.monotonic() >= self.verify_at
        if check:
            self.verify_at = None
        hints = []
        while True:
            try:
                hints.append(self.hints.get_nowait())
            except queue.Empty:
                break
        conn = self._conn()
        if conn is None:
            self.known_ply = -1
            return
        trace("woke", self.key)
        match = svc.match_of_table(self.key)
        if match is None:
            return
        moves_hint = []
        for line in hints:
            words = line.split()
            if words[1] == "move" and len(words) > 2:
                moves_hint.append(words[2])
                continue
            self.known_ply = -1  # anything else: the board is read before it is trusted
            if line.startswith("event undo") and self.host_undos > 0:
                self.host_undos -= 1
                continue
            if line.startswith("event undo"):
                svc.board_undo(match, self.key, self._read(conn)[0])
            elif line.startswith("event cancel host") and self.host_cancels > 0:
                self.host_cancels -= 1
            elif line.startswith("event cancel host") and len(words) > 3:
                # undo pressed while another table's move was lit: the board cancelled
                # that move only (its own stay): a take-back of the log's last move
                self._undo_of_lit_move(conn, match, words[3])
        if match.state == "conflict":
            return
        if self.key not in match.prepared and match.state == "playing":
            self._prepare(conn, match)
        if self._fast(conn, match, moves_hint) and not check:
            if self.verify_at is None:  # (the board is read soon, unless it is before)
                self.verify_at = time.monotonic() + VERIFY_AFTER_S
            return
        self.verify_at = None
        for _ in range(RECONCILE_STEPS):
            if not self._step(conn, match, moves_hint):
                return
        self.poke()  # more to do: again at once

    def _fast(self, conn, match, moves_hint):
        """The usual case, without reading the board first (a move's way from one board to
        the other is then one serial command at each end): the board was at the log's end
        and its players played the one move of our seat (``event move``), or the log grew
        by one move of another table while the board was at the log's end. The reading
        that follows (``_step``, at once or ``VERIFY_AFTER_S`` later: ``verify_at``) puts
        right whatever this assumed wrongly. True when the move was passed on."""
        svc = self.service
        n = match.ply
        if self.known_ply < 0 or match.state != "playing":
            return False
        if self.known_ply == n and len(moves_hint) == 1:
            trace("fast", match.id, n + 1)
            with match.lock:
                trace("locked", match.id, n + 1)
                if match.ply != n or match.undo is not None or \
                        match.side() not in svc.seats_of(match, self.key):
                    return False
                try:
                    svc.local_move(match, moves_hint[0], by=self.key)
                except MatchError:
                    self.known_ply = -1  # not the log's next move: the reading says
                    return False
            self.known_ply = n + 1
            return True
        if self.known_ply == n - 1 and moves_hint == [match.moves[-1]] and \
                self.sent == (n - 1, match.moves[-1]):
            # the board committed the other table's move we lit: at the log's end (not read
            # at once: three serial commands at each such move, among the other tables')
            self.known_ply = n
            return True
        if self.known_ply == n - 1 and not moves_hint and self.sent != (n - 1,
                                                                       match.moves[-1]):
            svc.store.wait_written(match.id)  # (a board lights only what the file holds)
            trace("cmd", match.id, n, "fast")
            reply = self._command(conn, "move " + match.moves[-1])
            if reply and reply[0].startswith("ok"):
                self.sent = (n - 1, match.moves[-1])
                return True
            self.known_ply = -1
        return False

    def _prepare(self, conn, match):
        """The board starts the match: its game, the match's parameters, no computer, a new
        game (the pieces of the last game are cleared as the board shows)."""
        pkg = games.load(match.game)
        lines = ["set opponent off", "set game " + match.game, "set opponent off"]
        for key in pkg.NEW_GAME_SETTINGS:
            if key in match.params:
                lines.append("set %s %s" % (key, match.params[key]))
        lines.append("new")
        for line in lines:
            reply = self._command(conn, line)
            if not reply or reply[0].startswith("error"):
                raise MatchError("the board refused '%s': %s" % (line, " ".join(reply)))
        with match.lock:
            match.prepared.append(self.key)
            self.service.save(match)
        self.known_ply = -1

    def _step(self, conn, match, moves_hint):
        """One command towards the log; False when the board is where the log says."""
        svc = self.service
        ply, position, expect, result = self._read(conn)
        if not self.hints.empty():
            # the board reported a change while it was read (its players pressed undo just
            # then): its events are taken first, by the next pass; nothing is decided on a
            # reading they make stale (a take-back proposed as the move was read lit that
            # move again, left lit once the take-back was agreed)
            self.poke()
            return False
        with match.lock:
            resigned = match.resigned >= 0
            if resigned and (self.key in match.ended or ply > match.ply or
                             position != match.position_text(ply)):
                return False  # the board showed the resignation, or is elsewhere: free
        if resigned:  # shown on the board as the end of the game (a lit move cancelled)
            if result == "*":
                reply = self._command(conn, match.resign_line())
                if not reply or reply[0].startswith("error"):
                    self.note = "the board refused '%s': %s" % (match.resign_line(),
                                                                 " ".join(reply))
                    return False
            with match.lock:
                if self.key not in match.ended:
                    match.ended.append(self.key)
                    svc.save(match)
            return False
        with match.lock:
            n = match.ply
            undo = match.undo
            here = svc.seats_of(match, self.key)
            if undo is not None and set(undo["by"]) & set(here) and ply <= n:
                return False  # our take-back waits for the other tables
            if ply <= n and position == match.position_text(ply):
                self.rewind = None
                if ply == n:
                    self.known_ply = ply
                    return False
                if match.state != "playing" and ply < self.known_ply:
                    return False  # over, and the board went back since: it is free now
                self.known_ply = ply
                nxt = match.moves[ply]
                if expect == nxt:
                    return False  # lit: the players play it
            elif match.state != "playing":
                return False  # the match is over: the board is free
            elif ply == n + 1:
                nxt = None
            else:
                nxt = False
        if nxt:
            svc.store.wait_written(match.id)  # (a board lights only what the file holds)
            trace("cmd", match.id, ply + 1, "step")
            reply = self._command(conn, "move " + nxt)
            if reply and reply[0].startswith("error"):
                self.note = "the board refused the move %s: %s" % (nxt, reply[0][6:])
                return False
            self.sent = (ply, nxt)
            return False
        if nxt is None and self.rewind == match.epoch:
            return self._undo(conn, "taken back: the take-back agreed")
        if nxt is None:  # the board played a move the log does not have
            with match.lock:
                move = None
                for text in moves_hint:  # the board's own word for it (Brochs's master
                    move = move or match.leads_to(n, text, position)  # drop: same position)
                if move is None:
                    move = match.find_move(n, position)
                seat = match.side()
                if move is not None and seat in here:
                    svc.local_move(match, move, by=self.key)
                    self.known_ply = n + 1
                    return True  # (the match may be over now: the others are told)
                whose = match.names[seat]
                why = ("%s is %s's move, played at %s" % (move, whose, svc.seat_text(
                    match, seat))) if move else "a move the match does not know"
            return self._undo(conn, "taken back: " + why)
        # the board is elsewhere: back one move (a move of an undone branch, another game)
        if ply == 0:
            with match.lock:
                match.prepared = [k for k in match.prepared if k != self.key]
            self._prepare(conn, match)
            return True
        return self._undo(conn, "taken back: the board was not at the match's position")
