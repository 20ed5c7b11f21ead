"""The serial ``help`` text (docs/protocol.md), imported when a host asks for it: it is not
kept in the Pico's RAM for the rest of the session. Each line is ``NAME~TEXT``, NAME
padded to 26 characters when written (``lines``: the padding is not kept on the flash)."""

HELP = (
    "help~this list",
    "version~firmware version",
    "id~the board's own id (a cafe host knows the table by it)",
    "#ID COMMAND~any command, its reply lines prefixed with #ID",
    "position~the position (the game's notation: its rules page)",
    "record~the game record (the game's format), closed by 'ok end'",
    "settings~every setting, closed by 'ok end'",
    "set KEY VALUE~game xobo|x|..., brightness 0-100, settle MS, hints on|off,",
    "~the game's own (XoBo: variant xobo|kv, first ns|ew),",
    "~opponent off|PLAYER, level (the game's levels)",
    "games~the games this board can play, closed by 'ok end'",
    "new~a new game (the board shows the pieces to clear)",
    "undo~take back the last move (and cancel a waiting move)",
    "move NOTATION~a remote/host move: shown in light, the cubes commit it",
    "resign PLAYER WINNER|none~PLAYER resigned: over",
    "load POSITION~start from a position (the board shows the cells to fix)",
    "follow on|off~live events: switches, moves, undo, Voïna, results",
    "hint~the AI's suggested move, shown in light",
    "press BUTTON~the game's button (Brochs: master, pass, submission, accept,",
    "~refuse, resign)",
    "state~what the board sees and asks: inference state, cells to fix,",
    "~then 'say' and what it waits for in words",
    "boot~what the last power-up did: normal|fallback, then its note",
    "leds~the colours lit now: every cell from a1, then the edges",
    "mem~heap: free and allocated bytes (after a collection)",
    "timing~cycle times since the last 'timing' (us): scan, light, LED write",
    "selftest~start the LED and switch self-test",
    "learn [GAME|next|off]~the game's lessons on the board (next: skip one, off: leave)",
)


def lines():
    """The ``help`` reply's lines."""
    out = []
    for h in HELP:
        out.append("ok %-26s%s" % tuple(h.split("~")))
    return out
