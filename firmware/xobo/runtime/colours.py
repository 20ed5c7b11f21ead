"""The board's colours and blink patterns (docs/colours.md is the table for players).

Colours come from the Okabe-Ito palette, which stays distinguishable for the common forms of
colour blindness; every meaning also has its own pattern (steady, pulsing, blinking, fast
blinking, double flash), so no meaning depends on colour alone.

Each light meaning is a small int ``code``; ``RGB[code]`` is its colour (0xRRGGBB) and
``PATTERN[code]`` its pattern. :func:`level` gives a pattern's intensity (0..256) at a time.

Usage::

    >>> from xobo.runtime.colours import PUT, RGB, PATTERN, level
    >>> lv = level(PATTERN[PUT], 250)           # 0..256, at 250 ms
    >>> r = ((RGB[PUT] >> 16) & 255) * lv >> 8
    >>> lv, r
    (256, 86)
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
# X's own shades (Okabe-Ito hues; a shade is a colour of its own for the pair check): a green
# corner held for now at a third of the light (the DIM pattern of bluish green is XoBo's
# regroup cells), and the Red and Yellow of X's opponent feedback and Red's win lightened a
# fifth towards white (vermillion's pulse and double flash are taken by other meanings)
GREEN_THIRD = const(0x00352A)
VERMILLION_LIGHT = const(0xDD7E33)
YELLOW_LIGHT = const(0xF3E968)

# patterns
STEADY = const(0)
PULSE = const(1)  # breathing, 1 s period
BLINK = const(2)  # 1 Hz, half on
FAST = const(3)  # 4 Hz, half on
DOUBLE = const(4)  # two short flashes every 1.2 s
DIM = const(5)  # steady, a third of the intensity
SLOW = const(6)  # a slow breathing, 2 s, never below 44 %: a steady-looking second pattern
PATTERN_NAMES = ("steady", "pulse", "blink 1 Hz", "fast blink 4 Hz", "double flash", "dim",
                 "slow breathing")

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
LOOK = const(19)  # learn mode: a cell the lesson speaks of (xobo.runtime.learn)
OPP_NS = const(20)  # the hint button's long press: the computer now plays North-South
OPP_EW = const(21)  # ... East-West
OPP_OFF = const(22)  # ... the computer opponent is switched off
THINKING = const(23)  # edges: the computer is searching its move (the scan goes on)
P3_COLOUR = const(24)  # a third player (three-player games): its edges, its pieces
WIN_P3 = const(25)
OPP_P3 = const(26)
GAME_SHOWN = const(27)  # the game gesture: the new game's area, for 1.2 s
X_RED = const(28)  # X: Red's pieces and its edges (green is P3_COLOUR)
X_YELLOW = const(29)  # X: Yellow's pieces and its edges
X_RED_CORNER = const(30)  # X: a corner Red wins for now (provisional, dim)
X_YELLOW_CORNER = const(31)
X_GREEN_CORNER = const(32)
X_WIN_RED = const(33)  # X: Red won (its winning groups, the edges)
X_WIN_YELLOW = const(34)
X_OPP_RED = const(35)  # X: the computer now plays Red
X_OPP_YELLOW = const(36)
X_NEIGHBOUR = const(37)  # X: the hex neighbours of a lifted piece or of a piece being put
# Chain Reaction (games/chain_reaction/board.py): towers, scores, segments, a lifted tower
CR_TOWER_L = const(38)  # a tower topped by Light (blue) over a Light piece: 1 Hz
CR_TOWER_D = const(39)  # topped by Dark (orange) over a Dark piece
CR_TOWER_LX = const(40)  # topped by Light over a Dark piece: 4 Hz (the second pattern)
CR_TOWER_DX = const(41)  # topped by Dark over a Light piece
CR_SCORE_L = const(42)  # Light's points 1-9 on file a (10-18 steady, 19 on fast)
CR_SCORE_D = const(43)  # Dark's points on file i
CR_SEGMENTS = const(44)  # the segments left in the turn (the mover's own goal row)
CR_FIRST = const(45)  # a lifted tower's first square: its bottom piece goes there
CR_GOAL_1 = const(46)  # a lifted tower's goal square worth 1 point
CR_GOAL_2 = const(47)  # ... worth 2 points
CR_PENALTY = const(48)  # the penalty: the split tower, the points lost
# Brochs (xobo.games.brochs.board): Black's men and White's men are the players' colours
BR_MASTER = const(49)  # Black's master
BR_DONJON = const(50)  # an empty donjon
BR_DONJON_BLACK = const(51)  # a Black man on a donjon
BR_DONJON_WHITE = const(52)  # a White man on a donjon
BR_DONJON_MASTER = const(53)  # the master on a donjon
BR_CROSS = const(54)  # an empty square of the central cross (in no quadrant)
BR_REMOTE = const(55)  # a White piece a remote capture may take: lift it
BR_ASKED = const(56)  # edges: the submission question waits for its answer
X_GREEN = const(57)  # X: Green's pieces and edges, breathing slowly (red and green differ by
# pattern too: no meaning rests on colour alone)
N_CODES = const(58)

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
    WHITE,  # LOOK
    BLUE,  # OPP_NS
    ORANGE,  # OPP_EW
    WHITE,  # OPP_OFF
    YELLOW,  # THINKING (the colour of the computer's suggestions)
    BLUISH_GREEN,  # P3_COLOUR
    BLUISH_GREEN,  # WIN_P3
    BLUISH_GREEN,  # OPP_P3
    WHITE,  # GAME_SHOWN
    VERMILLION,  # X_RED
    YELLOW,  # X_YELLOW
    VERMILLION,  # X_RED_CORNER
    YELLOW,  # X_YELLOW_CORNER
    GREEN_THIRD,  # X_GREEN_CORNER
    VERMILLION_LIGHT,  # X_WIN_RED
    YELLOW,  # X_WIN_YELLOW
    VERMILLION_LIGHT,  # X_OPP_RED
    YELLOW_LIGHT,  # X_OPP_YELLOW
    SKY_BLUE,  # X_NEIGHBOUR (no X player's colour)
    BLUE,  # CR_TOWER_L
    ORANGE,  # CR_TOWER_D
    BLUE,  # CR_TOWER_LX
    ORANGE,  # CR_TOWER_DX
    BLUE,  # CR_SCORE_L
    ORANGE,  # CR_SCORE_D
    REDDISH_PURPLE,  # CR_SEGMENTS (yellow dim is X's corner)
    SKY_BLUE,  # CR_FIRST
    YELLOW_LIGHT,  # CR_GOAL_1 (yellow steady is X's Yellow)
    YELLOW_LIGHT,  # CR_GOAL_2
    REDDISH_PURPLE,  # CR_PENALTY
    REDDISH_PURPLE,  # BR_MASTER
    YELLOW,  # BR_DONJON
    BLUE,  # BR_DONJON_BLACK
    ORANGE,  # BR_DONJON_WHITE
    REDDISH_PURPLE,  # BR_DONJON_MASTER
    VERMILLION,  # BR_CROSS
    ORANGE,  # BR_REMOTE
    WHITE,  # BR_ASKED
    BLUISH_GREEN,  # X_GREEN
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
    SLOW,  # LOOK
    DOUBLE,  # OPP_NS
    DOUBLE,  # OPP_EW
    DIM,  # OPP_OFF
    BLINK,  # THINKING (1 Hz: two LED writes a second, not thirty, while the search runs)
    STEADY,  # P3_COLOUR
    PULSE,  # WIN_P3
    DOUBLE,  # OPP_P3
    DOUBLE,  # GAME_SHOWN
    STEADY,  # X_RED
    STEADY,  # X_YELLOW
    DIM,  # X_RED_CORNER
    DIM,  # X_YELLOW_CORNER
    STEADY,  # X_GREEN_CORNER (a third of bluish green: dim like the other two)
    PULSE,  # X_WIN_RED
    PULSE,  # X_WIN_YELLOW
    DOUBLE,  # X_OPP_RED
    DOUBLE,  # X_OPP_YELLOW
    BLINK,  # X_NEIGHBOUR
    BLINK,  # CR_TOWER_L
    BLINK,  # CR_TOWER_D
    FAST,  # CR_TOWER_LX
    FAST,  # CR_TOWER_DX
    DIM,  # CR_SCORE_L
    DIM,  # CR_SCORE_D
    DIM,  # CR_SEGMENTS
    PULSE,  # CR_FIRST
    STEADY,  # CR_GOAL_1
    PULSE,  # CR_GOAL_2
    BLINK,  # CR_PENALTY
    STEADY,  # BR_MASTER
    DIM,  # BR_DONJON
    DIM,  # BR_DONJON_BLACK
    DIM,  # BR_DONJON_WHITE
    DIM,  # BR_DONJON_MASTER
    DIM,  # BR_CROSS
    BLINK,  # BR_REMOTE
    FAST,  # BR_ASKED
    SLOW,  # X_GREEN
)

# the meaning of each code in words: xobo.runtime.meanings (host only: the page's legend,
# docs/colours.md; it would take a kilobyte of the Pico's RAM for nothing)


# For the native colour pass (xobo.runtime.light): the colours as bytes (R, G, B per code), and
# each code's pattern where the opponent feedback's double flash, timed from the long press,
# is a pattern of its own (OPP_DOUBLE).
OPP_DOUBLE = const(7)
N_PATTERNS = const(8)
RGB_BYTES = bytes(b for rgb in RGB for b in ((rgb >> 16) & 255, (rgb >> 8) & 255, rgb & 255))
_DOUBLE_FROM_PRESS = (OPP_NS, OPP_EW, OPP_P3, GAME_SHOWN, X_OPP_RED, X_OPP_YELLOW)
PATTERN_OF = bytes(OPP_DOUBLE if k in _DOUBLE_FROM_PRESS else PATTERN[k] for k in range(N_CODES))
# the patterns whose level changes with time (a frame showing none of them stands still)
ANIMATED = const((1 << PULSE) | (1 << BLINK) | (1 << FAST) | (1 << DOUBLE) | (1 << SLOW)
                 | (1 << OPP_DOUBLE))


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
    if pattern == SLOW:  # 16 steps a second
        t = (now >> 6) & 31
        if t >= 16:
            t = 31 - t
        return 112 + (t * 144 // 15)
    return 256


@micropython.viper
def levels_into(plevel: ptr16, now: int, opp_dt: int) -> int:
    """``plevel[p]`` = ``level(p, now)`` for the patterns STEADY..SLOW, and the opponent
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
    t = (now >> 6) & 31
    if t >= 16:
        t = 31 - t
    slow = 112 + (t * 144 // 15)
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
    if int(plevel[6]) != slow:
        plevel[6] = slow
        changed = 1
    if int(plevel[7]) != opp:
        plevel[7] = opp
        changed = 1
    return changed


def hex_of(rgb):
    return "%06x" % rgb
