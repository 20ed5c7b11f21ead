"""What an event is made of, and the checks of what the staff enters.

An **event**: a name, a game (one of ``xobo.games.GAMES``) and its settings (the game's own
settings of a new game: XoBo's variant, X's size...; the first player is the game's), a
format, a number of rounds, the tables it may use (none named: any free table whose board
fits the game), and whether the next round is paired as soon as one ends (``auto``).

Formats: ``swiss`` (any number of players: two-player games by score groups, three-player
games in groups of three by standing) and ``round-robin`` (two-player games, 3 to 16
players: everyone meets everyone; its rounds are the players' number less one, or the
number when odd).

A **player** is a name (1-40 characters, starting with a letter or a digit; no quotes,
backslashes or angle brackets): nothing else is asked, and nothing of it leaves the café
host. States of an event: ``registration`` (players added and checked in), ``running``
(rounds paired and played; late entries and withdrawals), ``finished``.

A **game** of a round: its board number, its players by seat (the game's player names, the
first to move first), its kind (``game``; ``bye``: a full point; ``free``: a round robin's
free round, no point; ``forfeit``: a withdrawn round-robin player's opponent wins), its table
and its state: ``waiting`` (for a free table), ``starting`` (the host sets the board up),
``playing``, ``over``.

Usage::

    >>> from xobo_host.cafe.events.model import check_event, check_name
    >>> check_event({"name": "Friday Swiss", "game": "xobo", "format": "swiss", "rounds": 5})
    {'name': 'Friday Swiss', 'game': 'xobo', 'settings': {'variant': 'xobo'}, 'format': 'swiss',
     'rounds': 5, 'tables': [], 'auto': True}
    >>> check_event({"name": "Friday Swiss", "game": "chess", "format": "swiss", "rounds": 5})
    Traceback (most recent call last):
    ...
    xobo_host.cafe.events.model.EventError: the game is one of xobo, x, ..., not 'chess'
    >>> check_name("  Alice   B. ")               # the name, spaces tidied
    'Alice B.'
"""

import re
import unicodedata

from xobo import games

FORMATS = ("swiss", "round-robin")
STATES = ("registration", "running", "finished")
GAME_KINDS = ("game", "bye", "free", "forfeit")
GAME_STATES = ("waiting", "starting", "playing", "over")
MAX_ROUNDS = 20
ROUND_ROBIN_MAX = 16
MAX_NAME = 40
MAX_EVENT_NAME = 60
MAX_PLAYERS = 500
FORBIDDEN = set('"\\<>')


class EventError(ValueError):
    """What the staff entered is not an event, a player or a result: the message says why."""


def check_name(name, what="a player's name", longest=MAX_NAME):
    """A name with its spaces tidied; EventError when it cannot be one."""
    if not isinstance(name, str):
        raise EventError("%s is text" % what)
    name = " ".join(name.split())
    if not name:
        raise EventError("%s cannot be empty" % what)
    if len(name) > longest:
        raise EventError("%s has at most %d characters, not %d" % (what, longest, len(name)))
    bad = sorted({c for c in name if c in FORBIDDEN or unicodedata.category(c)[0] == "C"})
    if bad:
        raise EventError("%s cannot hold %s" % (what, " ".join(repr(c) for c in bad)))
    if unicodedata.category(name[0])[0] not in ("L", "N"):
        # (a spreadsheet reads a cell starting with = + - @ as a formula)
        raise EventError("%s starts with a letter or a digit, not %r" % (what, name[0]))
    return name


def game_settings(game, given):
    """The game's new-game settings, the defaults filled in; EventError for a setting the
    game does not have or a value it does not take."""
    pkg = games.load(game)
    given = given or {}
    if not isinstance(given, dict):
        raise EventError("the game's settings are an object {setting: value}")
    keys = [k for k in getattr(pkg, "NEW_GAME_SETTINGS", ()) if k != "first"]
    out = {}
    for key in keys:
        out[key] = pkg.DEFAULTS[key]
    for key, value in given.items():
        if key not in keys:
            raise EventError("%s has no setting '%s' for an event (it has: %s)"
                             % (game, str(key)[:30], ", ".join(keys) or "none"))
        choices = pkg.SETTINGS[key]
        ranged = len(choices) == 2 and all(isinstance(c, int) for c in choices)
        if ranged:
            try:
                value = int(value)
            except (TypeError, ValueError):
                raise EventError("%s's %s is a whole number" % (game, key)) from None
            if not choices[0] <= value <= choices[1]:
                raise EventError("%s's %s is %d to %d, not %d"
                                 % (game, key, choices[0], choices[1], value))
        elif value not in choices:
            raise EventError("%s's %s is one of %s, not %r"
                             % (game, key, ", ".join(map(str, choices)), value))
        out[key] = value
    return out


def seat_names(game):
    """The game's seats in playing order from its default first player."""
    pkg = games.load(game)
    names = list(pkg.PLAYER_NAMES)
    first = pkg.DEFAULTS.get("first", names[0])
    k = names.index(first) if first in names else 0
    return names[k:] + names[:k]


def check_event(spec):
    """An event's spec checked and completed: {name, game, settings, format, rounds, tables,
    auto}."""
    if not isinstance(spec, dict):
        raise EventError("an event is an object {name, game, format, rounds, ...}")
    name = check_name(spec.get("name"), "the event's name", MAX_EVENT_NAME)
    game = spec.get("game")
    if game not in games.GAMES:
        raise EventError("the game is one of %s, not %r" % (", ".join(games.GAMES),
                                                            str(game)[:30]))
    players = games.load(game).PLAYERS
    if players not in (2, 3):
        raise EventError("%s is a game of %d players: events pair two or three"
                         % (game, players))
    fmt = spec.get("format", "swiss")
    if fmt not in FORMATS:
        raise EventError("the format is swiss or round-robin, not %r" % str(fmt)[:30])
    if fmt == "round-robin" and players != 2:
        raise EventError("a round robin is for two-player games; %s is played by %d: swiss "
                         "makes groups of three by standing" % (game, players))
    rounds = spec.get("rounds", 5)
    if isinstance(rounds, str) and rounds.isdigit():
        rounds = int(rounds)
    if not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= MAX_ROUNDS:
        raise EventError("the rounds are 1 to %d" % MAX_ROUNDS)
    tables = spec.get("tables") or []
    if isinstance(tables, str):
        tables = [t for t in re.split(r"[\s,]+", tables) if t]
    if not isinstance(tables, list) or not all(isinstance(t, str) and 0 < len(t) <= 64
                                               for t in tables):
        raise EventError("the tables are a list of table names")
    return {"name": name, "game": game, "settings": game_settings(game, spec.get("settings")),
            "format": fmt, "rounds": rounds, "tables": list(dict.fromkeys(tables)),
            "auto": bool(spec.get("auto", True))}
