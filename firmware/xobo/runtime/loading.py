"""Loading a game: the saved game at power-up, another game (``set game``, the game gesture).

Not needed while a game is played: on the device (``App.lean``) the app imports this module
when it loads a game and unloads it after, to keep the heap for the computer's search.

Usage (the app's)::

    from xobo.runtime import loading
    resumed = loading.resume_saved(app)      # at boot: True when the saved game was resumed
    loading.set_game(app, "x", now)           # another game: its saved game, or a new one
"""

from xobo import games
from xobo.compat import collect
from xobo.errors import XoboError
from xobo.runtime import events as E


def resume_saved(app):
    """Resume the current game's saved game (or start a new one); True if resumed."""
    app.saved = app._saved_game()
    resumed = False
    note = app.note
    if app.saved is not None:
        try:
            saves = app.saved.load_all()
        except (OSError, ValueError) as exc:
            saves = ()
            note = "saved game not read: %s" % exc
        except MemoryError:  # (the storage bounds a save before reading it: a last resort)
            saves = ()
            note = "saved game not read: too large for the free memory"
        refused = []
        for g in saves:  # newest first: a save that makes no game falls back to the other
            try:
                why = resume(app, g)
            except MemoryError:
                collect()
                why = "does not fit the free memory"
            if not why:
                resumed = True
                note = app.note
                if g is saves[0] and app.saved.damaged:  # say what the storage found
                    note = "%s (%s)" % (note, app.saved.damaged)
                break
            refused.append("%s (seq %d) %s" % (g["slot"], g["seq"], why))
        saves = None
        if refused:
            note = "saved game not resumed: %s; %s" % (
                "; ".join(refused), app.note if resumed else "new game")
    app.note = note
    if not resumed:
        app._set_position(app.game.new_position(app.settings))
        app.first = app.pos.side
        app.start = ""
    return resumed

def resume(app, g):
    """Resume the saved game ``g`` (a dict from ``SavedGame.load_all``): '' when it was
    resumed, else what is wrong with it (the position is then unchanged). Every field
    is checked: a checksum only proves the bytes are the ones written."""
    name = app.settings["game"]
    if g.get("game") != name:
        return "is a game of %r, not %s" % (g.get("game"), name)
    params = g.get("params")
    if not isinstance(params, dict):
        return "has no game parameters"
    settings = dict(app.settings)
    for k in params:
        if k not in app.game.SETTINGS:
            return "has an unknown parameter %r" % (k,)
        try:
            settings[k] = app._check_game(k, params[k])
        except ValueError as exc:
            return "has a parameter that is not valid: %s" % exc
    first = g.get("first")
    if not isinstance(first, int) or first < 0 or first >= app.game.PLAYERS:
        from xobo.runtime.guide import join_or  # (a refused save only)

        return "has first %r: it must be %s" % (first, join_or(
            ["%d (%s)" % (k, app.names[k]) for k in range(len(app.names))]))
    start = g.get("start") or ""
    moves = g.get("moves")
    if not isinstance(start, str) or moves is None or isinstance(moves, str):
        return "has no start position or no move list"
    limit = app.rules.MAX_PLIES
    if len(moves) > limit:
        return "has %d moves, more than the longest game this board keeps (%d)" % (
            len(moves), limit)
    try:
        if start:
            pos = app.game.parse_position(start, settings)
        else:
            settings["first"] = app.names[first]
            pos = app.game.new_position(settings)
        reserve = getattr(pos, "reserve", None)
        if reserve is not None:  # the history's room first, then the replay's garbage
            reserve(len(moves))
        k = 0
        for text in moves:
            k += 1
            try:
                pos.apply(pos.parse_move(text))
            except (XoboError, ValueError) as exc:
                return "move %d '%s' is not legal there: %s" % (k, text, exc)
    except (XoboError, ValueError, KeyError, TypeError, IndexError) as exc:
        return "start position not valid: %s" % exc
    # (the saved game's parameters are its position's: the settings stay for the next one)
    app._set_position(pos)
    app.first = first
    if start:
        first_pos = pos.clone()
        while first_pos.ply:
            first_pos.undo()
        app.first = first_pos.side
    app.start = start
    app.note = "resumed game: %d moves" % pos.ply
    return ""



def set_game(app, name, now):
    """Play game ``name`` from now on: its saved game is resumed (each game keeps its
    own), else a new game starts; the board shows what to clear or fill."""
    name = app.check_setting("game", name)
    game = games.load(name)
    try:  # all of it, before the current game is left: a board built without a part of it
        game.engine()  # keeps playing the current one
        game.board_layer()
    except ImportError as exc:
        raise XoboError("%s is not installed completely on this board (%s)" % (name, exc)) \
            from None
    app.cancel_pending(now)
    app._store("game", name)
    app.stored["game"] = name
    app.pos = None
    app.light = None
    app.layers = None
    collect()
    app._set_game(name)
    app.inf.set_settle(app.settings["settle"])
    app.note = ""
    app.resumed = resume_saved(app)
    app.ai_failed_ply = -1
    app.force_show = True
    app.set_regauge(None, None)
    app._observe(now)
    app._position_changed(now, restore=True)
    app.last_state = -1
    app.light.show_game(now)
    app.save_settings()
    app.emit((E.GAME, name, app.game.TITLE))
    app.emit((E.SETTING, "game", name))
    if app.settings["opponent"] != "off":
        app.load_ai()
    return app.note

def next_game(app, now):
    """The game gesture: the next installed game after the current one."""
    ok = games.available()
    cur = app.settings["game"]
    k = ok.index(cur) if cur in ok else -1
    return set_game(app, ok[(k + 1) % len(ok)], now)

