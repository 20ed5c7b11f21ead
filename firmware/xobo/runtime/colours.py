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
# Chain Reaction (games/chain_reaction/board.py): towers, scores, segments, a lifted tower
CR_TOWER_L = const(28)  # a tower topped by Light (blue) over a Light piece: 1 Hz
CR_TOWER_D = const(29)  # topped by Dark (orange) over a Dark piece
CR_TOWER_LX = const(30)  # topped by Light over a Dark piece: 4 Hz (the second pattern)
CR_TOWER_DX = const(31)  # topped by Dark over a Light piece
CR_SCORE_L = const(32)  # Light's points 1-9 on file a (10-18 steady, 19 on fast)
CR_SCORE_D = const(33)  # Dark's points on file i
CR_SEGMENTS = const(34)  # the segments left in the turn (the mover's own goal row)
CR_FIRST = const(35)  # a lifted tower's first square: its bottom piece goes there
CR_GOAL_1 = const(36)  # a lifted tower's goal square worth 1 point
CR_GOAL_2 = const(37)  # ... worth 2 points
CR_PENALTY = const(38)  # the penalty: the split tower, the points lost
N_CODES = const(39)

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
    BLUE,  # CR_TOWER_L
    ORANGE,  # CR_TOWER_D
    BLUE,  # CR_TOWER_LX
    ORANGE,  # CR_TOWER_DX
    BLUE,  # CR_SCORE_L
    ORANGE,  # CR_SCORE_D
    YELLOW,  # CR_SEGMENTS
    SKY_BLUE,  # CR_FIRST
    YELLOW,  # CR_GOAL_1
    YELLOW,  # CR_GOAL_2
    REDDISH_PURPLE,  # CR_PENALTY
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
    "Chain Reaction: a tower, Light on top of a Light piece",
    "Chain Reaction: a tower, Dark on top of a Dark piece",
    "Chain Reaction: a tower, Light on top of a Dark piece",
    "Chain Reaction: a tower, Dark on top of a Light piece",
    "Chain Reaction: Light's score (file a, a cell a point; 10-18 steady)",
    "Chain Reaction: Dark's score (file i, a cell a point; 10-18 steady)",
    "Chain Reaction: the segments left in the turn (the mover's own goal row)",
    "Chain Reaction: the lifted tower's first square (its bottom piece goes here)",
    "Chain Reaction: a goal square the lifted tower scores 1 point on",
    "Chain Reaction: a goal square the lifted tower scores 2 points on",
    "Chain Reaction: the penalty (the tower to split, the 2 points lost)",
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
