"""Loading a game: the saved game at power-up, another game (``set game``, the game gesture).

Not needed while a game is played: on the device (``App.lean``) the app imports this module
when it loads a game and unloads it after, to keep the heap for the computer's search.

Usage (the app's)::

    >>> from xobo.runtime import loading
    >>> from xobo.runtime.virtual_board import VirtualBoard
    >>> app = VirtualBoard().app      # App.__init__: loading.storage_init(app), the settings on
    >>> now = app.d.clock.ticks_ms()  # flash, then loading.boot(app, now), the power-up
    >>> parts = loading.GameParts(app)            # a load's parts: the app's game until changed
    >>> loading.resume_saved(app, parts)          # the saved game (or a new one), installed
    >>> parts.resumed, app.pos is parts.pos       # (resumed: a game in progress was)
    (False, True)
    >>> loading.set_game(app, "x", now)           # another game: its saved game, or a new one
    ''
    >>> text = app.pos.to_string()
    >>> loading.load_position(app, text, now)     # a game from a position (serial `load`)
    >>> app.pos.to_string() == text
    True

A load makes the game's parts and the game in progress (a ``GameParts``), and the app installs
them (``App.install_game``): no field of the app is assigned here.

A game is switched completely or not at all: a game that does not fit the board's grid is
refused before anything changes (``misfit``), and any failure while switching (an import, out
of memory, anything) puts the game that was playing back as it was (``_restore``).
"""

import sys

from xobo import games
from xobo.compat import (
    IS_MICROPYTHON,
    NATIVE_CODE_UNLOADS,
    collect,
    forget_module,
    is_frozen,
    mem_free,
)
from xobo.errors import XoboError, is_power_cut
from xobo.games import part
from xobo.runtime import events as E


class GameParts:
    """What a load makes for the app to install (``App.install_game``), one per load: the game's
    parts on this board when it makes them (``game_parts``), and the game in progress with
    its save and what the load says of it, as the app has them until the load changes them."""

    def __init__(self, app):
        # the game's parts (None: the app keeps its own): its package (xobo.games), engine,
        # width and cells, the inference over its cells, its light layers and the light
        self.game = None
        self.rules = None
        self.width = 0
        self.n = 0
        self.inf = None
        self.layers = None
        self.light = None
        # the game in progress (``take``)
        self.pos = app.pos
        self.params = app.params
        self.first = app.first
        self.start = app.start
        self.resigned = app.resigned
        self.gameid = app.gameid  # its own id (xobo.runtime.gameid)
        self.saved = app.saved  # its save slots (storage.SavedGame), None: not saved
        self.resumed = app.resumed  # resumed at power-up: a long press on undo abandons it
        self.note = app.note  # what the load says (``event boot``)
        self.fallback = app.fallback  # the load fell back (the note says why)
        self.due = 0  # the writes put off until the first light (``App.save_due``)
        self.restart = False  # the board restarts to load the game (``switches_by_restart``)

    def take(self, pos, params, first, start, resigned, gameid):
        """The game in progress is ``pos``: its parameters (its save's header), its first
        player, its start position's notation ('' for the start), its resignation (None
        when there is none) and its id."""
        self.pos = pos
        self.params = params
        self.first = first
        self.start = start
        self.resigned = resigned
        self.gameid = gameid



def saved_game(app):
    """The A/B save slots of the current game (XoBo's keep their old name, 'game'), or None
    when the board has no storage."""
    try:
        from xobo.runtime.storage import SavedGame, save_limit
    except ImportError:  # storage not built yet: play without saving
        return None
    rules = app.rules
    return SavedGame(app.d.flash, games.save_file(app.settings["game"]),
                     save_limit(rules.MAX_PLIES, rules.SAVED_MOVE_CHARS))


def storage_init(app):
    """The settings on flash into ``app.stored`` (the board's checked now, a game's when that
    game is played). A setting that is not valid is left out, and settings that cannot be
    read leave a note: the boot goes on."""
    try:
        from xobo.runtime.storage import Settings
    except ImportError:  # storage not built yet: play without saving
        return

    config = app.config
    config.store = Settings(app.d.flash)
    try:
        loaded = config.store.load({})
    except (OSError, ValueError) as exc:
        parts = GameParts(app)
        parts.note = "settings not loaded: %s" % exc
        parts.fallback = True
        app.install_game(parts)
        return
    config.load_board(loaded)


def boot(app, now):
    """Power-up (``App.__init__``): the saved game resumed (cells that differ shown), self-test if
    both buttons are held."""
    d = app.d
    app.inf.set_settle(app.settings["settle"])
    app.apply_brightness()
    d.matrix.scan_into(app.raw)
    d.debouncer.prime(app.raw)
    parts = GameParts(app)
    tell_unusable_settings(app, parts)
    resume_saved(app, parts)
    app.observe(now)
    app.position_changed(now, restore=True)
    app.told(app.note, app.fallback)
    app.emit((E.BOOT, app.boot_note))
    both = False
    b = d.buttons
    if "ok" in b.names and "undo" in b.names:
        b.update(now)
        b.update(now + b.stable_ms + 1)
        both = b.held("ok") and b.held("undo")
    if both:
        app.start_selftest(now)


def tell_unusable_settings(app, parts):
    """The saved settings that could not be used (each fell back to its default) in the
    load's note, after what was said before (the settings' game not playable...)."""
    unusable = app.config.unusable()
    if unusable:
        parts.note = parts.note + "; " + unusable if parts.note else unusable
        parts.fallback = True


def resume_saved(app, parts, later=False):
    """The current game's saved game resumed into ``parts`` (or a new one started, saved at
    once, or with ``later`` after the next render: ``App.save_due``), and the app installs
    it; ``parts.resumed`` says whether a game in progress was resumed."""
    parts.saved = saved_game(app)
    resumed = False
    note = earlier = parts.note  # (a note from before, the game's at boot: kept in front)
    if parts.saved is not None and app.resume_at_boot:
        resumed, note = _resume_newest(app, parts, note)
    parts.note = earlier + "; " + note if earlier and note != earlier else note
    named = resumed and not parts.gameid
    if named:  # a save from before game ids: its new id, kept at once
        from xobo.runtime.gameid import draw

        parts.gameid = draw(app.d)
        if later:  # (App.save_due)
            parts.due |= 2
    if not resumed:
        w, h = app.game.area(app.settings)
        if w * h != app.n:  # a size given after the game was made (the simulator's settings)
            resize_game(app)
        pos = app.game.new_position(app.settings)
        # its parameters on flash: a setting changed now is for the next one
        from xobo.runtime.gameid import draw

        parts.take(pos, app.start_params(), pos.side, "", None, draw(app.d))
        if later:  # (App.save_due)
            parts.due |= 2
    # (a saved game with no move from the start is a new game: the game gesture changes it)
    parts.resumed = resumed and (parts.pos.ply > 0 or parts.start != "")
    app.install_game(parts)
    if (named or not resumed) and not later:
        app.save_game()


def _resume_newest(app, parts, note):
    """The newest of the game's saves that makes a game, resumed into ``parts`` (the older
    when the newest does not): (True, the note) when one was, else (False, the note saying
    why none was; ``note`` when there was none)."""
    saved = parts.saved
    try:
        saves = saved.load_all()
    except (OSError, ValueError) as exc:
        saves = ()
        note = "saved game not read: %s" % exc
        parts.fallback = True
    except MemoryError:  # (the storage bounds a save before reading it: a last resort)
        saves = ()
        note = "saved game not read: too large for the free memory"
        parts.fallback = True
    # the slots that are there and could not be used (damaged, unreadable, a directory
    # in a slot's place, a sequence number no board writes): said whatever follows
    problems = saved.problems
    refused = [problems] if problems and not saves else []
    resumed = False
    newest = True
    while saves:  # newest first: a save that makes no game falls back to the other
        g = saves[0]
        # the older save's bytes (both slots are kept once a game has two saves) go
        # while the newest is replayed; read again if it is needed
        others = [s["slot"] for s in saves[1:]]
        saves = None
        try:
            why = resume(app, g, parts)
        except MemoryError:
            collect()
            why = "does not fit the free memory"
        if not why:
            resumed = True
            note = parts.note
            if newest and saved.damaged:  # say what the storage found
                note = "%s (%s)" % (note, saved.damaged)
                parts.fallback = True
            break
        if not refused and problems:  # (the slot the storage could not use first)
            refused.append(problems)
        refused.append("%s (seq %d) %s" % (g["slot"], g["seq"], why))
        g = None
        newest = False
        if others:
            collect()
            try:
                saves = [s for s in saved.load_all() if s["slot"] in others]
            except (OSError, ValueError, MemoryError) as exc:  # (as the first reading)
                refused.append("%s not read again: %s" % (", ".join(others), exc))
    if refused:
        note = "saved game not resumed: %s; %s" % (
            "; ".join(refused), parts.note if resumed else "new game")
        parts.fallback = True
    return resumed, note


def resume(app, g, parts):
    """Resume the saved game ``g`` (a dict from ``SavedGame.load_all``) into ``parts``: ''
    when it was resumed, else what is wrong with it (``parts`` are then unchanged). Every field
    is checked: a checksum only proves the bytes are the ones written."""
    name = app.settings["game"]
    if g.get("game") is None and games.saved_before_the_games(name):
        g["game"] = name  # a save from before the games, in that game's file
    if g.get("game") is None:
        return "names no game (no game line)"
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
            settings[k] = app.config.check_game(k, params[k])
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
    pos, why = _replayed(app, settings, first, start, moves)
    if why:
        return why
    # the saved game's parameters are its own (the settings are for the next new game): at
    # another size than the settings' the game's buffers are made at its size
    w, h = app.game.area(settings)
    if w > app.topo.width or h > app.topo.height:
        return "is a %dx%d game: it does not fit this board" % (w, h)
    r = g.get("resigned")  # "PLAYER WINNER|none" of a resignation
    if r is not None:
        try:
            r = app.resign_words(r)
        except ValueError as exc:
            return "resigned: %s" % exc
    kept = {}
    for k in app.game.SETTINGS:
        if k != "first":
            kept[k] = settings[k]
    if w * h != app.n:
        resize_game(app, kept)
    if start:
        first_pos = pos.clone()
        while first_pos.ply:
            first_pos.undo()
        first = first_pos.side
    parts.take(pos, kept, first, start, r, g.get("gameid") or "")
    parts.note = "resumed game: %d moves" % pos.ply
    saved = len(moves)
    limit = app.rules.MAX_PLIES
    if saved > limit:  # a save from a board that kept more: the longest game kept, said so
        parts.note += " (its save has %d moves, more than the longest game this board " \
            "keeps: the last %d are not kept)" % (saved, saved - limit)
        parts.fallback = True
    return ""


def _replayed(app, settings, first, start, moves):
    """The saved game's position: from its start (``start``, '' for the game's own with
    player ``first`` first) with ``settings``, its ``moves`` played (as many as the longest
    game this board keeps: the first ones). (position, '') or (None, what is wrong)."""
    limit = app.rules.MAX_PLIES
    try:
        if start:
            pos = app.game.parse_position(start, settings)
        else:
            settings["first"] = app.names[first]
            pos = app.game.new_position(settings)
        reserve = getattr(pos, "reserve", None)
        if reserve is not None and moves:  # the history's room first, then the replay's garbage
            collect()  # (what reading the save left goes first: a long game's pages need it)
            reserve(min(len(moves), limit))
        k = 0
        for text in moves:
            if k == limit:
                break
            k += 1
            try:
                pos.apply(pos.parse_move(text))
            except (XoboError, ValueError) as exc:
                return None, "move %d '%s' is not legal there: %s" % (k, text, exc)
    except (XoboError, ValueError, KeyError, TypeError, IndexError) as exc:
        return None, "start position not valid: %s" % exc
    return pos, ""


def misfit(app, name):
    """Why game ``name`` cannot be played on this board's grid, with the settings of its next
    new game ('' when it fits): 'brochs needs a 15x15 board; this board is 9x9'."""
    w, h = games.load(name).area(app.config.game_settings(name))
    t = app.topo
    if w > t.width or h > t.height:
        return "%s needs a %dx%d board; this board is %dx%d" % (name, w, h, t.width, t.height)
    return ""


def playable(app):
    """The installed games that fit this board, in the gesture's order."""
    out = []
    for name in games.available():
        if not misfit(app, name):
            out.append(name)
    return out


def start_game(app, name, inference=None, settings=None):
    """At power-up: the settings' game, or the default game (``games.DEFAULT``) with
    ``app.note`` saying why not (the game does not fit this board, is not installed
    completely, is no game): whatever the flash says, the board boots. The settings then name
    the default game (saved with the next setting). Then
    ``settings`` given by the caller (the simulator, tests: ValueError for a bad one), saved
    like a ``set``."""
    _stored_game(app, name, inference)
    if not settings:
        return
    changed = False
    if "game" in settings and settings["game"] != app.settings["game"]:
        name = app.config.check("game", settings["game"])
        why = misfit(app, name)
        if why:
            raise ValueError(why)
        make_game(app, name, None)
        app.stored["game"] = app.settings["game"]
        changed = True
    for k in settings:
        v = app.config.check(k, settings[k])
        if app.settings.get(k) != v:
            app.config.put(k, v)
            changed = True
    if changed:
        app.save_settings()


def _stored_game(app, name, inference):
    try:
        why = misfit(app, name)
        if not why:
            make_game(app, name, inference)
            return
    except Exception as exc:  # (MemoryError, ImportError, ValueError...): never a boot loop
        if is_power_cut(exc) or name == games.DEFAULT:
            raise
        why = "%s: %s" % (exc.__class__.__name__, exc)
        app.drop_game(everything=True)  # what was made of it goes before the default game's
        collect()
    app.stored["game"] = games.DEFAULT
    parts = game_parts(app, games.DEFAULT, inference)
    parts.note = "game %s not playable on this board (%s): %s" % (name, why, games.DEFAULT)
    parts.fallback = True
    app.install_game(parts)


def switches_by_restart(app):
    """True when a game switch restarts the board rather than switching in place: on a
    stock firmware (the board's code loaded from the flash's .mpy files, so it lives in the
    heap) that can restart itself. Every game's code leaves names and pieces in the heap
    that no collection frees (interned strings): measured on the emulated Pico, a tour of
    three games left 27-58 KB where a fresh boot has 90-110 KB, and a fourth game could not
    be loaded. A restart boots the new game in a clean heap (1.7-2.7 s on the stock
    firmware, emulated); the firmware image (code in flash) switches in place."""
    # (the board's code is in flash when the app's module is frozen into the image)
    return app.d.restart is not None and IS_MICROPYTHON and not is_frozen(
        sys.modules["xobo.runtime.app"])


def set_game(app, name, now):
    """Play game ``name`` from now on: its saved game is resumed (each game keeps its
    own), else a new game starts; the board shows what to clear or fill. A game that does
    not fit the board is refused (ValueError) and nothing changes; any failure on the way
    puts the game that was playing back, whole, and raises XoboError saying why."""
    name = app.config.check("game", name)
    why = misfit(app, name)
    if why:
        raise ValueError(why)
    game = games.load(name)
    try:  # all of it, before the current game is left: a board built without a part of it
        part(game, "engine")  # keeps playing the current one
        part(game, "board")
    except ImportError as exc:
        raise XoboError("%s is not installed completely on this board (%s)" % (name, exc)) \
            from None
    app.cancel_pending(now)
    if app.due:  # the writes the last switch put off (no light since): before it is left
        app.save_due()
    if switches_by_restart(app):
        # the setting first, then a restart into it (once the reply is written): the boot
        # resumes the game's saved game or starts one, and says so (``event boot``); a game
        # that cannot boot there falls back to the default game with a note, as any saved
        # setting does
        app.stored["game"] = name
        app.settings["game"] = name  # (the reply names it; nothing else runs before the restart)
        app.save_settings()
        parts = GameParts(app)
        parts.restart = True
        app.install_game(parts)
        app.emit((E.SETTING, "game", name))
        return "the board restarts to load it"
    # what the game that was playing needs to come back as it was (its position is kept:
    # the rest is made again from it)
    left = app.settings["game"]
    old = GameParts(app)
    try:
        _switch(app, name, now)
    except Exception as exc:
        if is_power_cut(exc):
            raise
        _restore(app, left, old, now)
        raise XoboError("%s could not be played (%s: %s): still playing %s" % (
            name, exc.__class__.__name__, exc, left)) from None
    old = None
    if app.lean and NATIVE_CODE_UNLOADS:
        # the game left goes from the heap: its modules' globals, and (from files) their code;
        # measured with the image on the emulated Pico, every game switched to had left about
        # 5 KB behind. (Not on the unix port, which never frees a module's native code.)
        prefix = games.package_name(left)
        for mod in [m for m in sys.modules if m == prefix or m.startswith(prefix + ".")]:
            forget_module(mod)
        # (freed at the next collection: the search's, a `mem`; one here cost 12 ms of the
        # switch, emulated)
    app.emit((E.GAME, name, app.game.TITLE))
    app.emit((E.SETTING, "game", name))
    if app.settings["opponent"] != "off":
        try:
            app.computer_player().load()
        except MemoryError:  # the computer's turn imports it again
            collect()
    return app.note


def _switch(app, name, now):
    app.stored["game"] = name
    app.drop_game()
    # the game left's buffers go before the new game's are made; with room to spare (the image
    # keeps 165-196 KB free) at the next collection: 12 ms of the switch, emulated
    if mem_free() < 100000:  # (-1 where there is no such heap)
        collect()
    make_game(app, name)
    app.inf.set_settle(app.settings["settle"])
    parts = GameParts(app)
    parts.note = ""
    parts.fallback = False
    parts.due = 1  # the settings after the reply and the new game's first light (save_due)
    tell_unusable_settings(app, parts)
    resume_saved(app, parts, later=True)
    _show(app, now)
    app.light.show_game(now)


def _show(app, now):
    """The game just installed shown: the board shows what to fix until the pieces match."""
    app.set_regauge(None, None)
    app.observe(now)
    app.position_changed(now, restore=True)


def _restore(app, name, old, now):
    """Back to game ``name`` that was playing, ``old`` (its game in progress, its save and
    its note): its settings, buffers, light and position as they were. Tried twice (a first
    failure may be the memory the new game held)."""
    for attempt in (0, 1):
        app.drop_game()
        collect()
        app.stored["game"] = name
        try:
            make_game(app, name, None, old.params)
            app.inf.set_settle(app.settings["settle"])
            app.install_game(old)
            break
        except MemoryError:
            if attempt:
                raise
    _show(app, now)
    app.save_settings()  # (the settings on flash name it again if they were written)


def next_game(app, now):
    """The game gesture: the next of the installed games that fit this board."""
    ok = playable(app)
    cur = app.settings["game"]
    k = ok.index(cur) if cur in ok else -1
    return set_game(app, ok[(k + 1) % len(ok)], now)


def make_game(app, name, inference=None, params=None):
    """Make ``name`` the game (``game_parts``) and the app plays it (``App.install_game``). The
    position comes after."""
    app.install_game(game_parts(app, name, inference, params))


def game_parts(app, name, inference=None, params=None):
    """The parts of game ``name`` on this board (a ``GameParts``, for ``App.install_game``), with
    the settings' view made for it; the inference's buffers are reused when they fit
    (``inference``: the caller's, else the app's), else the app's go before new ones are
    made. ``params`` are the game's parameters when they are not the settings' (a saved
    game's)."""
    from xobo.runtime.inference import Inference
    from xobo.runtime.light import Light

    game = games.load(name)
    rules = part(game, "engine")
    app.config.use_game(name, game)
    s = app.settings
    if params:
        s = dict(s)
        s.update(params)
    w, h = game.area(s)
    n = w * h
    inf = inference if inference is not None else app.inf
    if inf is None or not inf.fits(n, rules.FOOTPRINT_MAX, rules.MAX_MOVES):
        app.drop_game(everything=True)  # the old buffers go before the new ones are made
        collect()
        inf = Inference(n, rules.FOOTPRINT_MAX, rules.MAX_MOVES, app.settings["settle"])
    inf.use(n)
    parts = GameParts(app)
    parts.game = game
    parts.rules = rules
    parts.width = w
    parts.n = n
    parts.inf = inf
    # (the layers name cells with the app's cell_name: at the width install_game gives it)
    layers = parts.layers = part(game, "board").Layers(n, game, app.topo.edges, app.cell_name)
    parts.light = Light(inf, layers, n, app.topo.edges)
    return parts


def resize_game(app, params=None):
    """A setting of the game's size (X's size, Chain Reaction's field) takes effect at
    this new game (or a saved game has another size, ``params``): the game's per-cell
    buffers (inference, layers, light) are made again at the new size, as ``set game``
    makes them."""
    pos = app.pos
    app.drop_game()
    collect()
    try:
        make_game(app, app.settings["game"], None, params)
    except MemoryError:
        # the game in progress made again at its own size, whole, before the error goes on
        # (its buffers were dropped for the new ones: a board left half made would fail at
        # every cycle after)
        app.drop_game(everything=True)
        collect()
        make_game(app, app.settings["game"], None, app.params)
        app.inf.set_settle(app.settings["settle"])
        if pos is not None:  # (at boot there is none yet)
            app.set_position(pos)
        raise
    app.inf.set_settle(app.settings["settle"])


def load_position(app, text, now):
    """Start a game from a position in the game's notation (raises PositionError); the
    board shows the cells to fix until the pieces match."""
    pos = app.game.parse_position(text, app.settings)
    app.changing()
    show_position(app, pos, now)
    parts = GameParts(app)
    from xobo.runtime.gameid import draw

    parts.take(pos, app.start_params(), pos.side, pos.to_string(), None, draw(app.d))
    app.install_game(parts)
    app.save_game()
    app.emit((E.LOAD, app.start))


def show_position(app, pos, now):
    """Make ``pos`` the position (a load, a lesson): the board shows the cells to fill, clear
    and adjust until the pieces match. Nothing is saved or announced."""
    old = app.pos
    if pos.n_cells != app.n:  # a game of the settings' size, not the one in progress's
        resize_game(app)
    elif pos.n_cells == old.n_cells:
        app.light.show_adjust(old.heights, pos.heights, now)
        app.set_regauge(old.heights, pos.heights)
    app.set_position(pos)
    app.observe(now)
    app.position_changed(now, restore=True)
