"""Button gestures: which action a button's short press, long press or the two-button hold
starts. The board definition may name its own (``"gestures": {"ok long": "next", ...}``);
these are the defaults, for a board with ``ok``, ``undo`` and ``hint``.

The buttons' driver (``xobo.drivers.buttons``) reports ``(kind, name)`` and knows nothing of
what a press means; the app looks the gesture up here and runs ``App.do_<action>``.

Usage::

    >>> from xobo.drivers.boarddef import load
    >>> from xobo.runtime.gestures import gesture_of
    >>> boarddef = load("boards/pico_gpio.json")
    >>> gestures = gesture_of(boarddef)       # {("ok", 1): "confirm", ...}
    >>> gestures.get(("ok", 1))
    'confirm'
    >>> gestures.get(("undo", 2))             # a long press on undo
    'undo-or-abandon'
"""

SHORT = 1
LONG = 2
BOTH = 3
KINDS = {"short": SHORT, "long": LONG, "both": BOTH}

# the actions (App.do_<action>; docs/firmware.md says what each does): confirm (play the
# complete move now, or say what the board waits for), next (after the end the next game, at
# the start of a game the next of the games, else a pass or confirm), undo, undo-or-abandon
# (right after power-up: abandon the resumed game; at the start of a game, no move yet: the
# game's lessons), hint, opponent (cycle the computer), new-game, learn (the game's lessons)
ACTIONS = ("confirm", "next", "undo", "undo-or-abandon", "hint", "opponent", "new-game",
           "learn")
# besides these, "press:NAME" presses the game's button NAME (Brochs: press:master, press:pass)

DEFAULT_GESTURES = {
    "ok short": "confirm",
    "ok long": "next",
    "undo short": "undo",
    "undo long": "undo-or-abandon",
    "hint short": "hint",
    "hint long": "opponent",
    "both both": "new-game",  # ok and undo held together (the driver names it "both")
}


def parse_gestures(spec, buttons):
    """{(name, kind): action} from ``{"ok long": "next"}``; ValueError saying what is wrong.
    Gestures of buttons the board does not have are left out."""
    out = {}
    for key in spec:
        words = key.split()
        action = spec[key]
        if len(words) != 2 or words[1] not in KINDS:
            raise ValueError("gesture '%s' should be 'BUTTON short|long' or 'both both'" % key)
        if action.startswith("press:") and len(action) > 6:
            pass  # the game's button (App.press): the game says whether it has it
        elif action not in ACTIONS:
            raise ValueError("gesture '%s': unknown action '%s' (actions: %s)" % (
                key, action, ", ".join(ACTIONS)))
        if words[0] != "both" and words[0] not in buttons:
            continue
        out[(words[0], KINDS[words[1]])] = action
    return out


def gesture_of(bd):
    """The gestures of board definition ``bd`` (its own, else the defaults)."""
    spec = getattr(bd, "gestures", None) or DEFAULT_GESTURES
    buttons = getattr(bd, "buttons", None) or {"ok": 0, "undo": 0, "hint": 0}
    return parse_gestures(spec, buttons)
