"""The board's settings: checking a value, changing a setting (and what it changes), the
view of the board's and the current game's settings, the hint button's opponent cycle.

Read and changed now and then, not in play: on the device (``App.lean``) the app imports this
module when it needs it and unloads it after, to keep the heap for the computer's search.
The constants (the board's keys, defaults, choices and ranges) are the app's.

Usage (the app's)::

    from xobo.runtime import settings
    settings.set_setting(app, "settle", 800, now)   # -> '' or a note
"""

from xobo import games
from xobo.numbers import parse_uint
from xobo.runtime import events as E


def _to_int(value):
    """An int setting's value: an int, or ASCII digits (a saved or typed '+800', '８00' or
    '1_000' is refused, as the protocol refuses them); None otherwise."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        v = parse_uint(value)
        return v if v >= 0 else None
    return None


def check(key, value, choices, ranges, keys):
    if key in choices:
        v = str(value).lower()
        if v not in choices[key]:
            raise ValueError("%s must be one of %s, not '%s'" % (key, "|".join(choices[key]),
                                                                  value))
        return v
    if key in ranges:
        lo, hi = ranges[key]
        v = _to_int(value)
        if v is None:
            raise ValueError("%s must be a whole number %d-%d, not '%s'" % (key, lo, hi, value))
        if v < lo or v > hi:
            raise ValueError("%s must be %d-%d, not %d" % (key, lo, hi, v))
        return v
    raise ValueError("unknown setting '%s' (settings: %s)" % (key, ", ".join(keys)))


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


def view(app, name):
    """``settings``: the board's settings and game ``name``'s (its keys without the
    game's prefix), from ``stored``."""
    s = {}
    for k in app.BOARD_KEYS:
        s[k] = app.stored.get(k, app.DEFAULTS[k])
    s["game"] = name
    for k in app.game_defaults:
        v = app.stored.get(name + "." + k)
        if v is None and name == "xobo":
            v = app.stored.get(k)  # saved before the games: "variant xobo"
        try:
            s[k] = check_game(app, k, v) if v is not None else app.game_defaults[k]
        except ValueError:
            s[k] = app.game_defaults[k]
    app.settings = s


def setting_ranges(app):
    """{key: (lo, hi)} of the whole-number settings (the board's and the game's)."""
    r = dict(app.RANGES)
    r.update(app.ranges)
    return r


def check_setting(app, key, value):
    """The setting's value (str or int) or raise ValueError saying what is wrong."""
    if key == "game":
        v = str(value).lower()
        ok = games.available()
        if v not in ok:
            raise ValueError("game must be one of %s, not '%s'" % ("|".join(ok), value))
        return v
    if key in app.BOARD_KEYS:
        return check(key, value, app.CHOICES, app.RANGES, app.setting_keys())
    return check_game(app, key, value)

def check_game(app, key, value):
    return check(key, value, app.choices, app.ranges, app.setting_keys())


def cycle_opponent(app, now):
    """The hint button's long press: the computer opponent goes off -> the players not to
    move (you keep the player to move) -> the player to move (it moves now) -> off. Saved
    and announced like a serial ``set opponent``; the computer's edges double-flash in
    its colour (every edge dim white: off). Returns the new value."""
    cur = app.settings["opponent"]
    side = app.pos.side
    mover = app.names[side]
    others = "+".join(app.names[p] for p in range(len(app.names)) if p != side)
    if cur == "off":
        v = others
    elif cur == mover:
        v = "off"
    else:
        v = mover
    set_setting(app, "opponent", v, now)
    shown = -1
    if v != "off":
        shown = side if v == mover else (side + 1) % len(app.names)
    app.light.show_opponent(shown, now)
    return v


def set_setting(app, key, value, now=None):
    """Validate, apply, save and announce (``event setting KEY VALUE``); returns a note
    ('' or 'takes effect at the next new game'). A computer move waiting for the pieces
    is cancelled when the computer no longer plays the player to move, or when the level
    changes before any piece of it was moved (the computer then chooses again)."""
    t = app.d.clock.ticks_ms() if now is None else now
    if key == "game":
        v = check_setting(app, key, value)
        if v == app.settings["game"]:
            app.emit((E.SETTING, key, v))
            return ""
        return app.set_game(v, t)
    v = check_setting(app, key, value)
    old = app.settings.get(key)
    app._store(key, v)
    if key == "settle":
        app.inf.set_settle(v)
    elif key == "brightness":
        app._apply_brightness()
    elif key == "hints":
        app.light.hints = v == "on"
    elif key in app.GAME_AI_KEYS:
        app.ai_failed_ply = -1
        if (key == "opponent" and app.pending_from == "computer"
                and not app.computer_plays(app.pos.side)):
            app.cancel_pending(t)
        elif (key == "level" and v != old and app.pending_from == "computer"
              and app.inf.n_lifted == 0 and app.inf.n_added == 0):
            # no piece of it moved yet: the computer chooses again at the new level
            app.cancel_pending(t)
        if key == "opponent" and v != "off":
            app.load_ai()
    app.save_settings()
    app.emit((E.SETTING, key, v))
    if key in app.game.NEW_GAME_SETTINGS:
        if key == "first":
            cur = app.names[app.first]
        else:  # the game's parameter as the position has it (XoBo: pos.variant)
            cur = getattr(app.pos, key, old)
        if cur != v:
            return "takes effect at the next new game"
    return ""


def storage_init(app):
    try:
        from xobo.runtime.storage import SavedGame, Settings
    except ImportError:  # storage not built yet: play without saving
        return
    app.saved_class = SavedGame
    app.store = Settings(app.d.flash)
    try:
        loaded = app.store.load({})
    except (OSError, ValueError) as exc:
        app.note = "settings not loaded: %s" % exc
        return
    for k in loaded:
        if k in app.BOARD_KEYS and k != "game":
            try:
                app.stored[k] = check(k, loaded[k], app.CHOICES, app.RANGES, app.BOARD_KEYS)
            except ValueError:
                pass
        else:
            app.stored[k] = loaded[k]  # a game's: checked when that game is played
