"""``xobo games``: the games this board hosts: each game's name (what ``--game`` and the
board's ``set game`` take), title, players, the board definitions it fits (``boards/``, its
default grid) and its rules page.

Usage::

    xobo games

    >>> from xobo_host.cli.main import main
    >>> main(["games"])                       # what it prints
    game            title                           players  rules            boards (boards/)
    xobo            XoBo (Vincent Everaert)         2        docs/rules/xobo.md  pico_15x15, ...
    ...
    brochs          Brochs                          2        docs/rules/brochs.md  pico_15x15
    ...
    0

The games' records (what a board played) are ``xobo records``.
"""

import sys

COLUMNS = "%-15s %-31s %-8s %-29s %s"


def register(subparsers):
    p = subparsers.add_parser(
        "games",
        help="the games this board hosts: players, boards, rules page",
        description="The games installed with this firmware: their name (for --game and the "
                    "board's 'set game'), players, the boards they fit and their rules page. "
                    "The games a board played are 'xobo records'.",
    )
    p.set_defaults(func=run)


def board_grids():
    """(name, width, height) of every board definition in ``boards/``, by name; a definition
    that cannot be read is left out (``xobo flash --board`` says what is wrong with it)."""
    from xobo.drivers.boarddef import BoardDefError, load
    from xobo_host.device.deploy import BOARDS_DIR, available_boards

    out = []
    for name in available_boards():
        try:
            bd = load(str(BOARDS_DIR / (name + ".json")))
        except (BoardDefError, OSError, ValueError):
            continue
        out.append((name, bd.width, bd.height))
    return out


def hosted_games():
    """Every installed game: {name, title, players, area, boards, rules}."""
    from xobo import games
    from xobo_host.device.deploy import ROOT

    grids = board_grids()
    out = []
    for name in games.available():
        pkg = games.load(name)
        w, h = pkg.area(dict(pkg.DEFAULTS))
        rules = ROOT / "docs" / "rules" / (name + ".md")
        out.append({
            "name": name, "title": pkg.TITLE, "players": pkg.PLAYERS, "area": (w, h),
            "boards": [b for b, bw, bh in grids if w <= bw and h <= bh],
            "rules": "docs/rules/%s.md" % name if rules.exists() else "",
        })
    return out


def run(args):
    print(COLUMNS % ("game", "title", "players", "rules", "boards (boards/)"))
    for g in hosted_games():
        print(COLUMNS % (g["name"], g["title"], g["players"], g["rules"] or "-",
                         ", ".join(g["boards"]) or "none here fits %dx%d" % g["area"]))
    sys.stdout.flush()
    return 0
