"""The board's settings: their checks, every game's as stored, and the current game's view.

The board's own settings (``BOARD_KEYS``) and each game's (its ``SETTINGS``, with the
computer's ``opponent`` and ``level``) are kept together in ``stored``, a game's under
"<game>.<key>" ("x.size"): each game keeps its own. ``values`` is the view the board plays
with: the board's settings and the current game's, under their own keys. It is always the
same dict (``App.settings``): ``use_game`` fills it again in place.

Usage::

    >>> from xobo.runtime.settings import BoardSettings
    >>> from xobo.games import load
    >>> book = BoardSettings()
    >>> book.use_game("xobo", load("xobo"))           # its rules, and the view
    >>> book.values["settle"]                         # 1000
    1000
    >>> v = book.check("settle", "800")               # ValueError says what is wrong
    >>> book.check("settle", "80")
    Traceback (most recent call last):
    ...
    ValueError: settle must be 200-5000, not 80
    >>> book.put("settle", v)                         # the view and the stored dict
    >>> book.save()                                   # on flash (OSError, ValueError): no store
"""

from xobo import games
from xobo.compat import const
from xobo.numbers import parse_uint

# the board's own settings; each game adds its own (its SETTINGS), and the computer's
# `opponent` and `level`, stored per game as "<game>.<key>"
BOARD_KEYS = ("game", "brightness", "settle", "hints", "name")
GAME_AI_KEYS = ("opponent", "level")
DEFAULTS = {"game": games.DEFAULT, "brightness": 60, "settle": 1000, "hints": "on", "name": "-"}
CHOICES = {"hints": ("on", "off")}
RANGES = {"brightness": (0, 100), "settle": (200, 5000)}
_NAME_MAX = const(16)  # the table's name (a café's host knows the board by it): '-' unnamed


def to_int(value):
    """An int setting's value: an int, or ASCII digits (a saved or typed '+800', '８00' or
    '1_000' is refused, as the protocol refuses them); None otherwise."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        v = parse_uint(value)
        return v if v >= 0 else None
    return None


def check_value(key, value, choices, ranges, keys):
    """``value`` of setting ``key`` checked against ``choices`` ({key: names}) and
    ``ranges`` ({key: (lo, hi)}); ValueError saying what is wrong (``keys``: the settings
    named when ``key`` is none of them)."""
    if key == "name":
        v = str(value)
        if not 0 < len(v) <= _NAME_MAX or not all(
                "a" <= c <= "z" or "A" <= c <= "Z" or "0" <= c <= "9" or c in "-_." for c in v):
            raise ValueError("name must be 1-16 letters, digits, '-', '_' or '.', not '%s'"
                             % v[:24])
        return v
    if key in choices:
        v = str(value).lower()
        if v not in choices[key]:
            raise ValueError("%s must be one of %s, not '%s'" % (key, "|".join(choices[key]),
                                                                  value))
        return v
    if key in ranges:
        lo, hi = ranges[key]
        v = to_int(value)
        if v is None:
            raise ValueError("%s must be a whole number %d-%d, not '%s'" % (key, lo, hi, value))
        if v < lo or v > hi:
            raise ValueError("%s must be %d-%d, not %d" % (key, lo, hi, v))
        return v
    raise ValueError("unknown setting '%s' (settings: %s)" % (key, ", ".join(keys)))


def _fallen_back(key, exc, default):
    """The words of a saved setting that could not be used: its default is."""
    return "setting %s not usable (%s): %s" % (key, exc, default)


def opponent_choices(game):
    """'off', each player's name, and for three players each pair ('red+green')."""
    names = game.PLAYER_NAMES
    out = ["off"]
    out.extend(names)
    if len(names) > 2:
        for i in range(len(names)):
            for j in range(i + 1, len(names)):
                out.append(names[i] + "+" + names[j])
    return tuple(out)


def game_rules(game):
    """The game's settings' checks: (choices, ranges, defaults) with opponent and level."""
    choices = {}
    ranges = {}
    for k in game.SETTINGS:
        v = game.SETTINGS[k]
        if len(v) == 2 and isinstance(v[0], int):
            ranges[k] = v
        else:
            choices[k] = v
    choices["opponent"] = opponent_choices(game)
    choices["level"] = game.LEVELS
    defaults = dict(game.DEFAULTS)
    defaults["opponent"] = "off"
    defaults["level"] = game.DEFAULT_LEVEL
    return choices, ranges, defaults


class BoardSettings:
    """Every setting as stored, the current game's view of them, their checks, and the flash
    file they are saved in (``store``: a ``xobo.runtime.storage.Settings``, or None: not
    saved)."""

    def __init__(self):
        self.stored = dict(DEFAULTS)  # every setting as stored (other games' as "x.size")
        self.values = {}  # the board's settings and the current game's (a view)
        self.store = None
        self.game = None  # the current game's package
        self.rules = None  # its (choices, ranges, defaults)
        # the settings read from flash that could not be used, each fallen back to its
        # default: "setting brightness not usable (brightness must be 0-100, not 300): 60"
        # (the board's when they are read, the current game's when it is made: ``unusable``)
        self.unusable_board = []
        self.unusable_game = []

    def load_board(self, loaded):
        """The settings read from flash (a dict) into ``stored``: the board's are checked
        now (one that is not valid is left out: its default is used, and ``unusable`` says
        so), a game's when that game is played."""
        for k in loaded:
            if k in BOARD_KEYS and k != "game":
                try:
                    self.stored[k] = check_value(k, loaded[k], CHOICES, RANGES, BOARD_KEYS)
                except ValueError as exc:
                    self.unusable_board.append(_fallen_back(k, exc, self.stored[k]))
            else:
                self.stored[k] = loaded[k]

    def use_game(self, name, game):
        """Game ``name`` (its package ``game``) is the current game: its checks, and the view
        of its settings and the board's in ``values``."""
        self.game = game
        self.rules = game_rules(game)
        s = self.values
        s.clear()
        for k in BOARD_KEYS:
            s[k] = self.stored.get(k, DEFAULTS[k])
        s["game"] = name
        self.unusable_game = []
        s.update(self.game_settings(name, self.rules, self.unusable_game))

    def game_settings(self, name, rules=None, unusable=None):
        """Game ``name``'s own settings as stored (each checked; its default where not):
        what its next new game uses. ``rules``: its ``game_rules`` when known; ``unusable``:
        a list that gets what fell back to its default, and why (the default is then the
        stored value)."""
        choices, ranges, defaults = rules or game_rules(games.load(name))
        s = {}
        unprefixed = games.saved_before_the_games(name)
        for k in defaults:
            v = self.stored.get(name + "." + k)
            if v is None and unprefixed:
                v = self.stored.get(k)  # saved before the games: "variant xobo"
            try:
                s[k] = check_value(k, v, choices, ranges, ()) if v is not None else defaults[k]
            except ValueError as exc:
                s[k] = defaults[k]
                if unusable is not None:  # stored as its default: saved with the next set
                    unusable.append(_fallen_back(k, exc, defaults[k]))
                    self.stored[name + "." + k] = defaults[k]
        return s

    def unusable(self):
        """What the settings read from flash could not use, and the defaults used instead
        ('' when every setting was used), once: a boot's or a game switch's note says it."""
        out = "; ".join(self.unusable_board + self.unusable_game)
        self.unusable_board = []
        self.unusable_game = []
        return out

    def put(self, key, v):
        """Setting ``key`` is ``v`` (checked) in the view and in ``stored`` (not saved)."""
        self.values[key] = v
        if key in BOARD_KEYS:
            self.stored[key] = v
        else:
            self.stored[self.values["game"] + "." + key] = v

    def keys(self):
        """Every setting of the board and of the current game, in the order they are listed."""
        # (in the game's NEW_GAME_SETTINGS order: a dict's order is not MicroPython's)
        game = self.game
        own = tuple(game.NEW_GAME_SETTINGS) + tuple(
            k for k in sorted(game.SETTINGS) if k not in game.NEW_GAME_SETTINGS)
        return ("game",) + own + BOARD_KEYS[1:] + GAME_AI_KEYS

    def ranges(self):
        """{key: (lo, hi)} of the whole-number settings (the board's and the game's)."""
        r = dict(RANGES)
        r.update(self.rules[1])
        return r

    def check(self, key, value):
        """The setting's value (str or int) or raise ValueError saying what is wrong."""
        if key == "game":
            v = str(value).lower()
            ok = games.available()
            if v not in ok:
                raise ValueError("game must be one of %s, not '%s'" % ("|".join(ok), value))
            return v
        if key in BOARD_KEYS:
            return check_value(key, value, CHOICES, RANGES, self.keys())
        return self.check_game(key, value)

    def check_game(self, key, value):
        """A setting of the current game (or its computer's) checked: its value or
        ValueError."""
        choices, ranges, _defaults = self.rules
        return check_value(key, value, choices, ranges, self.keys())

    def save(self):
        """Save every setting on flash (nothing without a store); OSError or ValueError when
        they could not be saved."""
        if self.store is not None:
            self.store.save(self.stored)
