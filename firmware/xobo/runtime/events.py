"""The board's events: typed tuples that the serial protocol and the simulator format.

The session emits ``(KIND, field, ...)`` tuples; nobody parses event text back. The serial
protocol writes them as ``event KIND FIELD ...`` lines (``format_event``); the simulator reads
the fields. The kinds and their fields:

=============  ==========================================================================
``boot``       note (``new game``, ``resumed game: 12 moves``, what was refused)
``switch``     cell name, ``on`` / ``off``
``button``     button name, ``short`` / ``long`` / ``both``
``move``       move text, annotation (``(v)`` or ``""``)
``voina``      the attacker's name, ``threatens``, the cells (XoBo's own event)
``result``     the winner's name (``draw``), how (the game's words)
``undo``       the move taken back
``new``        game name, its parameters, the first player's name
``load``       the position
``game``       the game now played (``set game``, the game gesture), its title
``expect``     ``host`` / ``computer``, the move
``cancel``     ``host`` / ``computer``, the move
``hint``       the move
``setting``    key, value
``fix``        ``fix`` / ``restore``, then ``fill`` CELLS, ``clear`` CELLS, ``height`` CELLS
``match``      (no field: the cubes match the position again)
``say``        words for the player (what the board waits for)
``error``      what went wrong, in words
``selftest``   the self-test's report line
``learn``      the game, the lesson (``2/7``, ``done``), its title; ``off`` when learning ends
``power-cut``  (the virtual board only)
=============  ==========================================================================

Usage::

    >>> from xobo.runtime.events import format_event
    >>> from xobo.runtime.virtual_board import VirtualBoard
    >>> vb = VirtualBoard()
    >>> vb.app.subscribe(lambda ev: print(format_event(ev)))   # 'event move e5 (v)'
    >>> vb.put("e5"); vb.advance(1500)
    event switch e5 on
    event move e5
"""

BOOT = "boot"
SWITCH = "switch"
BUTTON = "button"
MOVE = "move"
VOINA = "voina"
RESULT = "result"
UNDO = "undo"
NEW = "new"
LOAD = "load"
GAME = "game"
EXPECT = "expect"
CANCEL = "cancel"
HINT = "hint"
SETTING = "setting"
FIX = "fix"
MATCH = "match"
SAY = "say"
ERROR = "error"
SELFTEST = "selftest"
POWER_CUT = "power-cut"


def format_event(ev):
    """The serial line of event ``ev``: 'event move e5 (v)' (empty fields are left out)."""
    out = "event " + ev[0]
    for k in range(1, len(ev)):
        f = ev[k]
        if f == "" or f is None:
            continue
        out += " " + (f if isinstance(f, str) else str(f))
    return out
