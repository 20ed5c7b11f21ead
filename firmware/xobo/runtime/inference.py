"""Move inference: from the debounced occupancy of a game's cells to moves (board.md).

``E`` is the occupancy the position implies, ``O`` the debounced occupancy the switches see.
The cells lifted so far are ``D- = {E=1, O=0}``, the cells added so far ``D+ = {E=0, O=1}``.
Each legal move ``m`` has a footprint (engine ``footprint``): the cells it empties ``L(m)``
and the cells it fills ``A(m)``. Classification of ``O`` (docs/firmware.md has the details):

- ``MATCH``: ``O = E``.
- ``PROGRESS``: ``D- <= L(m)`` and ``D+ <= A(m)`` for one or more legal ``m`` (the
  candidates). A capture cell stays occupied while it holds the pair, so it is not required
  to be lifted yet; a spread target that is a stack is invisible to the switches.
- ``COMPLETE``: ``D- = L(m)`` and ``D+ = A(m)`` for exactly one ``m`` and no other candidate:
  committed once ``O`` has been unchanged for the settle time, or at once on ``ok``.
- ``WAIT_LONGER``: complete, but also a part of a longer candidate (three of four aligned
  cubes regrouped, a cube on the first target of a spread whose stack is taken cube by cube):
  committed after the long settle time (3 x settle, at most 3000 ms) or on ``ok``. Also a
  "touch" in progress: from a regroup the switches cannot tell apart (b5,c5 lifted in a run
  a5-d5), one of its stack cells lifted (``touch``); when it comes back it decides the
  regroup onto it; kept lifted for the whole long settle time, the longer move commits.
- ``UNKNOWN``: no candidate; after the settle time it becomes ``FIX`` (never while a touch is
  in progress: the touched piece is in the player's hand, and putting it back decides the
  move, however long that takes, as the board's words ask): the cells to fill and
  to clear are in ``fill`` / ``clear``, relative to the nearest legal move (fewest cells it
  does not explain, then fewest lifted cells to put back), or to ``E`` when there is no
  single nearest fix (two stray cubes: both are to clear). In a game where no move puts a
  piece onto a piece (the engine's ``puts_onto_pieces = False``: X, Brochs, tiny), a lifted
  cell that no legal move empties (any X piece) is ``FIX`` at once: nothing but putting it
  back leads to a move, so there is nothing to wait for.
- ``RESTORE``: after an undo, a new game, a loaded position or a resumed game the board waits
  until ``O = E`` exactly (``fill`` / ``clear`` show what differs); nothing is inferred.
- ``OFFER``: a fix was shown and what is left on the board is a complete legal move (two
  stray cubes, one cleared: the other is a placement): it is not committed by time, the
  player was fixing, not playing; ``ok`` plays it, taking it off (back to ``E``) cancels.
- ``OVER``: the game is over (``set_position(pos, over=True)``): the cubes may be moved
  freely, nothing is inferred and nothing is to fix (until an undo or a new game).

When a move is expected (a host or computer move, :meth:`set_target`), only that move counts.

Moves of one footprint that a button tells apart (Brochs: a drop, and the same drop as the
master, ``pos.button_of(m) == "master"``): a move with a button is complete only after that
button was pressed (:meth:`press`, before or after the pieces); it then replaces the plain
move of its footprint. Until then it stays a candidate, so the plain move waits the long
settle time: the player has time to press the button.

Everything after :meth:`set_position` is allocation-free (preallocated buffers, index loops).

Usage::

    >>> from xobo.games import load, part
    >>> from xobo.runtime.inference import Inference
    >>> rules = part(load("xobo"), "engine")
    >>> inf = Inference(81, rules.FOOTPRINT_MAX, rules.MAX_MOVES)   # the game's cells and bounds
    >>> pos = rules.Position()
    >>> inf.set_position(pos)           # after every commit / undo / new game (allocates a little)
    >>> stable = bytearray(81)           # the debounced occupancy: a cube on e5
    >>> stable[40] = 1
    >>> inf.observe(stable, 0)           # when the debounced occupancy changed (at 0 ms)
    True
    >>> inf.state_name()
    'complete'
    >>> inf.poll(500)                    # -1, or the move to commit now
    -1
    >>> m = inf.confirm()                # the ok button: the complete move, or -1
    >>> pos.move_text(m), pos.move_text(inf.poll(1000))   # the settle time (1 s) commits it too
    ('e5', 'e5')
"""

import array

from xobo.compat import const, ticks_diff

MATCH = const(0)
PROGRESS = const(1)
COMPLETE = const(2)
WAIT_LONGER = const(3)
UNKNOWN = const(4)
FIX = const(5)
RESTORE = const(6)
OVER = const(7)
OFFER = const(8)
STATE_NAMES = ("match", "progress", "complete", "wait-longer", "unknown", "fix", "restore",
               "over", "offer")

DEFAULT_SETTLE_MS = const(1000)
MAX_LONG_SETTLE_MS = const(3000)
# Moves whose footprints are kept (grown in set_position when a position has more). Random
# games never showed more than 117 legal moves (81 placements at the start); the engine's
# MAX_MOVES (1024) bounds the pathological regroup-heavy positions. 9 KB per 1,024 moves
# and footprint side was the buffer that failed the first boot on a Pico. The game knows
# nothing of this: the runtime asks its rules module for MAX_MOVES and FOOTPRINT_MAX.
FOOTPRINT_CAPACITY = const(160)


def long_settle(settle_ms):
    """The settle time of a move that is also a part of a longer one: 3 x settle, <= 3 s."""
    t = 3 * settle_ms
    if t > MAX_LONG_SETTLE_MS:
        t = MAX_LONG_SETTLE_MS
    if t < settle_ms:
        t = settle_ms
    return t


class Inference:
    """Infers moves from occupancy for one position at a time (see the module docstring)."""

    def __init__(self, n_cells, footprint_max, max_moves, settle_ms=DEFAULT_SETTLE_MS,
                 capacity=FOOTPRINT_CAPACITY):
        """``n_cells``: the game's cells; ``footprint_max``: the most cells a move lifts or
        adds (the rules' FOOTPRINT_MAX); ``max_moves``: the most legal moves (MAX_MOVES)."""
        self.n = n_cells
        self.fp = footprint_max
        self.moves = array.array("H", bytes(2 * max_moves))  # the engine fills up to max_moves
        self.n_moves = 0
        self._footprint_buffers(capacity)
        self._sl = bytearray(footprint_max + 1)
        self._sa = bytearray(footprint_max + 1)
        self.heights = bytearray(n_cells)
        self.expected = bytearray(n_cells)
        self.observed = bytearray(n_cells)
        self.lifted = bytearray(n_cells)
        self.added = bytearray(n_cells)
        self.touched = bytearray(n_cells)
        self.liftable = bytearray(n_cells)  # the cells some legal move empties (in an L(m))
        self.onto_pieces = True  # a move may put a piece onto a piece (engine puts_onto_pieces)
        self.fill = bytearray(n_cells)
        self.clear = bytearray(n_cells)
        self.n_lifted = 0
        self.n_added = 0
        self.n_fix = 0
        self.n_cand = 0
        self.complete = -1  # index (into moves) of the complete move
        self.n_complete = 0
        self.ambiguous = 0  # complete moves that the switches cannot tell apart
        # the last ambiguous footprint: the occupancy seen and the possible stack cells; a
        # lift of one of those stack cells from there is a "touch" in progress (self.touch)
        self.amb_obs = bytearray(n_cells)
        self.amb_stack = bytearray(n_cells)
        self.amb_valid = False
        self.touch = -1  # the stack cell being touched (lifted to be put back), -1: none
        self.stepped = -1  # the touch cell the ok button picked (step_ambiguous), -1: none
        self.best = -1  # index of the nearest move for a fix, -1: back to E
        self.state = MATCH
        self.version = 0  # bumped at every classification (the light repaints)
        self.changed_at = 0
        self.restoring = False
        self.over = False  # the game is over: nothing to infer, nothing to fix
        self.fixing = False  # a fix is shown until the cubes are back on the way
        self.fix_goal = -1  # the move index the fix leads to, -1: back to E
        self.target = -1  # the expected move (host/computer), -1: any legal move
        self.target_index = -1
        self.buttons = []  # the names of the buttons that pick legal moves here ("master")
        self.armed = 0  # 1 + index in ``buttons`` of the button pressed for the next move
        self.set_settle(settle_ms)

    def fits(self, n_cells, footprint_max, max_moves):
        """True when these buffers can serve a game of these sizes (``use`` it then)."""
        return (len(self.expected) >= n_cells and self.fp >= footprint_max
                and len(self.moves) >= max_moves)

    def use(self, n_cells):
        """Serve a game of ``n_cells`` cells (at most the buffers' size) from now on."""
        self.n = n_cells
        for c in range(len(self.expected)):
            self.expected[c] = 0
            self.observed[c] = 0
            self.heights[c] = 0
            self.touched[c] = 0
            self.liftable[c] = 0
        self.amb_valid = False

    def _footprint_buffers(self, capacity):
        # footprints of ``capacity`` moves (``fp`` cells each); the candidates index them.
        # Every buffer is made before any is kept, and the capacity is recorded last: out of
        # memory half-way leaves the old buffers and their capacity as they were (a capacity
        # recorded first would promise room the buffers do not have: the next listing would
        # write past their end)
        fp_l = bytearray(capacity * self.fp)
        fp_a = bytearray(capacity * self.fp)
        n_l = bytearray(capacity)
        n_a = bytearray(capacity)
        touch_of = bytearray(capacity)  # 1 + the cell whose touch picks the move, 0: none
        btn_of = bytearray(capacity)  # 1 + index in ``buttons`` of the move's button, 0
        cand = array.array("H", bytes(2 * capacity))
        self.fp_l = fp_l
        self.fp_a = fp_a
        self.n_l = n_l
        self.n_a = n_a
        self.touch_of = touch_of
        self.btn_of = btn_of
        self.cand = cand
        self.capacity = capacity

    def set_settle(self, settle_ms):
        self.settle_ms = settle_ms
        self.long_ms = long_settle(settle_ms)

    # ------------------------------------------------------------ position changes

    def set_position(self, pos, restore=False, over=False):
        """Take a new position (after a commit, undo, new game, load); ``restore``: wait until
        the cubes match it exactly before inferring anything; ``over``: the game is over."""
        # no move is known until every footprint is listed: out of memory on the way (the
        # engine's listing, a larger buffer) leaves an inference that expects nothing and
        # commits nothing, never the old moves' indices over the new moves (the board's
        # recovery lists them again: App.recover_memory)
        self.n_moves = 0
        self.n_cand = 0
        self.complete = -1
        self.n_complete = 0
        self.target = -1
        self.target_index = -1
        self.armed = 0
        if self.state != MATCH and self.state != OVER and self.state != RESTORE:
            self.state = UNKNOWN  # (nothing complete: poll commits nothing)
        self.version += 1  # (the light paints from it)
        h = pos.heights
        liftable = self.liftable
        self.onto_pieces = getattr(pos, "puts_onto_pieces", True)
        for c in range(self.n):
            v = h[c]
            self.heights[c] = v
            self.expected[c] = 1 if v else 0
            self.touched[c] = 0
            liftable[c] = 0
        n = pos.legal_moves(self.moves)
        if n > self.capacity:  # a rare position with many regroups: grow once, for good
            self._footprint_buffers(n + 32)
        del self.buttons[:]
        self.armed = 0
        bulk = getattr(pos, "footprints", None)
        if bulk is not None:  # the game lists them itself (Brochs: 400 drops in native code)
            bulk(self.moves, n, self)
        else:
            self.footprint_moves(pos, 0, n)
        self.n_moves = n
        self.target = -1
        self.target_index = -1
        self.stepped = -1
        self.restoring = restore and not over
        self.over = over
        self.fixing = False
        self.amb_valid = False
        self._classify()

    def footprint_moves(self, pos, lo, hi):
        """List the footprints of legal moves ``moves[lo:hi]`` from ``pos`` (its
        ``footprint``, ``touch_cell``, ``button_of``): for each index i, ``fp_l``/``fp_a``
        from ``i * fp``, ``n_l[i]``, ``n_a[i]``, ``touch_of[i]``, ``btn_of[i]``, and the cells
        it empties in ``liftable``. A game's bulk ``footprints(moves, n, inf)`` fills the same
        buffers for the moves it has a quicker way for and calls this for the others
        (docs/games.md)."""
        moves = self.moves
        sl = self._sl
        sa = self._sa
        fl = self.fp_l
        fa = self.fp_a
        fp = self.fp
        n_l = self.n_l
        n_a = self.n_a
        touch_of = self.touch_of
        btn_of = self.btn_of
        liftable = self.liftable
        button_of = getattr(pos, "button_of", None)
        buttons = self.buttons
        for i in range(lo, hi):
            m = moves[i]
            nl, na = pos.footprint(m, sl, sa)
            touch_of[i] = pos.touch_cell(m) + 1
            b = 0
            if button_of is not None:
                name = button_of(m)
                if name:
                    if name not in buttons:
                        buttons.append(name)
                    b = buttons.index(name) + 1
            btn_of[i] = b
            base = i * fp
            for k in range(nl):
                fl[base + k] = sl[k]
                liftable[sl[k]] = 1
            for k in range(na):
                fa[base + k] = sa[k]
            n_l[i] = nl
            n_a[i] = na

    def set_target(self, m):
        """Expect move m only (a host or computer move); False if m is not legal here."""
        for i in range(self.n_moves):
            if self.moves[i] == m:
                self.target = m
                self.target_index = i
                self.fixing = False
                self.amb_valid = False
                self._classify()
                return True
        return False

    def clear_target(self):
        self.target = -1
        self.target_index = -1
        self.fixing = False
        self.amb_valid = False
        self._classify()

    def press(self, name):
        """The button ``name`` was pressed: the moves it picks are complete from now on (until
        the next position). Returns False when no legal move needs that button; pressed again,
        it is released."""
        if name not in self.buttons:
            return False
        b = self.buttons.index(name) + 1
        self.armed = 0 if self.armed == b else b
        self._classify()
        return True

    def pressed(self):
        """The name of the button pressed for the next move, or ''."""
        return self.buttons[self.armed - 1] if self.armed else ""

    # ------------------------------------------------------------ observations

    def observe(self, occ, now):
        """Take the debounced occupancy ``occ`` (a bytearray of the game's cells) seen at
        ``now``."""
        e = self.expected
        o = self.observed
        changed = False
        for c in range(self.n):
            v = 1 if occ[c] else 0
            if v != o[c]:
                changed = True
                if v and e[c]:
                    self.touched[c] = 1  # lifted and put back during a move
                o[c] = v
        if changed:
            self.changed_at = now
            self.stepped = -1  # the pieces moved: a touch decides again, not the ok button
            self._classify()
        return changed

    def _diff(self):
        e = self.expected
        o = self.observed
        lifted = self.lifted
        added = self.added
        nl = 0
        na = 0
        for c in range(self.n):
            if e[c] and not o[c]:
                lifted[c] = 1
                added[c] = 0
                nl += 1
            elif o[c] and not e[c]:
                added[c] = 1
                lifted[c] = 0
                na += 1
            else:
                lifted[c] = 0
                added[c] = 0
        self.n_lifted = nl
        self.n_added = na

    def _classify(self):
        """Classify the observed occupancy (the states of the module docstring): the states
        that need no move first, then the legal moves scanned for candidates, then the state
        from what the scan found. No allocation."""
        self.version += 1  # what the light paints from changed (xobo.runtime.light)
        self._diff()
        self.n_cand = 0
        self.complete = -1
        self.n_complete = 0
        self.ambiguous = 0
        self.best = -1
        self.touch = -1
        if self._classify_without_moves():
            return
        tie = self._scan_moves()
        if self.fixing:
            self._keep_fixing()
            return
        self.touch = self._touch_cell()
        if self.n_cand == 0:
            self._no_candidate(tie)
            return
        self._candidate_state()
        if self.stepped >= 0 and self.state == COMPLETE:
            self.state = WAIT_LONGER  # picked with ok: the long settle time to step on
        if self.touch >= 0 and self.state == COMPLETE:
            # the lifted stack cell makes a longer move complete (b5,c5 then d5 lifted in a
            # run a5-d5: d5->a5); most likely the touch that decides b5,c5->d5: it has the
            # longer settle time to come back
            self.state = WAIT_LONGER

    def _classify_without_moves(self):
        """OVER, MATCH or RESTORE, which no legal move decides: True when one of them is the
        state now."""
        if self.over:
            for c in range(self.n):
                self.fill[c] = 0
                self.clear[c] = 0
            self.n_fix = 0
            self.state = OVER
            return True
        if self.n_lifted == 0 and self.n_added == 0:
            for c in range(self.n):
                self.touched[c] = 0
                self.fill[c] = 0
                self.clear[c] = 0
            self.n_fix = 0
            self.restoring = False
            self.fixing = False
            self.amb_valid = False
            self.state = MATCH
            return True
        if self.restoring:
            self._fix_cells(-1)
            self.state = RESTORE
            return True
        return False

    def _scan_moves(self):
        """Scan the legal moves (the expected one only, when one is expected) against D-, D+:
        the candidates in ``cand``/``n_cand``, the complete ones in ``complete``/
        ``n_complete``, the nearest move for a fix in ``best``. Returns True when two nearest
        moves would ask for different fixes (a tie)."""
        nl = self.n_lifted
        na = self.n_added
        lifted = self.lifted
        added = self.added
        fl = self.fp_l
        fa = self.fp_a
        # nearest move for a fix: fewest cells unexplained, then fewest lifted cells to put
        # back (the lifted cubes are in the player's hand for a move; a stray cube is the slip)
        best_score = (nl + na) * 32 + nl  # going back to E fixes everything
        lo = 0
        hi = self.n_moves
        if self.target_index >= 0:
            lo = self.target_index
            hi = lo + 1
        elif nl > self.fp or na > self.fp:
            hi = 0  # no move lifts or adds that many cells
        n_cand = 0
        plain = 0  # complete moves with no button, when the pressed button picks another
        armed = self.armed
        btn_of = self.btn_of
        tie = False  # two nearest moves that would ask for different fixes
        best_sl = 0
        best_sa = 0
        fp = self.fp
        for i in range(lo, hi):
            base = i * fp
            ml = 0
            sl = 0
            kl = self.n_l[i]
            for k in range(kl):
                c = fl[base + k]
                if lifted[c]:
                    ml += 1
                    sl += (c + 1) * (c + 1)
            ma = 0
            sa = 0
            ka = self.n_a[i]
            for k in range(ka):
                c = fa[base + k]
                if added[c]:
                    ma += 1
                    sa += (c + 1) * (c + 1)
            miss = (nl - ml) + (na - ma)
            if miss == 0:
                self.cand[n_cand] = i
                n_cand += 1
                if ml == kl and ma == ka:
                    b = btn_of[i]
                    if b and b != armed and self.target_index < 0:
                        continue  # complete once its button is pressed: still a candidate
                    if armed and not b and self.target_index < 0:
                        plain += 1
                    self.n_complete += 1
                    if self.complete < 0 or (armed and b == armed):
                        self.complete = i
            else:
                score = miss * 32 + nl - ml
                if score < best_score:
                    best_score = score
                    self.best = i
                    best_sl = sl
                    best_sa = sa
                    tie = False
                elif score == best_score and self.best >= 0 and (sl != best_sl
                                                                  or sa != best_sa):
                    tie = True
        self.n_cand = n_cand
        if plain and self.n_complete > plain:
            self._drop_plain()
        return tie

    def _no_candidate(self, tie):
        """No legal move explains the cubes: UNKNOWN (a fix after the settle time), or FIX at
        once when a lifted piece can only come back. ``tie``: no single nearest move."""
        if tie:
            self.best = -1  # no single nearest move: back to E
        self._fix_cells(self.best)
        if not self.onto_pieces and self.touch < 0 and self._lifted_for_nothing():
            # a piece lifted that no legal move empties, in a game where no move puts a
            # piece onto a piece (X's pieces never move: one lifted to see its
            # neighbours): it can only come back. Known at once: a fix now, not the
            # settle time's grace given to what may still become a move (a piece lifted
            # to put another under it, a hand passing by)
            self.state = FIX
            self.fixing = True
            self.fix_goal = self.best
            return
        self.state = UNKNOWN  # with a touch: no FIX until the touched piece is put down

    def _lifted_for_nothing(self):
        """True when a lifted cell is one that no move considered empties (the expected
        move's cells when one is expected): nothing but putting it back can lead to a move.
        No allocation."""
        lifted = self.lifted
        if self.target_index >= 0:
            base = self.target_index * self.fp
            fl = self.fp_l
            kl = self.n_l[self.target_index]
            for c in range(self.n):
                if lifted[c]:
                    found = False
                    for k in range(kl):
                        if fl[base + k] == c:
                            found = True
                    if not found:
                        return True
            return False
        liftable = self.liftable
        for c in range(self.n):
            if lifted[c] and not liftable[c]:
                return True
        return False

    def _touch_cell(self):
        """The stack cell being touched: the occupancy is the last ambiguous one but for one
        of its possible stack cells, lifted; -1 otherwise. The latest touch wins: the other
        stack cells' touches are forgotten."""
        if not self.amb_valid:
            return -1
        o = self.observed
        a = self.amb_obs
        st = self.amb_stack
        cell = -1
        for c in range(self.n):
            if o[c] != a[c]:
                if cell >= 0 or o[c] or not st[c]:
                    return -1
                cell = c
        if cell >= 0:
            t = self.touched
            for c in range(self.n):
                if st[c] and c != cell:
                    t[c] = 0
        return cell

    def _candidate_state(self):
        """PROGRESS, COMPLETE or WAIT_LONGER from the candidates."""
        self.best = -1
        self.n_fix = 0
        equal = self.n_complete  # candidates whose footprint is exactly D-, D+
        if self.n_complete > 1:
            self._disambiguate()
        if self.n_complete == 1:
            # another candidate with a larger footprint: a longer move could follow
            self.state = COMPLETE if self.n_cand == equal else WAIT_LONGER
        else:
            self.state = PROGRESS

    def _drop_plain(self):
        """The pressed button picks a complete move: the complete moves without it (the
        plain drop of the same footprint) are no longer candidates."""
        k = 0
        for j in range(self.n_cand):
            i = self.cand[j]
            if not self.btn_of[i] and self.n_l[i] == self.n_lifted and \
                    self.n_a[i] == self.n_added:
                continue
            self.cand[k] = i
            k += 1
        self.n_complete -= self.n_cand - k
        self.n_cand = k

    def _keep_fixing(self):
        """A fix is shown: it stays until the cubes are back on the way: to its goal (the
        move it was computed for, still a candidate), to any move still in progress (not yet
        complete), or back to E. Meanwhile no other move commits (two stray cubes: clearing
        one does not make the other a placement)."""
        g = self.fix_goal
        release = self.n_cand > 0 and (self.n_complete == 0 or self.target_index >= 0)
        for j in range(self.n_cand):
            if self.cand[j] == g:
                release = True
        if release:
            self.fixing = False
            self._candidate_state()
            return
        if self.n_complete == 1:
            # what is left is one complete legal move (two stray cubes, one cleared): the
            # player was fixing, so time does not commit it; ok plays it (OFFER)
            self.best = -1
            for c in range(self.n):
                self.fill[c] = 0
                self.clear[c] = 0
            self.n_fix = 0
            self.state = OFFER
            return
        self.n_cand = 0
        self.complete = -1
        self.n_complete = 0
        self.best = g
        self._fix_cells(g)
        self.state = FIX

    def _disambiguate(self):
        """Several complete moves with one footprint (b,c lifted in a run a b c d: a<-b,c or
        b,c->d): the one whose stack cell was lifted and put back during the move wins."""
        from_move = -1
        count = 0
        o = self.observed
        a = self.amb_obs
        st = self.amb_stack
        for c in range(self.n):
            a[c] = o[c]
            st[c] = 0
        self.amb_valid = True
        for j in range(self.n_cand):
            i = self.cand[j]
            if self.n_l[i] != self.n_lifted or self.n_a[i] != self.n_added:
                continue
            t = self.touch_of[i] - 1
            if t < 0:
                continue
            st[t] = 1
            if self.touched[t]:
                count += 1
                from_move = i
        self.ambiguous = self.n_complete
        if count == 1:
            self.complete = from_move
            self.n_complete = 1
            self.ambiguous = 0
        else:
            self.complete = -1
            self.n_complete = 0

    def _fix_cells(self, best):
        """fill: lifted cells that ``best`` (-1: E) does not lift; clear: added cells it does
        not add."""
        fill = self.fill
        clear = self.clear
        lifted = self.lifted
        added = self.added
        for c in range(self.n):
            fill[c] = lifted[c]
            clear[c] = added[c]
        if best >= 0:
            base = best * self.fp
            for k in range(self.n_l[best]):
                fill[self.fp_l[base + k]] = 0
            for k in range(self.n_a[best]):
                clear[self.fp_a[base + k]] = 0
        n = 0
        for c in range(self.n):
            if fill[c] or clear[c]:
                n += 1
        self.n_fix = n

    # ------------------------------------------------------------ time and the ok button

    def step_ambiguous(self, now):
        """The ok button while complete moves wait that the switches cannot tell apart (a
        piece put onto one of several pieces), for a game that asks for it
        (``GameLayers.OK_STEPS``): pick the next of their touch cells, as lifting it and
        putting it back would; the move then waits the long settle time (or ok held) and
        commits, and another ok picks the next one. Returns the cell picked, or -1 (nothing
        to step through: ok does what it always does)."""
        if not self.amb_valid or (not self.ambiguous and self.stepped < 0):
            return -1
        if self.state not in (PROGRESS, COMPLETE, WAIT_LONGER) or self.touch >= 0:
            return -1
        o = self.observed
        a = self.amb_obs
        st = self.amb_stack
        for c in range(self.n):
            if o[c] != a[c]:
                return -1  # the pieces are not as they were when the moves were found
        pick = -1
        for k in range(1, self.n + 1):
            c = (self.stepped + k) % self.n if self.stepped >= 0 else k - 1
            if st[c]:
                pick = c
                break
        if pick < 0:
            return -1
        t = self.touched
        for c in range(self.n):
            if st[c]:
                t[c] = 1 if c == pick else 0
        self.stepped = pick
        self.changed_at = now
        self._classify()
        return pick

    def poll(self, now):
        """Advance the timers; return the move to commit now, or -1."""
        st = self.state
        if st == COMPLETE or st == WAIT_LONGER:
            wait = self.settle_ms if st == COMPLETE else self.long_ms
            if ticks_diff(now, self.changed_at) >= wait:
                return self.moves[self.complete]
        elif st == UNKNOWN and self.touch < 0:  # (a touch waits for its piece to come back)
            if ticks_diff(now, self.changed_at) >= self.settle_ms:
                self.state = FIX
                self.version += 1
                self.fixing = True
                self.fix_goal = self.best
        return -1

    def confirm(self):
        """The ok button: the complete move (even one a longer move could extend, or one
        offered after a fix), or -1."""
        if self.state == COMPLETE or self.state == WAIT_LONGER or self.state == OFFER:
            return self.moves[self.complete]
        return -1

    def complete_move(self):
        if self.complete >= 0:
            return self.moves[self.complete]
        return -1

    def state_name(self):
        return STATE_NAMES[self.state]
