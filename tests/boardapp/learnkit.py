# dual-runtime helper (not a test module)
"""A learner on the virtual board who follows only what the board says and lights: the cells
to fill, clear and adjust (serial ``state``'s fields), the lesson's move lit by ``hint``, the
computer's move lit on its turn. The hands are a player's, the game's host module's
(``boardkit.play_by_hand``: XoBo's spreads cube by cube, the others' from the footprint).

Usage::

    from boardapp.learnkit import Learner
    ln = Learner("x")
    ln.start()                  # serial 'learn'
    ln.complete_course()        # every lesson, the last one played out to the end
"""

from boardapp.boardkit import play_by_hand
from xobo.runtime.virtual_board import VirtualBoard

SETTLE_MS = 3500  # longer than any settle time (1 s, 3 s while a move could still grow)


class Learner:
    def __init__(self, game, vb=None):
        if vb is None:
            board = "pico_15x15" if game == "brochs" else "pico_gpio"
            vb = VirtualBoard(board=board, settings={"game": game})
        self.vb = vb
        self.settle_ms = SETTLE_MS  # how long the hands wait for the board ('set settle')
        self.vb.advance(50)
        self.said = []  # every 'say' event's words
        self.hints = []
        self.expects = []
        self.lessons = []  # 'event learn GAME 2/7 title' lines
        self.vb.subscribe(self._event)

    def _event(self, line):
        if line.startswith("event say "):
            self.said.append(line[10:])
        elif line.startswith("event hint "):
            self.hints.append(line[11:])
        elif line.startswith("event expect computer "):
            self.expects.append(line[22:])
        elif line.startswith("event learn "):
            self.lessons.append(line[12:])

    # ---------------------------------------------------------------- reading the board
    def state(self):
        return self.vb.state()

    def say(self):
        return self.vb.app.guide_text()

    def board_cell(self, game_cell_name):
        app = self.vb.app
        w = app.pos.width
        g = (int(game_cell_name[1:]) - 1) * w + ord(game_cell_name[0]) - 97
        return app.place.to_board[g]

    # ---------------------------------------------------------------- hands
    def click(self, name):
        self.vb.buttons.click(name)
        self.vb.advance(200)

    def hold(self, name, ms=1700):
        self.vb.hold(name, ms)
        self.vb.advance(ms + 100)

    def set_up(self):
        """Put and take the pieces the board shows until they match its position."""
        for _ in range(6):
            st = self.state()
            if st["inference"] == "match":
                return
            counts = self.vb.switches.counts
            for cell in st["clear"]:
                self.vb.lift(self.board_cell(cell))
            for cell in st["fill"]:
                b = self.board_cell(cell)
                n = st["fill_heights"].get(cell, 1)
                self.vb.put(b, n - counts[b])
            for cell in st["heights"]:
                b = self.board_cell(cell)
                h = st["heights"][cell]
                if counts[b] < h:
                    self.vb.put(b, h - counts[b])
                elif counts[b] > h:
                    self.vb.take(b, counts[b] - h)
            self.vb.advance(self.settle_ms)
        raise AssertionError("the pieces do not match the lesson: %s" % self.vb.command("state"))

    def play_shown(self, text):
        """Play the move the board lights (named ``text`` by its hint or expect event) with
        the hands of the game's host module (``boardkit.play_by_hand``)."""
        app = self.vb.app
        pos = app.pos
        m = pos.parse_move(text)
        button = _button_of_action(pos, m)
        if button:  # an action no piece shows (Brochs's submission question, a pass): its button
            reply = self.vb.command("press " + button)
            assert reply and reply[0].startswith("ok"), reply
            self.vb.advance(self.settle_ms)
            return
        play_by_hand(self.vb, m)  # the game's host module's hands
        self.vb.advance(self.settle_ms)

    # ---------------------------------------------------------------- the course
    def start(self, game=""):
        reply = self.vb.command("learn " + game if game else "learn")
        assert reply[0].startswith("ok learn 1/"), reply
        return reply

    def lesson_move(self):
        """Do what the lesson asks: the move its hint lights."""
        self.set_up()
        n = len(self.hints)
        self.click("hint")
        assert len(self.hints) == n + 1, "no hint lit: %s" % self.vb.command("state")
        self.play_shown(self.hints[-1])

    def play_out(self, max_plies=400):
        """The last lesson: the whole game against the computer, each of the learner's
        moves the one the hint lights."""
        vb = self.vb
        for _ in range(max_plies):
            st = self.state()
            if st["learn"] == "learn done":
                return
            if st["result"] != "*":
                return
            if st["expect"]:
                self.play_shown(st["expect"])
                continue
            self.set_up()
            if self.state()["expect"]:
                continue
            n = len(self.hints)
            self.click("hint")
            vb.advance(100)
            if self.state()["expect"]:
                continue
            assert len(self.hints) == n + 1, vb.command("state")
            self.play_shown(self.hints[-1])
        raise AssertionError("the game did not end in %d plies" % max_plies)

    def complete_course(self):
        """Every lesson as the board asks; returns the lesson lines seen."""
        for _ in range(40):
            st = self.state()
            field = st["learn"]
            assert field is not None, "left the course early: %s" % self.vb.command("state")
            if field == "learn done":
                self.click("ok")
                assert self.state()["learn"] is None
                return self.lessons
            if self._playing():
                self.play_out()
                continue
            self.lesson_move()
            words = self.say()
            assert "ok: next lesson" in words, words
            self.click("ok")
        raise AssertionError("the course did not end")

    def _playing(self):
        return self.vb.app.mode.phase == 2  # PLAY (xobo.runtime.learn)


def _button_of_action(pos, m):
    """The board button (serial ``press NAME``) that plays ``m``, for a game whose rules name
    such buttons (``BUTTONS``: Brochs's pass, submission, accept, refuse, resign); ""
    otherwise."""
    import sys

    buttons = getattr(sys.modules[type(pos).__module__], "BUTTONS", None) or {}
    for name in buttons:
        if buttons[name] == m:
            return name
    return ""
