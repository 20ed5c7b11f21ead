"""The board's colours and blink patterns (docs/colours.md is the table for players).

Colours come from the Okabe-Ito palette, which stays distinguishable for the common forms of
colour blindness; every meaning also has its own pattern (steady, pulsing, blinking, fast
blinking, double flash), so no meaning depends on colour alone.

Each light meaning is a small int ``code``; ``RGB[code]`` is its colour (0xRRGGBB) and
``PATTERN[code]`` its pattern. :func:`level` gives a pattern's intensity (0..256) at a time.

Usage::

    from xobo.runtime.colours import PUT, RGB, PATTERN, level
    lv = level(PATTERN[PUT], now_ms)        # 0..256
    r = ((RGB[PUT] >> 16) & 255) * lv >> 8
"""

from xobo.compat import const, micropython, ptr16

# Okabe-Ito
BLACK = const(0x000000)
ORANGE = const(0xE69F00)
SKY_BLUE = const(0x56B4E9)
BLUISH_GREEN = const(0x009E73)
YELLOW = const(0xF0E442)
BLUE = const(0x0072B2)
VERMILLION = const(0xD55E00)
REDDISH_PURPLE = const(0xCC79A7)
WHITE = const(0xFFFFFF)

# patterns
STEADY = const(0)
PULSE = const(1)  # breathing, 1 s period
BLINK = const(2)  # 1 Hz, half on
FAST = const(3)  # 4 Hz, half on
DOUBLE = const(4)  # two short flashes every 1.2 s
DIM = const(5)  # steady, a third of the intensity
PATTERN_NAMES = ("steady", "pulse", "blink 1 Hz", "fast blink 4 Hz", "double flash", "dim")

# light meanings (codes); higher codes are not "more important", see light.py for layering
OFF = const(0)
NS_COLOUR = const(1)  # North-South player: edges, its winning chain
EW_COLOUR = const(2)  # East-West player
PUT = const(3)  # a cube goes here (spread target, remaining cell of a move in progress)
TAKE = const(4)  # take off (captured pair, a cell the move in progress still lifts)
FILL = const(5)  # fix: put a cube back here
CLEAR = const(6)  # fix: take the cube(s) off this cell
VOINA = const(7)  # the attacker's Voina cell(s)
REGROUP = const(8)  # the defender's regroup cells (under Voina)
HINT = const(9)  # the AI's suggested move
CONFIRM = const(10)  # a move was just committed
ADJUST = const(11)  # a stack's height changes (switches cannot see it): add/remove cubes
SOURCE = const(12)  # the lifted stack of a spread in progress
WAITING = const(13)  # a complete move that waits (longer settle time or the ok button)
PENDING_PUT = const(14)  # host/computer move: put a cube here
PENDING_TAKE = const(15)  # host/computer move: take off here
WIN_NS = const(16)  # winning chain / edges of NS
WIN_EW = const(17)
LOSER = const(18)  # the loser's edges (a loss by exhaustion or blocus)
SELF = const(19)  # spare (self-test uses its own rendering)
OPP_NS = const(20)  # the hint button's long press: the computer now plays North-South
OPP_EW = const(21)  # ... East-West
OPP_OFF = const(22)  # ... the computer opponent is switched off
THINKING = const(23)  # edges: the computer is searching its move (the scan goes on)
P3_COLOUR = const(24)  # a third player (three-player games): its edges, its pieces
WIN_P3 = const(25)
OPP_P3 = const(26)
GAME_SHOWN = const(27)  # the game gesture: the new game's area, for 1.2 s
# Brochs (xobo.games.brochs.board): Black's men and White's men are the players' colours
BR_MASTER = const(28)  # Black's master
BR_DONJON = const(29)  # an empty donjon
BR_DONJON_BLACK = const(30)  # a Black man on a donjon
BR_DONJON_WHITE = const(31)  # a White man on a donjon
BR_DONJON_MASTER = const(32)  # the master on a donjon
BR_CROSS = const(33)  # an empty square of the central cross (in no quadrant)
BR_REMOTE = const(34)  # a White piece a remote capture may take: lift it
BR_ASKED = const(35)  # edges: the submission question waits for its answer
N_CODES = const(36)

RGB = (
    BLACK,  # OFF
    BLUE,  # NS_COLOUR
    ORANGE,  # EW_COLOUR
    SKY_BLUE,  # PUT
    VERMILLION,  # TAKE
    SKY_BLUE,  # FILL
    VERMILLION,  # CLEAR
    REDDISH_PURPLE,  # VOINA
    BLUISH_GREEN,  # REGROUP
    YELLOW,  # HINT
    WHITE,  # CONFIRM
    WHITE,  # ADJUST
    SKY_BLUE,  # SOURCE
    WHITE,  # WAITING
    SKY_BLUE,  # PENDING_PUT
    VERMILLION,  # PENDING_TAKE
    BLUE,  # WIN_NS
    ORANGE,  # WIN_EW
    VERMILLION,  # LOSER
    WHITE,  # SELF
    BLUE,  # OPP_NS
    ORANGE,  # OPP_EW
    WHITE,  # OPP_OFF
    YELLOW,  # THINKING (the colour of the computer's suggestions)
    BLUISH_GREEN,  # P3_COLOUR
    BLUISH_GREEN,  # WIN_P3
    BLUISH_GREEN,  # OPP_P3
    WHITE,  # GAME_SHOWN
    REDDISH_PURPLE,  # BR_MASTER
    YELLOW,  # BR_DONJON
    BLUE,  # BR_DONJON_BLACK
    ORANGE,  # BR_DONJON_WHITE
    REDDISH_PURPLE,  # BR_DONJON_MASTER
    VERMILLION,  # BR_CROSS
    ORANGE,  # BR_REMOTE
    WHITE,  # BR_ASKED
)

PATTERN = (
    STEADY,  # OFF
    STEADY,  # NS_COLOUR
    STEADY,  # EW_COLOUR
    STEADY,  # PUT
    BLINK,  # TAKE
    FAST,  # FILL
    FAST,  # CLEAR
    PULSE,  # VOINA
    DIM,  # REGROUP
    DOUBLE,  # HINT
    STEADY,  # CONFIRM
    BLINK,  # ADJUST
    DIM,  # SOURCE
    PULSE,  # WAITING
    DOUBLE,  # PENDING_PUT
    DOUBLE,  # PENDING_TAKE
    PULSE,  # WIN_NS
    PULSE,  # WIN_EW
    PULSE,  # LOSER
    STEADY,  # SELF
    DOUBLE,  # OPP_NS
    DOUBLE,  # OPP_EW
    DIM,  # OPP_OFF
    BLINK,  # THINKING (1 Hz: two LED writes a second, not thirty, while the search runs)
    STEADY,  # P3_COLOUR
    PULSE,  # WIN_P3
    DOUBLE,  # OPP_P3
    DOUBLE,  # GAME_SHOWN
    STEADY,  # BR_MASTER
    DIM,  # BR_DONJON
    DIM,  # BR_DONJON_BLACK
    DIM,  # BR_DONJON_WHITE
    DIM,  # BR_DONJON_MASTER
    DIM,  # BR_CROSS
    BLINK,  # BR_REMOTE
    FAST,  # BR_ASKED
)

MEANINGS = (
    "off",
    "North-South: its edges while it is to move",
    "East-West: its edges while it is to move",
    "put a cube here (spread target / rest of the move in progress)",
    "take off (captured pair / cell the move still empties)",
    "fix: put the cube(s) back here",
    "fix: take the cube(s) off here",
    "Voïna: the attacker's winning cell",
    "under Voïna: cells of the legal regroups",
    "hint: the suggested move",
    "move committed (short flash)",
    "stack height changes: add or remove cubes on this stack",
    "the lifted stack being spread",
    "complete move waiting: press ok or wait (it could still grow)",
    "host/computer move: put a cube here",
    "host/computer move: take off here",
    "North-South won: the winning chain and its edges",
    "East-West won: the winning chain and its edges",
    "the loser's edges (loss by blocus or exhaustion)",
    "self-test",
    "edges: the computer now plays North-South (hint held 1.5 s)",
    "edges: the computer now plays East-West (hint held 1.5 s)",
    "edges: the computer opponent is off (hint held 1.5 s)",
    "edges: the computer is thinking (its side's edges)",
    "a third player: its edges while it is to move",
    "the third player won",
    "edges: the computer now plays the third player",
    "the game gesture (ok held at the start of a game): the new game's cells",
    "Brochs: Black's master",
    "Brochs: an empty donjon",
    "Brochs: a donjon held by a Black man",
    "Brochs: a donjon held by a White man",
    "Brochs: a donjon held by the master",
    "Brochs: the central cross (in no quadrant), where it is empty",
    "Brochs: a White piece the remote capture may take: lift it",
    "Brochs: edges: the submission question waits for its answer (accept or pass!)",
)


# For the native colour pass (xobo.runtime.light): the colours as bytes (R, G, B per code), and
# each code's pattern where the opponent feedback's double flash, timed from the long press,
# is a pattern of its own (OPP_DOUBLE).
OPP_DOUBLE = const(6)
N_PATTERNS = const(7)
RGB_BYTES = bytes(b for rgb in RGB for b in ((rgb >> 16) & 255, (rgb >> 8) & 255, rgb & 255))
_DOUBLE_FROM_PRESS = (OPP_NS, OPP_EW, OPP_P3, GAME_SHOWN)
PATTERN_OF = bytes(OPP_DOUBLE if k in _DOUBLE_FROM_PRESS else PATTERN[k] for k in range(N_CODES))
# the patterns whose level changes with time (a frame showing none of them stands still)
ANIMATED = const((1 << PULSE) | (1 << BLINK) | (1 << FAST) | (1 << DOUBLE) | (1 << OPP_DOUBLE))


def level(pattern, now):
    """Intensity 0..256 of ``pattern`` at time ``now`` (ms ticks). No allocation."""
    if pattern == STEADY:
        return 256
    if pattern == PULSE:  # 32 steps a second: the LEDs need rewriting only that often
        t = (now >> 5) & 31
        if t >= 16:
            t = 31 - t
        return 48 + (t * 208 // 15)
    if pattern == BLINK:
        return 256 if (now & 1023) < 512 else 0
    if pattern == FAST:
        return 256 if (now & 255) < 128 else 0
    if pattern == DOUBLE:
        t = now % 1200
        if t < 120 or (240 <= t < 360):
            return 256
        return 0
    if pattern == DIM:
        return 85
    return 256


@micropython.viper
def levels_into(plevel: ptr16, now: int, opp_dt: int) -> int:
    """``plevel[p]`` = ``level(p, now)`` for the patterns STEADY..DIM, and the opponent
    feedback's double flash (``OPP_DOUBLE``) ``opp_dt`` ms after the long press (-1: off,
    level 0). Returns 1 if any level changed. Native code: the same numbers as
    :func:`level`, computed every frame."""
    t = (now >> 5) & 31
    if t >= 16:
        t = 31 - t
    pulse = 48 + (t * 208 // 15)
    blink = 256 if (now & 1023) < 512 else 0
    fast = 256 if (now & 255) < 128 else 0
    t = now % 1200
    double = 256 if (t < 120 or (t >= 240 and t < 360)) else 0
    opp = 0
    if opp_dt >= 0:
        t = opp_dt % 1200
        opp = 256 if (t < 120 or (t >= 240 and t < 360)) else 0
    changed = 0
    if int(plevel[0]) != 256 or int(plevel[5]) != 85:
        plevel[0] = 256  # STEADY
        plevel[5] = 85  # DIM
        changed = 1
    if int(plevel[1]) != pulse:
        plevel[1] = pulse
        changed = 1
    if int(plevel[2]) != blink:
        plevel[2] = blink
        changed = 1
    if int(plevel[3]) != fast:
        plevel[3] = fast
        changed = 1
    if int(plevel[4]) != double:
        plevel[4] = double
        changed = 1
    if int(plevel[6]) != opp:
        plevel[6] = opp
        changed = 1
    return changed


def player_colour(player):
    return NS_COLOUR if player == 0 else EW_COLOUR


def hex_of(rgb):
    return "%06x" % rgb
