"""A newcomer who knows none of the games, at the simulator's page: it reads what the page says
(the lesson's words, the board's words under them, the cells lit white) and does it with the
page's own controls, a click at a time. The reading is here and only here (``plan``: words to
hand actions), so that when the lessons' words change, this is the one place to teach; the
rest drives the page (``Newcomer``).

It knows no rule: it never asks the firmware what is legal, never plays a move by its notation
and never uses "Play it for me". For its own moves in the game against the computer it does what
a newcomer does: presses hint and follows the words the board then says ("hint e5: put a cube on
e5"); the computer's moves it puts as the board says them ("the computer plays e5xd4: spread
e5 towards d4").

Usage::

    nc = Newcomer(page)
    nc.start_course()
    nc.do_lesson()            # reads, sets up, acts, follows the board until "ok: next lesson"
    nc.play_out()             # the last lesson: the game against the computer, to its end
"""

import re
import time

CELL = r"[a-o](?:1[0-5]|[1-9])(?![0-9])"
CARD = '[data-role="learn-words"]'

# ---------------------------------------------------------------- reading: words -> hands
# An action: ("put", cell), ("lift", cell), ("take", cell), ("press", button),
# ("hold", button) (a long press), ("setup",) (the page's "Set up this lesson"), ("wait",)
# (the board is busy: nothing to do but wait), ("hint",) (ask the board).

VERBS = r"(?:put|drop|move|step|spread|take|lift|press|hold|join|try|regroup|gather)"


def cells_in(text):
    return re.findall(CELL, text)


def _sentences(text):
    """The text's sentences (a cell name's digits never end one)."""
    return [s.strip() for s in re.split(r"(?<=[.!])\s+(?=[A-Z])", text) if s.strip()]


def instruction(text):
    """The part of a lesson's words that says what to do: from the last sentence that opens
    with (or holds, after a colon) a verb of the hands."""
    sents = _sentences(text)
    for k in range(len(sents) - 1, -1, -1):
        s = sents[k]
        if re.match(VERBS, s, re.I) or re.search(r"[:;,]\s*" + VERBS + r"\b", s, re.I):
            return " ".join(sents[k:])
    return text


def board_words(text, chosen=()):
    """The board's own words for what is left of a move, the computer's move or a hint, in
    the text: a plan, [] when they ask nothing. ``chosen``: the cells the newcomer's hands
    went to last (the board asks which of several it chose)."""
    # the board lists the moves it still sees as 'A or B': the first is the newcomer's
    text = re.split(r",? or (?=(?:drop|move|put|take|spread|regroup|press|lift)\b)", text)[0]
    out = []
    for part in re.split(r";\s*|\s+·\s+|, (?=take off)", text):
        part = part.strip()
        out += _board_phrase(part, chosen)
    return out


def _board_phrase(p, chosen=()):
    """One phrase of the board's words (docs/firmware.md "What the board asks, in words")."""
    m = re.search(r"((?:%s(?:, | or )?)+)\? lift the \w+ (?:you chose|yours? went onto)" % CELL,
                  p) or re.search(r"went onto a piece \(one of ((?:%s(?:, | or )?)+)\), lift "
                                  r"that piece" % CELL, p)
    if m:  # the switches cannot tell: the cell the newcomer chose, lifted and put back
        named = cells_in(m.group(1))
        c = next((c for c in reversed(chosen) if c in named), named[0])
        return [("lift", c), ("putback", c)]
    m = re.search(r"put (%s) back" % CELL, p)
    if m:
        return [("putback", m.group(1))]
    m = re.search(r"lift the stack on (%s)" % CELL, p)
    if m:
        return [("lift", m.group(1))]
    m = re.search(r"move the cubes? on (.*) onto (%s)" % CELL, p)
    if m:
        out = []
        for c in cells_in(m.group(1)):
            out += [("lift", c), ("put", m.group(2))]
        return out
    m = re.search(r"regroup (.*) onto (%s)" % CELL, p)
    if m:
        out = []
        for c in cells_in(m.group(1)):
            out += [("lift", c), ("put", m.group(2))]
        return out
    m = re.search(r"spread (%s) towards" % CELL, p)
    if m:  # the stack in the hand: the board then says where its cubes go
        return [("lift", m.group(1))]
    m = re.search(r"move the tower on (%s) .*?bottom piece to (%s).*?top piece (?:scores \d+ "
                  r"on %s and comes back on |to )(%s)" % (CELL, CELL, CELL, CELL), p)
    if m:
        return [("lift", m.group(1)), ("put", m.group(2)), ("put", m.group(3))]
    m = re.search(r"move (?:the piece on |your tower on )?(%s) to (%s)" % (CELL, CELL), p)
    if m:
        return [("lift", m.group(1)), ("put", m.group(2))]
    m = re.search(r"the turn goes on: move your tower", p)
    if m:
        return [("hint",)]
    m = re.search(r"drop the master on (%s)" % CELL, p)
    if m:  # '(put it, then hold ok)'
        return [("put", m.group(1)), ("hold", "ok")]
    m = re.search(r"(?:put|drop) an? \w+ on ((?:%s(?: \(a stack\))?(?:, )?)+)" % CELL, p)
    if m:
        return [("put", c) for c in cells_in(m.group(1))]
    m = re.search(r"take (?:the (?:\w+ )*?)?(?:pairs?|pieces?|cubes?|men|man) off ((?:%s,? ?)+)"
                  % CELL, p)
    if m:
        return [("take", c) for c in cells_in(m.group(1))]
    m = re.search(r"take off ((?:%s,? ?)+)" % CELL, p)
    if m:
        return [("take", c) for c in cells_in(m.group(1))]
    m = re.search(r"press ok to play it", p)
    if m:
        return [("press", "ok")]
    m = re.search(r"press (?!ok\b)(\w+)", p)
    if m:  # a button the page has not (Brochs's submission, pass): the serial console's
        return [("console", "press " + m.group(1))]
    return []


def plan(words, lit=(), empty=None):
    """What to do, in order, for a lesson's ``words``: a list of actions. ``lit``: the cells lit
    white (the lesson's), ``empty(cell)``: whether a cell is empty (a newcomer sees it)."""
    text = instruction(words)
    low = text.lower()
    empty = empty or (lambda c: True)
    # an example given in the board's own words ('...; for one: move the piece on c2 to d2')
    example = re.search(r"(?:for one|for example|e\.g\.)[:,]? (.*?)(?:\.$|\. [A-Z]|$)", text)
    if example and board_words(example.group(1)):
        return board_words(example.group(1))
    if re.search(r"hold hint", low):
        return [("hold", "hint")]
    # a tower: 'move the tower e5 North-West: bottom piece to d6, top piece onto ... c7'
    bottom = re.search(r"bottom(?: piece)? to (%s)" % CELL, text)
    top = re.search(r"top(?: piece)? (?:onto [^,.]*? on |to )(%s)" % CELL, text)
    if bottom and top:
        before = text[:bottom.start()]
        source = [c for c in cells_in(before) if not empty(c)]
        return [("lift", source[-1]), ("put", bottom.group(1)), ("put", top.group(1))]
    # a spread: 'spread e3 North, over e4, e5 and e6'
    m = re.search(r"spread (%s)\b[^:]*?over ((?:%s(?:,| and)? ?)+)" % (CELL, CELL), text)
    if m:
        return [("lift", m.group(1))] + [("put", c) for c in cells_in(m.group(2))]
    # a regroup: 'put the cubes of e1 and e2 on e3'
    m = re.search(r"the (?:cubes|pieces) of ((?:%s(?:,| and)? ?)+) on (%s)" % (CELL, CELL),
                  text)
    if m:
        out = []
        for c in cells_in(m.group(1)):
            out += [("lift", c), ("put", m.group(2))]
        return out
    # a move: 'move your man from j4 to e4', 'step e4 to e5', 'step e4 onto ... on e5'
    m = re.search(r"(?:from |step )(%s) (?:to|onto [^.]*? on) (%s)" % (CELL, CELL), text,
                  re.I)
    if m:
        return [("lift", m.group(1)), ("put", m.group(2))]
    # a piece taken off: 'take the man off the donjon l4'
    m = re.search(r"take the \w+ off (?:the \w+ )?(%s)" % CELL, text, re.I)
    if m:
        return [("take", m.group(1))]
    # a placement: the cell after 'on' ('put a cube on the lit cell e9', 'drop a man on e4'),
    # 'on it' (the cell named before), the first of 'a3 or a2', 'c5 for one', the lit cells
    m = re.search(r"\b(?:put|drop|try)\b(.*)", text, re.I | re.S)
    rest = m.group(1) if m else text
    but = re.search(r"anywhere but ((?:%s(?:,| or| and)? ?)+)" % CELL, rest)
    if but:
        banned = set(cells_in(but.group(1)))
        return [("put-any", sorted(banned))]
    on = re.search(r"\bon (?:the lit cell |the centre )?(%s)" % CELL, rest)
    if on:
        return [("put", on.group(1))]
    if re.search(r"\bon it\b", rest):
        named = cells_in(text[:text.find(rest)] if rest in text else text)
        named = named or cells_in(words[:words.find(text)])
        return [("put", named[-1])]
    named = [c for c in cells_in(rest) if empty(c)]
    if named:
        return [("put", named[0])]
    free = [c for c in lit if empty(c)]
    if free:
        return [("put", free[0])]
    raise AssertionError("the newcomer cannot tell what to do from: %r" % words)


# ---------------------------------------------------------------- the page
class Newcomer:
    """Drives the page as a newcomer: clicks cells by the names the board labels them with,
    reads the learn card."""

    def __init__(self, pg, timeout_ms=30000):
        self.pg = pg
        self.timeout = timeout_ms
        self.log = []  # what it read and did, for a failure's message
        self.chosen = []  # the cells its pieces went to, last last
        self.done = set()  # the cells it put a piece on in this move (the board may say so)

    # what it sees
    def words(self):
        return self.pg.inner_text(CARD)

    def status(self):
        return self.pg.inner_text('[data-role="inference"]')

    def _cell(self, name):
        return '[data-game-cell="%s"]' % name

    def count(self, name):
        return int(self.pg.get_attribute(self._cell(name), "data-count") or 0)

    def empty(self, name):
        return self.pg.locator(self._cell(name)).count() == 1 and self.count(name) == 0

    def lit(self, watch_s=3.0):
        """The cells lit white (the lesson's: 'the lit cell'), in the game's names: watched
        for a while, as they breathe (dark at the low of each breath)."""
        seen = []
        start = time.monotonic()
        while time.monotonic() - start < watch_s:
            for c in self.pg.evaluate("""() => Array.from(document.querySelectorAll(
                    '.cell.lit[data-game-cell]')).filter((el) => {
                    const h = el.dataset.hue || '';
                    const v = [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16));
                    return v.every((x) => x > 0xc0); }).map((el) => el.dataset.gameCell)"""):
                if c not in seen:
                    seen.append(c)
            time.sleep(0.1)
        return seen

    def hand(self):
        return int(self.pg.get_attribute('[data-role="hand"]', "data-count") or 0)

    def fail(self, why):
        raise AssertionError("%s\nthe card: %r\nthe status: %r\nwhat the newcomer did: %s"
                             % (why, self.words(), self.status(), self.log[-12:]))

    def wait_words(self, test, what):
        """Wait until the card's words pass ``test`` (a JS predicate of the text)."""
        try:
            self.pg.wait_for_function(
                "t => (" + test + ")(document.querySelector('" + CARD.replace("'", "\\'") +
                "').textContent)", timeout=self.timeout)
        except Exception:
            self.fail("the card never showed " + what)

    def wait_change(self, before):
        """Wait until the card's words differ from ``before`` (the board saw the hands)."""
        if not self.changes(before):
            self.fail("the board said nothing new after the newcomer's hands")

    def changes(self, before):
        """True when the card's words change from ``before`` within the timeout."""
        try:
            self.pg.wait_for_function(
                "b => document.querySelector('%s').textContent !== b" % CARD.replace(
                    "'", "\\'"), arg=before, timeout=self.timeout)
            return True
        except Exception:
            return False

    def settled(self):
        """Wait while the board waits for stillness (the settle bar) or a click waits."""
        self.pg.wait_for_function(
            "() => document.querySelector('[data-role=\"settle\"]').hidden",
            timeout=self.timeout)

    # what it does
    def follow(self, actions):
        """Do what the board's words say is left, but the pieces already put in this move
        (the board's list of the moves it sees names them again)."""
        for action in actions:
            if action[0] == "put" and action[1] in self.done and not self.empty(action[1]):
                continue
            self.do(action)

    def do(self, action):
        self.log.append(action)
        try:
            self._do(action)
        except Exception as exc:  # a click the page did not take: say what the page said
            if isinstance(exc, AssertionError):
                raise
            self.fail("the page did not take %r (%s); it says %r" % (
                action, str(exc).splitlines()[0],
                self.pg.inner_text('[data-role="message"]')))

    def _do(self, action):
        pg = self.pg
        kind = action[0]
        if kind == "put":
            self.chosen.append(action[1])
            self.done.add(action[1])
            k = self.count(action[1])
            pg.click(self._cell(action[1]))
            pg.wait_for_selector(self._cell(action[1]) + ':not([data-count="%d"])' % k)
        elif kind == "putback":  # the hand's pieces back where they were lifted from
            for _ in range(max(1, self.hand())):
                k = self.count(action[1])
                pg.click(self._cell(action[1]))
                pg.wait_for_selector(self._cell(action[1]) + ':not([data-count="%d"])' % k)
        elif kind == "lift":
            pg.click(self._cell(action[1]), button="right")
            pg.wait_for_selector(self._cell(action[1]) + '[data-count="0"]')
        elif kind == "take":
            pg.click(self._cell(action[1]), modifiers=["Shift"])
            pg.wait_for_selector(self._cell(action[1]) + '[data-count="0"]')
        elif kind == "put-any":  # 'anywhere but ...': the first empty cell of the game
            free = pg.evaluate("""(banned) => Array.from(document.querySelectorAll(
                '.cell[data-game-cell][data-count="0"]')).map((el) => el.dataset.gameCell)
                .filter((c) => !banned.includes(c))""", action[1])
            self.do(("put", free[0]))
        elif kind == "press":
            pg.click('[data-button="%s"]' % action[1])
        elif kind == "hold":  # a long press: the page's button held as a finger would
            button = pg.locator('[data-button="%s"]' % action[1])
            box = button.bounding_box()
            pg.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            pg.mouse.down()
            time.sleep(1.8)  # the board's long press (1.5 s), the finger's own time
            pg.mouse.up()
        elif kind == "console":
            pg.fill('[data-role="console-input"]', action[1])
            pg.press('[data-role="console-input"]', "Enter")
        elif kind == "hint":
            pg.click('[data-button="hint"]')
        elif kind == "setup":
            pg.click('[data-role="learn-setup"]')
        else:
            raise AssertionError("no such action %r" % (action,))

    # a lesson
    def start_course(self):
        self.pg.click('[data-role="learn"]')
        self.pg.wait_for_selector('[data-role="learn-card"][data-learning="yes"]')
        self.wait_words("t => /^Lesson \\d+\\//.test(t)", "a lesson")

    def lesson(self):
        """(k, n) of the lesson shown."""
        m = re.match(r"Lesson (\d+)/(\d+)", self.words())
        return (int(m.group(1)), int(m.group(2))) if m else (0, 0)

    def set_up(self):
        """The lesson's pieces, as the page offers ("Set up this lesson", shown with the
        lesson's words when its pieces are not as the lesson says)."""
        if "Set up the lesson" not in self.words() and \
                not self.pg.is_visible('[data-role="learn-setup"]'):
            return
        self.do(("setup",))
        self.wait_words("t => !t.includes('Set up the lesson')", "the lesson set up")

    def do_lesson(self):
        """Read the lesson, do what it says, follow the board's words until the lesson is
        done ("ok: next lesson"), then press ok. Fails when the lesson says the newcomer's
        move is not it."""
        k, n = self.lesson()
        self.set_up()
        self.done = set()
        # "Check the pieces: d8: dark piece." asks for a colour the switches cannot see (the
        # page's set-up put it right): said while the pieces match, gone at the first move
        asked = re.sub(r"Check the pieces: [^.]*\. ", "", self.words())
        self.log.append(("read", asked))
        lit = self.lit() if "lit" in asked else ()
        for action in plan(asked, lit, self.empty):
            self.do(action)
        for _ in range(40):
            self.settled()
            now = self.words()
            if "ok: next lesson" in now:
                break
            if not now.startswith("Lesson %d/" % k):
                self.fail("the lesson changed under the newcomer")
            extra = now.replace(asked, " ").strip() if asked in now else now
            follow = board_words(extra.split(". ")[-1] if asked in now else
                                 self.status(), self.chosen)
            if asked not in now and not follow:
                # (a card between two of the board's words, "ok: next lesson" not yet in it,
                # is no refusal: one that stays so is)
                if self.changes(now):
                    continue
                self.fail("the lesson refused what its words said")
            if not follow:
                self.wait_change(now)
                continue
            self.follow(follow)
            if self.words() == now:
                self.wait_change(now)
        else:
            self.fail("the lesson never ended")
        self.do(("press", "ok"))
        self.wait_words("t => !t.includes('ok: next lesson')", "the next lesson")

    def play_out(self, moves=400):
        """The last lesson: the game against the computer, each of the newcomer's moves the
        hint's, each of the computer's as the board says it, until the course is complete."""
        self.set_up()
        for _ in range(moves):
            self.settled()
            now = self.words()
            if "Course complete" in now:
                break
            if "The game is over" in now:
                self.do(("press", "ok"))
                self.wait_words("t => t.includes('Course complete')", "the course complete")
                continue
            said = re.search(r"(?:the computer plays|hint) \S+: (.*)$", now)
            if said is None:
                follow = board_words(now.split(". ")[-1], self.chosen)
                if follow and follow != [("hint",)]:
                    self.follow(follow)
                    if self.words() == now:
                        self.wait_change(now)
                    continue
                self.do(("hint",))
                self.wait_change(now)
                continue
            follow = board_words(said.group(1), self.chosen)
            if not follow:
                self.fail("the newcomer cannot read the move the board says")
            self.done = set()
            self.follow(follow)
            if self.words() == now:
                self.wait_change(now)
        else:
            self.fail("the game did not end in %d steps" % moves)
        self.do(("press", "ok"))
        self.pg.wait_for_selector('[data-role="learn-card"][data-learning="no"]')
