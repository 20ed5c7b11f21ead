"""The monitor's page in headless Chromium mirrors a board playing another game than XoBo: a
15 x 15 board playing Brochs (its donjons, quadrants and White's men), X's hexagons, read-only.
The board is a scripted serial link that answers as the firmware does (its replies are the
firmware's own functions), so the test needs no device."""

import pytest

from sim.simkit import new_context
from xobo import games
from xobo_host.sim.monitor import MonitorBackend
from xobo_host.sim.server import SimServer

from .linkfake import ScriptedLink

pytestmark = pytest.mark.browser


class GameBoard(ScriptedLink):
    """A board link playing ``game`` on a ``size`` x ``size`` board, at its start position."""

    def __init__(self, game, size):
        self.pkg = games.load(game)
        self.game = game
        self.size = size
        self.pos = self.pkg.new_position(self.pkg.DEFAULTS)

    def command(self, line, timeout=3.0):
        if line == "follow on":
            return ["ok follow on"]
        if line == "settings":
            return (["ok game " + self.game]
                    + ["ok %s %s" % kv for kv in self.pkg.DEFAULTS.items()] + ["ok end"])
        if line == "position":
            return ["ok " + self.pos.to_string()]
        if line == "record":
            return ["ok " + t for t in self.pkg.record_text(self.pos).split("\n") if t] \
                + ["ok end"]
        if line == "state":
            return ["ok state match side %s result * ply 0"
                    % self.pkg.PLAYER_NAMES[self.pos.side]]
        if line == "leds":
            return ["ok leds " + " ".join(["203040"] * (self.size * self.size + 4))]
        return ["error unknown command '%s' (try help)" % line]


@pytest.fixture
def monitor_page(browser):
    made = []

    def _open(game, size):
        backend = MonitorBackend(GameBoard(game, size), device="/dev/ttyACM0", poll_s=60)
        backend.start()
        server = SimServer(backend).start()
        ctx = new_context(browser)
        pg = ctx.new_page()
        errors = []
        pg.on("pageerror", lambda exc: errors.append(str(exc)))
        made.append((server, backend, ctx, errors))
        pg.goto(server.url)
        pg.wait_for_selector('[data-role="conn"][data-state="live"]', timeout=30000)
        return pg

    yield _open
    for server, backend, ctx, errors in made:
        ctx.close()
        server.stop()
        backend.stop()
        assert not errors, errors


def test_the_monitor_page_mirrors_brochs_on_the_15x15_board(monitor_page):
    pg = monitor_page("brochs", 15)
    pg.wait_for_selector('.grid[data-cols="15"][data-rows="15"][data-game="brochs"]',
                         timeout=30000)
    assert pg.locator("body.monitor").count() == 1
    assert pg.locator(".cell").count() == 225
    donjons = sorted(pg.eval_on_selector_all('[data-mark="donjon"]',
                                             "els => els.map(e => e.dataset.cell)"))
    assert donjons == ["d12", "d4", "l12", "l4"]
    assert pg.get_attribute('[data-cell="a1"]', "data-quadrant") == "2"  # SW
    assert pg.locator('.cube.piece[data-kind="white"]').count() == 24
    assert pg.get_attribute('[data-cell="a1"]', "data-led") == "203040"  # the board's LEDs


def test_the_monitor_page_mirrors_x_as_hexagons(monitor_page):
    pg = monitor_page("x", 9)
    pg.wait_for_selector('.grid[data-shape="hex"]', timeout=30000)
    assert pg.locator(".cell.hex").count() == 64
