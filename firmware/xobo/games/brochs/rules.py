"""A Brochs position and the rules that act on it (docs/rules/brochs.md, BB1-BR8).

The state is flat: ``cells`` (a ``bytearray(225)`` of piece codes), the side to act, Black's
reserve, the submission state, a pending remote-capture pick, and per-ply undo records in a
growing ``bytearray`` so that :meth:`Position.undo` restores everything exactly.

Moves (ints below 2**16; ``FOOTPRINT`` is what the board sees, L lifted / A added):

=============  ======================  ==============  =======================================
code           what                    notation        footprint, how the board plays it
=============  ======================  ==============  =======================================
``f<<8 | t``   rook move (BM2)         ``e5-e9xe10``   L = {f} + captured, A = {t}
``DROP+c``     drop a man (BM1)        ``*e5``         L = captured, A = {c}
``MDROP+c``    drop the master (BM1)   ``M*e5``        the same footprint as ``DROP+c``: the
                                                       board commits it only after the
                                                       "master" button (``is_master_drop``,
                                                       ``as_master_drop``); when only the
                                                       master is left in reserve it is the
                                                       only drop and needs no button
``REMOTE+c``   remote capture (BM3)    ``!k13``        L = {c}, A = {}: a White piece leaves a
                                                       quadrant with nothing else moving. It
                                                       is Black's move (choice ``black``) or
                                                       White's pick after ``DECLARE`` (choice
                                                       ``white``)
``DECLARE+q``  Black announces a       ``!SE``         empty footprint; ``touch_cell`` is the
               remote capture in                       Black donjon facing quadrant q: Black
               quadrant q (``white``)                  lifts that piece and puts it back
``PASS``       pass (BM4, BR5)         ``--``          empty: the ``pass`` button
``ASK``        "submission?" (BR6)     ``(s?)``        empty: the ``submission`` button
``ACCEPT``     "submission!" (BR6)     ``(s!)``        empty: the ``accept`` button
``REFUSE``     "pass!" (BR6)           ``(pass!)``     empty: the ``refuse`` button
``RESIGN``     resign (BE1)            ``(resign)``    empty: the ``resign`` button
=============  ======================  ==============  =======================================

:meth:`Position.button_move` maps a button name to the move it plays (or -1 when that button
does nothing now). Empty-footprint moves can also come over serial in this notation.

Pieces: ``EMPTY`` 0, ``MAN`` 1 (Black man), ``MASTER`` 2, ``WHITE`` 3. Players: ``BLACK`` 0
(moves first by default, BB5), ``WHITE_P`` 1.

For the board layer: ``owner(c)`` (player or -1), ``piece(c)``, ``master_cell()`` (-1 when in
reserve or captured), ``donjons`` (cells indexed by quadrant NW, NE, SW, SE), ``QUADRANT[c]``
(0-3, or ``NO_QUADRANT`` on the central cross), ``targets(cell, out)`` (the legal destinations
of a lifted piece), ``captures_of(m, out)`` (the pieces to take off after ``m``),
``remote_targets(out)`` (the White pieces a remote capture may take now), ``submission()``.

Usage::

    >>> from xobo.games.brochs.rules import Position, new_move_buffer
    >>> pos = Position()
    >>> buf = new_move_buffer()
    >>> n = pos.legal_moves(buf)
    >>> pos.play(pos.parse_move("*e5")); pos.undo()
"""

import array

from xobo.compat import const, micropython, ptr8, ptr16
from xobo.errors import MoveError, PositionError
from xobo.gamekit import PAGE_MASK, PAGE_SHIFT, GamePosition, History
from xobo.numbers import parse_uint

WIDTH = const(15)
N_CELLS = const(225)
_CELL_CHARS = b".bmw"  # a cell's value (EMPTY, MAN, MASTER, WHITE) as written in a position
FILES = "abcdefghijklmno"

EMPTY = const(0)
MAN = const(1)
MASTER = const(2)
WHITE = const(3)

BLACK = const(0)
WHITE_P = const(1)

MEN = const(12)
WHITE_MEN = const(24)

# move codes (module docstring)
DROP = const(0xE100)
MDROP = const(0xE200)
REMOTE = const(0xE300)
DECLARE = const(0xE400)
PASS = const(0xE500)
ASK = const(0xE501)
ACCEPT = const(0xE502)
REFUSE = const(0xE503)
RESIGN = const(0xE504)

# the most moves one position can have: 2 x 225 drops, 13 pieces x 28 rook moves, 2 x 49
# remote captures, 3 buttons (a loose bound, checked by the tests)
MAX_MOVES = const(1024)
FOOTPRINT_MAX = const(10)  # a source, and at most 8 neighbours captured (+1 spare)

# submission state (BR6)
SUB_NONE = const(0)
SUB_ASKED = const(1)  # the proposer asked; the other side must answer
SUB_REFUSED = const(2)  # refused with no countdown allowed: no new question this turn
SUB_COUNT = const(3)  # countdown running, sub_n rounds left
SUB_RESIGNED = const(4)  # sub_player resigned (or accepted a submission)

NW = const(0)
NE = const(1)
SW = const(2)
SE = const(3)
NO_QUADRANT = const(255)
QUADRANT_NAMES = ("NW", "NE", "SW", "SE")

IMPRECATION = ("black", "white")
MASTER_DIAGONAL = ("either", "master-moves")

# directions: N, E, S, W, NE, SE, SW, NW (0-3 orthogonal)
_DF = (0, 1, 0, -1, 1, 1, -1, -1)
_DR = (1, 0, -1, 0, 1, -1, -1, 1)
_LINE_A = (0, 1, 4, 5)
_LINE_B = (2, 3, 6, 7)


# The board's tables as bytes constants: frozen into the firmware image they stay in flash (no
# heap: 2,025 bytes that Brochs' switch would otherwise leave less free, and no time: the
# Python loop that made them took 54 ms of every switch to Brochs on the emulated Pico).
# NEIGHBOUR[c * 8 + d]: the cell next to c in direction d (_DF, _DR), 255 off the board;
# QUADRANT[c]: NW, NE, SW, SE, or NO_QUADRANT on the central file h and rank 8 (BB2). The
# tests check both against these definitions.
NEIGHBOUR = (
    b"\x0f\x01\xff\xff\x10\xff\xff\xff\x10\x02\xff\x00\x11\xff\xff\x0f\x11\x03\xff\x01\x12\xff"
    b"\xff\x10\x12\x04\xff\x02\x13\xff\xff\x11\x13\x05\xff\x03\x14\xff\xff\x12\x14\x06\xff\x04"
    b"\x15\xff\xff\x13\x15\x07\xff\x05\x16\xff\xff\x14\x16\x08\xff\x06\x17\xff\xff\x15\x17\x09"
    b"\xff\x07\x18\xff\xff\x16\x18\x0a\xff\x08\x19\xff\xff\x17\x19\x0b\xff\x09\x1a\xff\xff\x18"
    b"\x1a\x0c\xff\x0a\x1b\xff\xff\x19\x1b\x0d\xff\x0b\x1c\xff\xff\x1a\x1c\x0e\xff\x0c\x1d\xff"
    b"\xff\x1b\x1d\xff\xff\x0d\xff\xff\xff\x1c\x1e\x10\x00\xff\x1f\x01\xff\xff\x1f\x11\x01\x0f"
    b"\x20\x02\x00\x1e\x20\x12\x02\x10\x21\x03\x01\x1f\x21\x13\x03\x11\x22\x04\x02\x20\x22\x14"
    b"\x04\x12\x23\x05\x03\x21\x23\x15\x05\x13\x24\x06\x04\x22\x24\x16\x06\x14\x25\x07\x05\x23"
    b"\x25\x17\x07\x15\x26\x08\x06\x24\x26\x18\x08\x16\x27\x09\x07\x25\x27\x19\x09\x17\x28\x0a"
    b"\x08\x26\x28\x1a\x0a\x18\x29\x0b\x09\x27\x29\x1b\x0b\x19\x2a\x0c\x0a\x28\x2a\x1c\x0c\x1a"
    b"\x2b\x0d\x0b\x29\x2b\x1d\x0d\x1b\x2c\x0e\x0c\x2a\x2c\xff\x0e\x1c\xff\xff\x0d\x2b\x2d\x1f"
    b"\x0f\xff\x2e\x10\xff\xff\x2e\x20\x10\x1e\x2f\x11\x0f\x2d\x2f\x21\x11\x1f\x30\x12\x10\x2e"
    b"\x30\x22\x12\x20\x31\x13\x11\x2f\x31\x23\x13\x21\x32\x14\x12\x30\x32\x24\x14\x22\x33\x15"
    b"\x13\x31\x33\x25\x15\x23\x34\x16\x14\x32\x34\x26\x16\x24\x35\x17\x15\x33\x35\x27\x17\x25"
    b"\x36\x18\x16\x34\x36\x28\x18\x26\x37\x19\x17\x35\x37\x29\x19\x27\x38\x1a\x18\x36\x38\x2a"
    b"\x1a\x28\x39\x1b\x19\x37\x39\x2b\x1b\x29\x3a\x1c\x1a\x38\x3a\x2c\x1c\x2a\x3b\x1d\x1b\x39"
    b"\x3b\xff\x1d\x2b\xff\xff\x1c\x3a\x3c\x2e\x1e\xff\x3d\x1f\xff\xff\x3d\x2f\x1f\x2d\x3e\x20"
    b"\x1e\x3c\x3e\x30\x20\x2e\x3f\x21\x1f\x3d\x3f\x31\x21\x2f\x40\x22\x20\x3e\x40\x32\x22\x30"
    b"\x41\x23\x21\x3f\x41\x33\x23\x31\x42\x24\x22\x40\x42\x34\x24\x32\x43\x25\x23\x41\x43\x35"
    b"\x25\x33\x44\x26\x24\x42\x44\x36\x26\x34\x45\x27\x25\x43\x45\x37\x27\x35\x46\x28\x26\x44"
    b"\x46\x38\x28\x36\x47\x29\x27\x45\x47\x39\x29\x37\x48\x2a\x28\x46\x48\x3a\x2a\x38\x49\x2b"
    b"\x29\x47\x49\x3b\x2b\x39\x4a\x2c\x2a\x48\x4a\xff\x2c\x3a\xff\xff\x2b\x49\x4b\x3d\x2d\xff"
    b"\x4c\x2e\xff\xff\x4c\x3e\x2e\x3c\x4d\x2f\x2d\x4b\x4d\x3f\x2f\x3d\x4e\x30\x2e\x4c\x4e\x40"
    b"\x30\x3e\x4f\x31\x2f\x4d\x4f\x41\x31\x3f\x50\x32\x30\x4e\x50\x42\x32\x40\x51\x33\x31\x4f"
    b"\x51\x43\x33\x41\x52\x34\x32\x50\x52\x44\x34\x42\x53\x35\x33\x51\x53\x45\x35\x43\x54\x36"
    b"\x34\x52\x54\x46\x36\x44\x55\x37\x35\x53\x55\x47\x37\x45\x56\x38\x36\x54\x56\x48\x38\x46"
    b"\x57\x39\x37\x55\x57\x49\x39\x47\x58\x3a\x38\x56\x58\x4a\x3a\x48\x59\x3b\x39\x57\x59\xff"
    b"\x3b\x49\xff\xff\x3a\x58\x5a\x4c\x3c\xff\x5b\x3d\xff\xff\x5b\x4d\x3d\x4b\x5c\x3e\x3c\x5a"
    b"\x5c\x4e\x3e\x4c\x5d\x3f\x3d\x5b\x5d\x4f\x3f\x4d\x5e\x40\x3e\x5c\x5e\x50\x40\x4e\x5f\x41"
    b"\x3f\x5d\x5f\x51\x41\x4f\x60\x42\x40\x5e\x60\x52\x42\x50\x61\x43\x41\x5f\x61\x53\x43\x51"
    b"\x62\x44\x42\x60\x62\x54\x44\x52\x63\x45\x43\x61\x63\x55\x45\x53\x64\x46\x44\x62\x64\x56"
    b"\x46\x54\x65\x47\x45\x63\x65\x57\x47\x55\x66\x48\x46\x64\x66\x58\x48\x56\x67\x49\x47\x65"
    b"\x67\x59\x49\x57\x68\x4a\x48\x66\x68\xff\x4a\x58\xff\xff\x49\x67\x69\x5b\x4b\xff\x6a\x4c"
    b"\xff\xff\x6a\x5c\x4c\x5a\x6b\x4d\x4b\x69\x6b\x5d\x4d\x5b\x6c\x4e\x4c\x6a\x6c\x5e\x4e\x5c"
    b"\x6d\x4f\x4d\x6b\x6d\x5f\x4f\x5d\x6e\x50\x4e\x6c\x6e\x60\x50\x5e\x6f\x51\x4f\x6d\x6f\x61"
    b"\x51\x5f\x70\x52\x50\x6e\x70\x62\x52\x60\x71\x53\x51\x6f\x71\x63\x53\x61\x72\x54\x52\x70"
    b"\x72\x64\x54\x62\x73\x55\x53\x71\x73\x65\x55\x63\x74\x56\x54\x72\x74\x66\x56\x64\x75\x57"
    b"\x55\x73\x75\x67\x57\x65\x76\x58\x56\x74\x76\x68\x58\x66\x77\x59\x57\x75\x77\xff\x59\x67"
    b"\xff\xff\x58\x76\x78\x6a\x5a\xff\x79\x5b\xff\xff\x79\x6b\x5b\x69\x7a\x5c\x5a\x78\x7a\x6c"
    b"\x5c\x6a\x7b\x5d\x5b\x79\x7b\x6d\x5d\x6b\x7c\x5e\x5c\x7a\x7c\x6e\x5e\x6c\x7d\x5f\x5d\x7b"
    b"\x7d\x6f\x5f\x6d\x7e\x60\x5e\x7c\x7e\x70\x60\x6e\x7f\x61\x5f\x7d\x7f\x71\x61\x6f\x80\x62"
    b"\x60\x7e\x80\x72\x62\x70\x81\x63\x61\x7f\x81\x73\x63\x71\x82\x64\x62\x80\x82\x74\x64\x72"
    b"\x83\x65\x63\x81\x83\x75\x65\x73\x84\x66\x64\x82\x84\x76\x66\x74\x85\x67\x65\x83\x85\x77"
    b"\x67\x75\x86\x68\x66\x84\x86\xff\x68\x76\xff\xff\x67\x85\x87\x79\x69\xff\x88\x6a\xff\xff"
    b"\x88\x7a\x6a\x78\x89\x6b\x69\x87\x89\x7b\x6b\x79\x8a\x6c\x6a\x88\x8a\x7c\x6c\x7a\x8b\x6d"
    b"\x6b\x89\x8b\x7d\x6d\x7b\x8c\x6e\x6c\x8a\x8c\x7e\x6e\x7c\x8d\x6f\x6d\x8b\x8d\x7f\x6f\x7d"
    b"\x8e\x70\x6e\x8c\x8e\x80\x70\x7e\x8f\x71\x6f\x8d\x8f\x81\x71\x7f\x90\x72\x70\x8e\x90\x82"
    b"\x72\x80\x91\x73\x71\x8f\x91\x83\x73\x81\x92\x74\x72\x90\x92\x84\x74\x82\x93\x75\x73\x91"
    b"\x93\x85\x75\x83\x94\x76\x74\x92\x94\x86\x76\x84\x95\x77\x75\x93\x95\xff\x77\x85\xff\xff"
    b"\x76\x94\x96\x88\x78\xff\x97\x79\xff\xff\x97\x89\x79\x87\x98\x7a\x78\x96\x98\x8a\x7a\x88"
    b"\x99\x7b\x79\x97\x99\x8b\x7b\x89\x9a\x7c\x7a\x98\x9a\x8c\x7c\x8a\x9b\x7d\x7b\x99\x9b\x8d"
    b"\x7d\x8b\x9c\x7e\x7c\x9a\x9c\x8e\x7e\x8c\x9d\x7f\x7d\x9b\x9d\x8f\x7f\x8d\x9e\x80\x7e\x9c"
    b"\x9e\x90\x80\x8e\x9f\x81\x7f\x9d\x9f\x91\x81\x8f\xa0\x82\x80\x9e\xa0\x92\x82\x90\xa1\x83"
    b"\x81\x9f\xa1\x93\x83\x91\xa2\x84\x82\xa0\xa2\x94\x84\x92\xa3\x85\x83\xa1\xa3\x95\x85\x93"
    b"\xa4\x86\x84\xa2\xa4\xff\x86\x94\xff\xff\x85\xa3\xa5\x97\x87\xff\xa6\x88\xff\xff\xa6\x98"
    b"\x88\x96\xa7\x89\x87\xa5\xa7\x99\x89\x97\xa8\x8a\x88\xa6\xa8\x9a\x8a\x98\xa9\x8b\x89\xa7"
    b"\xa9\x9b\x8b\x99\xaa\x8c\x8a\xa8\xaa\x9c\x8c\x9a\xab\x8d\x8b\xa9\xab\x9d\x8d\x9b\xac\x8e"
    b"\x8c\xaa\xac\x9e\x8e\x9c\xad\x8f\x8d\xab\xad\x9f\x8f\x9d\xae\x90\x8e\xac\xae\xa0\x90\x9e"
    b"\xaf\x91\x8f\xad\xaf\xa1\x91\x9f\xb0\x92\x90\xae\xb0\xa2\x92\xa0\xb1\x93\x91\xaf\xb1\xa3"
    b"\x93\xa1\xb2\x94\x92\xb0\xb2\xa4\x94\xa2\xb3\x95\x93\xb1\xb3\xff\x95\xa3\xff\xff\x94\xb2"
    b"\xb4\xa6\x96\xff\xb5\x97\xff\xff\xb5\xa7\x97\xa5\xb6\x98\x96\xb4\xb6\xa8\x98\xa6\xb7\x99"
    b"\x97\xb5\xb7\xa9\x99\xa7\xb8\x9a\x98\xb6\xb8\xaa\x9a\xa8\xb9\x9b\x99\xb7\xb9\xab\x9b\xa9"
    b"\xba\x9c\x9a\xb8\xba\xac\x9c\xaa\xbb\x9d\x9b\xb9\xbb\xad\x9d\xab\xbc\x9e\x9c\xba\xbc\xae"
    b"\x9e\xac\xbd\x9f\x9d\xbb\xbd\xaf\x9f\xad\xbe\xa0\x9e\xbc\xbe\xb0\xa0\xae\xbf\xa1\x9f\xbd"
    b"\xbf\xb1\xa1\xaf\xc0\xa2\xa0\xbe\xc0\xb2\xa2\xb0\xc1\xa3\xa1\xbf\xc1\xb3\xa3\xb1\xc2\xa4"
    b"\xa2\xc0\xc2\xff\xa4\xb2\xff\xff\xa3\xc1\xc3\xb5\xa5\xff\xc4\xa6\xff\xff\xc4\xb6\xa6\xb4"
    b"\xc5\xa7\xa5\xc3\xc5\xb7\xa7\xb5\xc6\xa8\xa6\xc4\xc6\xb8\xa8\xb6\xc7\xa9\xa7\xc5\xc7\xb9"
    b"\xa9\xb7\xc8\xaa\xa8\xc6\xc8\xba\xaa\xb8\xc9\xab\xa9\xc7\xc9\xbb\xab\xb9\xca\xac\xaa\xc8"
    b"\xca\xbc\xac\xba\xcb\xad\xab\xc9\xcb\xbd\xad\xbb\xcc\xae\xac\xca\xcc\xbe\xae\xbc\xcd\xaf"
    b"\xad\xcb\xcd\xbf\xaf\xbd\xce\xb0\xae\xcc\xce\xc0\xb0\xbe\xcf\xb1\xaf\xcd\xcf\xc1\xb1\xbf"
    b"\xd0\xb2\xb0\xce\xd0\xc2\xb2\xc0\xd1\xb3\xb1\xcf\xd1\xff\xb3\xc1\xff\xff\xb2\xd0\xd2\xc4"
    b"\xb4\xff\xd3\xb5\xff\xff\xd3\xc5\xb5\xc3\xd4\xb6\xb4\xd2\xd4\xc6\xb6\xc4\xd5\xb7\xb5\xd3"
    b"\xd5\xc7\xb7\xc5\xd6\xb8\xb6\xd4\xd6\xc8\xb8\xc6\xd7\xb9\xb7\xd5\xd7\xc9\xb9\xc7\xd8\xba"
    b"\xb8\xd6\xd8\xca\xba\xc8\xd9\xbb\xb9\xd7\xd9\xcb\xbb\xc9\xda\xbc\xba\xd8\xda\xcc\xbc\xca"
    b"\xdb\xbd\xbb\xd9\xdb\xcd\xbd\xcb\xdc\xbe\xbc\xda\xdc\xce\xbe\xcc\xdd\xbf\xbd\xdb\xdd\xcf"
    b"\xbf\xcd\xde\xc0\xbe\xdc\xde\xd0\xc0\xce\xdf\xc1\xbf\xdd\xdf\xd1\xc1\xcf\xe0\xc2\xc0\xde"
    b"\xe0\xff\xc2\xd0\xff\xff\xc1\xdf\xff\xd3\xc3\xff\xff\xc4\xff\xff\xff\xd4\xc4\xd2\xff\xc5"
    b"\xc3\xff\xff\xd5\xc5\xd3\xff\xc6\xc4\xff\xff\xd6\xc6\xd4\xff\xc7\xc5\xff\xff\xd7\xc7\xd5"
    b"\xff\xc8\xc6\xff\xff\xd8\xc8\xd6\xff\xc9\xc7\xff\xff\xd9\xc9\xd7\xff\xca\xc8\xff\xff\xda"
    b"\xca\xd8\xff\xcb\xc9\xff\xff\xdb\xcb\xd9\xff\xcc\xca\xff\xff\xdc\xcc\xda\xff\xcd\xcb\xff"
    b"\xff\xdd\xcd\xdb\xff\xce\xcc\xff\xff\xde\xce\xdc\xff\xcf\xcd\xff\xff\xdf\xcf\xdd\xff\xd0"
    b"\xce\xff\xff\xe0\xd0\xde\xff\xd1\xcf\xff\xff\xff\xd1\xdf\xff\xff\xd0\xff"
)
QUADRANT = (
    b"\x02\x02\x02\x02\x02\x02\x02\xff\x03\x03\x03\x03\x03\x03\x03\x02\x02\x02\x02\x02\x02\x02"
    b"\xff\x03\x03\x03\x03\x03\x03\x03\x02\x02\x02\x02\x02\x02\x02\xff\x03\x03\x03\x03\x03\x03"
    b"\x03\x02\x02\x02\x02\x02\x02\x02\xff\x03\x03\x03\x03\x03\x03\x03\x02\x02\x02\x02\x02\x02"
    b"\x02\xff\x03\x03\x03\x03\x03\x03\x03\x02\x02\x02\x02\x02\x02\x02\xff\x03\x03\x03\x03\x03"
    b"\x03\x03\x02\x02\x02\x02\x02\x02\x02\xff\x03\x03\x03\x03\x03\x03\x03\xff\xff\xff\xff\xff"
    b"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x00\x00\x00\x00\x00\x00\x00\xff\x01\x01\x01\x01"
    b"\x01\x01\x01\x00\x00\x00\x00\x00\x00\x00\xff\x01\x01\x01\x01\x01\x01\x01\x00\x00\x00\x00"
    b"\x00\x00\x00\xff\x01\x01\x01\x01\x01\x01\x01\x00\x00\x00\x00\x00\x00\x00\xff\x01\x01\x01"
    b"\x01\x01\x01\x01\x00\x00\x00\x00\x00\x00\x00\xff\x01\x01\x01\x01\x01\x01\x01\x00\x00\x00"
    b"\x00\x00\x00\x00\xff\x01\x01\x01\x01\x01\x01\x01\x00\x00\x00\x00\x00\x00\x00\xff\x01\x01"
    b"\x01\x01\x01\x01\x01"
)

# per-ply undo record: ncap, 8 cells, 8 kinds, sub kind/player/n, side, pick, the move (2)
_REC = const(24)
_R_SUB = const(17)
_R_SIDE = const(20)
_R_PICK = const(21)
_R_MOVE = const(22)
# the longest game the board keeps, in moves (the rules have no limit: a submission refused
# without a countdown lets a game go on; docs/rules/brochs.md, "on the board"); a save is
# bounded by it
MAX_PLIES = const(1000)
SAVED_MOVE_CHARS = const(8)  # a move in a save, without its captures (history_text): "(resign)"
_SEARCH_PLIES = const(64)  # the history's room past MAX_PLIES for the computer's search


def cell_name(c):
    return "%s%d" % (FILES[c % WIDTH], c // WIDTH + 1)


def parse_cell(text):
    """The cell of a square name like ``e5`` or ``o15``; -1 when it is none."""
    if len(text) < 2 or len(text) > 3:
        return -1
    f = FILES.find(text[0])
    r = parse_uint(text[1:], 2)
    if f < 0 or r < 1 or r > WIDTH:
        return -1
    return (r - 1) * WIDTH + f


def donjon_cells(k):
    """The donjons for setting ``donjon = k`` (BB3): (k, k) and its mirrors, by quadrant."""
    lo = k - 1
    hi = WIDTH - k
    return bytes((hi * WIDTH + lo, hi * WIDTH + hi, lo * WIDTH + lo, lo * WIDTH + hi))


def new_move_buffer():
    return array.array("H", bytes(2 * MAX_MOVES))


def is_move(m):
    """False for asking for submission and resigning: actions a player may take at any turn,
    which are not moves (BR6: "asking for submission is not a move"; BE1: resigning ends the
    game). ``legal_moves`` keeps them (they are the board's buttons, played like moves);
    ``moves_only`` and ``perft`` leave them out. The answer to a question, ``(s!)`` or
    ``(pass!)``, is the only way on once it is asked: it stays."""
    return m != ASK and m != RESIGN


def moves_only(buf, n):
    """Drop the actions that are not moves (``is_move``) from the first ``n`` of ``buf``, in
    place, keeping the order; returns how many are left. No allocation."""
    k = 0
    for i in range(n):
        m = buf[i]
        if m != ASK and m != RESIGN:
            buf[k] = m
            k += 1
    return k


def is_master_drop(m):
    return MDROP <= m < MDROP + N_CELLS


def as_master_drop(m):
    """The master drop on the cell of drop ``m`` (the "master" button turns one into the
    other); ``m`` itself when it is no drop."""
    if DROP <= m < DROP + N_CELLS:
        return m - DROP + MDROP
    return m


def move_kind(m):
    """One of ``"move"``, ``"drop"``, ``"master-drop"``, ``"remote"``, ``"declare"``,
    ``"pass"``, ``"ask"``, ``"accept"``, ``"refuse"``, ``"resign"`` or ``""`` (no move)."""
    if m < DROP:
        return "move" if (m >> 8) < N_CELLS and (m & 255) < N_CELLS and m >> 8 != m & 255 else ""
    base = m & 0xFF00
    low = m & 255
    if base == DROP and low < N_CELLS:
        return "drop"
    if base == MDROP and low < N_CELLS:
        return "master-drop"
    if base == REMOTE and low < N_CELLS:
        return "remote"
    if base == DECLARE and low < 4:
        return "declare"
    return {PASS: "pass", ASK: "ask", ACCEPT: "accept", REFUSE: "refuse",
            RESIGN: "resign"}.get(m, "")


BUTTONS = {"pass": PASS, "submission": ASK, "accept": ACCEPT, "refuse": REFUSE,
           "resign": RESIGN}
_SPECIAL_TEXT = {PASS: "--", ASK: "(s?)", ACCEPT: "(s!)", REFUSE: "(pass!)",
                 RESIGN: "(resign)"}
_TEXT_SPECIAL = {"--": PASS, "(s?)": ASK, "(s!)": ACCEPT, "(pass!)": REFUSE,
                 "(resign)": RESIGN}


@micropython.viper
def _enemy_next_to(cells, c: int, white: bool) -> bool:
    """Is an enemy of the arriving piece (White's when ``white`` is false, else Black's) on a
    square next to c? Every capture takes such a neighbour (BC1-BC3): with none, the arrival
    captures nothing. Native code: the board asks it of each of the 400 drops of a Brochs
    position when it lists their footprints (the loop in Python took 0.4 ms a move on the
    emulated Pico)."""
    b = ptr8(cells)
    nb = ptr8(NEIGHBOUR)
    base = c * 8
    for d in range(8):
        e = int(nb[base + d])
        if e != 255:
            k = int(b[e])
            if white:
                if k == int(MAN) or k == int(MASTER):
                    return True
            elif k == int(WHITE):
                return True
    return False


@micropython.viper
def _plain_drop_footprints(cells, moves, n: int, fp: int, fa, n_l, n_a, touch_of,
                           btn_of) -> int:
    """The footprints of the legal moves ``moves[:n]`` that are drops with no White man
    between them and a Black piece (as most are: they capture nothing): nothing lifted, their
    cell added, no touch cell, the master drop's button 1 ("master"); the inference's buffers
    (``Inference.footprint_moves``). Every other move gets ``n_l[i] = 255``, for the caller
    to list. Returns the number of master drops. Native code: after every move the board
    lists the footprints of ~400 drops (128 ms in Python on the emulated Pico)."""
    b = ptr8(cells)
    mv = ptr16(moves)
    nb = ptr8(NEIGHBOUR)
    added = ptr8(fa)
    lifts = ptr8(n_l)
    adds = ptr8(n_a)
    touch = ptr8(touch_of)
    button = ptr8(btn_of)
    masters = 0
    for i in range(n):
        m = int(mv[i])
        plain = 0
        c = m & 255
        if m >= int(DROP) and m < int(REMOTE):
            plain = 1
            base = c * 8
            for d in range(8):
                e = int(nb[base + d])
                if e != 255 and int(b[e]) == int(WHITE):
                    # every capture of e (BC1-BC3) needs a Black piece beyond it, on the
                    # same line (``Position._captures``): without one, none
                    f = int(nb[e * 8 + d])
                    if f != 255 and (int(b[f]) == int(MAN) or int(b[f]) == int(MASTER)):
                        plain = 0
        if plain:
            added[i * fp] = c
            lifts[i] = 0
            adds[i] = 1
            touch[i] = 0
            if m >= int(MDROP):
                button[i] = 1
                masters += 1
            else:
                button[i] = 0
        else:
            lifts[i] = 255
    return masters


class Position(GamePosition):
    """A Brochs position: the pieces, Black's reserve, whose action it is, the submission state
    (BR6), a pending remote-capture pick, the settings, and the moves that led here."""

    max_moves = MAX_MOVES  # the length of its move buffers (xobo.gamekit)
    n_players = 2
    n_cells = N_CELLS
    puts_onto_pieces = False  # for the board: one piece a square, never one onto another
    width = WIDTH
    height = WIDTH

    def __init__(self, donjon=4, imprecation="black", master_diagonal="either", first=BLACK,
                 empty=False):
        if not (2 <= donjon <= 7):
            raise PositionError("donjon must be 2-7 (the donjons are on (k, k), BB3), got %r"
                                % (donjon,))
        if imprecation not in IMPRECATION:
            raise PositionError("imprecation_choice must be black or white, got '%s'"
                                % imprecation)
        if master_diagonal not in MASTER_DIAGONAL:
            raise PositionError("master_diagonal must be either or master-moves, got '%s'"
                                % master_diagonal)
        self.donjon = donjon
        self.imprecation = imprecation
        self.master_diagonal = master_diagonal
        self._white_picks = imprecation == "white"
        self._man_diag = master_diagonal == "either"
        self.donjons = donjon_cells(donjon)
        self.is_donjon = bytearray(N_CELLS)
        for c in self.donjons:
            self.is_donjon[c] = 1
        self.cells = bytearray(N_CELLS)
        self.heights = bytearray(N_CELLS)
        self.used = b"\x01" * N_CELLS
        self.side = first
        self.res_men = MEN
        self.res_master = 1
        self.sub_kind = SUB_NONE
        self.sub_player = 0
        self.sub_n = 0
        self.pick = -1  # quadrant White must pick a piece in (imprecation_choice = white)
        self.ply = 0
        self._mcell = -1
        self._nwhite = 0
        self._nblack = 0  # Black pieces on the board, the master included
        self._h = History(_REC, MAX_PLIES + _SEARCH_PLIES)
        self._cap = bytearray(8)
        self._qblack = bytearray(4)
        self._tb = None  # a small move buffer for one piece's moves, made when first needed
        if not empty:
            # BB4: 5 central squares of each edge and the 4 donjons
            for i in range(5, 10):
                self._put(i, WHITE)
                self._put(14 * WIDTH + i, WHITE)
                self._put(i * WIDTH, WHITE)
                self._put(i * WIDTH + 14, WHITE)
            for c in self.donjons:
                self._put(c, WHITE)

    # ----------------------------------------------------------------- pieces

    def _put(self, c, kind):
        self.cells[c] = kind
        self.heights[c] = 1
        if kind == WHITE:
            self._nwhite += 1
        else:
            self._nblack += 1
            if kind == MASTER:
                self._mcell = c

    def _take(self, c):
        kind = self.cells[c]
        self.cells[c] = EMPTY
        self.heights[c] = 0
        if kind == WHITE:
            self._nwhite -= 1
        else:
            self._nblack -= 1
            if kind == MASTER:
                self._mcell = -1
        return kind

    def piece(self, c):
        return self.cells[c]

    def owner(self, c):
        """The player whose piece stands on c, or -1."""
        k = self.cells[c]
        if k == EMPTY:
            return -1
        return WHITE_P if k == WHITE else BLACK

    def master_cell(self):
        return self._mcell

    def master_captured(self):
        return self._mcell < 0 and self.res_master == 0

    def pieces_left(self, player):
        """Pieces not captured (BE1): White's on the board; Black's on the board or in
        reserve."""
        if player == WHITE_P:
            return self._nwhite
        return self._nblack + self.res_men + self.res_master

    def on_board(self, player):
        return self._nwhite if player == WHITE_P else self._nblack

    def donjon_owner(self, q):
        """BE2: the owner of the donjon of quadrant q, or -1."""
        return self.owner(self.donjons[q])

    def donjon_count(self, player):
        n = 0
        for c in self.donjons:
            if self.owner(c) == player:
                n += 1
        return n

    def submission(self):
        """The BN2 submission field: ``-``, ``b?``, ``bx``, ``b4`` ... ``b0``, ``bR``."""
        if self.sub_kind == SUB_NONE:
            return "-"
        p = "bw"[self.sub_player]
        if self.sub_kind == SUB_ASKED:
            return p + "?"
        if self.sub_kind == SUB_REFUSED:
            return p + "x"
        if self.sub_kind == SUB_RESIGNED:
            return p + "R"
        return p + chr(48 + self.sub_n)

    # ----------------------------------------------------------------- notation (BN2)

    @staticmethod
    def parse(text, donjon=4, imprecation="black", master_diagonal="either"):
        """Parse a BN2 position string; raise PositionError saying what is wrong."""
        pos = Position(donjon, imprecation, master_diagonal, empty=True)
        parts = text.split()
        if len(parts) not in (5, 6):
            raise PositionError(
                "a position has 5 fields (board, side, men in reserve, master in reserve,"
                " submission) and maybe a pending pick, got %d: '%s'"
                % (len(parts), text.strip()))
        ranks = parts[0].split("/")
        if len(ranks) != WIDTH:
            raise PositionError("the board has 15 ranks separated by '/', got %d" % len(ranks))
        masters = 0
        men = 0
        for i in range(WIDTH):
            row = ranks[i]
            rank = WIDTH - i
            if len(row) != WIDTH:
                raise PositionError("rank %d has %d squares, expected 15: '%s'"
                                    % (rank, len(row), row))
            for f in range(WIDTH):
                ch = row[f]
                c = (rank - 1) * WIDTH + f
                if ch == ".":
                    continue
                if ch == "w":
                    pos._put(c, WHITE)
                elif ch == "b":
                    pos._put(c, MAN)
                    men += 1
                elif ch == "m":
                    masters += 1
                    if masters > 1:
                        raise PositionError("more than one master ('m') on the board (BB4)")
                    pos._put(c, MASTER)
                else:
                    raise PositionError("%s: '%s' is no piece: use '.', 'w', 'b' or 'm'"
                                        % (cell_name(c), ch))
        if pos._nwhite > WHITE_MEN:
            raise PositionError("%d White pieces on the board: White has 24 (BB4)"
                                % pos._nwhite)
        if parts[1] == "b":
            pos.side = BLACK
        elif parts[1] == "w":
            pos.side = WHITE_P
        else:
            raise PositionError("side to move must be 'b' or 'w', got '%s'" % parts[1])
        rm = parse_uint(parts[2], 2)
        if rm < 0 or rm > MEN:
            raise PositionError("Black men in reserve must be 0-12, got '%s'" % parts[2])
        if men + rm > MEN:
            raise PositionError("%d Black men on the board + %d in reserve = %d: Black has"
                                " 12 men (BB4, BR7)" % (men, rm, men + rm))
        if parts[3] not in ("0", "1"):
            raise PositionError("master in reserve must be 1 or 0, got '%s'" % parts[3])
        pos.res_men = rm
        pos.res_master = 1 if parts[3] == "1" else 0
        if masters and pos.res_master:
            raise PositionError("the master is on the board and in reserve at once (BR7)")
        pos._parse_submission(parts[4])
        if len(parts) == 6:
            pick = parts[5]
            q = -1
            if pick[:1] == "!":
                for i in range(4):
                    if pick[1:].upper() == QUADRANT_NAMES[i]:
                        q = i
            if q < 0:
                raise PositionError("a pending pick is written !NW, !NE, !SW or !SE, got '%s'"
                                    % pick)
            if imprecation != "white":
                raise PositionError("a pending pick (%s) needs imprecation_choice white" % pick)
            if pos.side != WHITE_P:
                raise PositionError("a pending pick (%s) is White's: the side must be 'w'"
                                    % pick)
            pos.pick = q
        if pos.sub_kind == SUB_ASKED and pos.sub_player == pos.side:
            raise PositionError("a submission asked by %s is answered by the other side: the"
                                " side to move must be %s (BR6)"
                                % ("bw"[pos.side], "bw"[1 - pos.side]))
        return pos

    def _parse_submission(self, s):
        if s == "-":
            return
        bad = PositionError("the submission field is '-' or b/w followed by ?, x, R or a"
                            " count 0-4 (BN2), got '%s'" % s)
        if len(s) != 2 or s[0] not in "bw":
            raise bad
        self.sub_player = 0 if s[0] == "b" else 1
        ch = s[1]
        if ch == "?":
            self.sub_kind = SUB_ASKED
        elif ch == "x":
            self.sub_kind = SUB_REFUSED
        elif ch == "R":
            self.sub_kind = SUB_RESIGNED
        elif "0" <= ch <= "4":
            self.sub_kind = SUB_COUNT
            self.sub_n = ord(ch) - 48
        else:
            raise bad

    def to_string(self):
        # the ranks written into one buffer, byte by byte: 2.4 times faster under MicroPython
        # than a join of generators (38 against 92 us), 1.6 times under CPython
        cells = self.cells
        out = bytearray(WIDTH * (WIDTH + 1) - 1)
        o = 0
        for rank in range(WIDTH - 1, -1, -1):
            first = rank * WIDTH
            for c in range(first, first + WIDTH):
                out[o] = _CELL_CHARS[cells[c]]
                o += 1
            if rank:
                out[o] = 47  # "/"
                o += 1
        s = "%s %s %d %d %s" % (str(out, "ascii"), "bw"[self.side], self.res_men,
                                self.res_master, self.submission())
        if self.pick >= 0:
            s += " !" + QUADRANT_NAMES[self.pick]
        return s

    def __eq__(self, other):
        return isinstance(other, Position) and self.to_string() == other.to_string() \
            and self.donjons == other.donjons and self.imprecation == other.imprecation \
            and self.master_diagonal == other.master_diagonal

    def clone(self):
        p = Position(self.donjon, self.imprecation, self.master_diagonal, self.side,
                     empty=True)
        p.cells[:] = self.cells
        p.heights[:] = self.heights
        p.res_men = self.res_men
        p.res_master = self.res_master
        p.sub_kind = self.sub_kind
        p.sub_player = self.sub_player
        p.sub_n = self.sub_n
        p.pick = self.pick
        p.ply = self.ply
        p._mcell = self._mcell
        p._nwhite = self._nwhite
        p._nblack = self._nblack
        p._h = self._h.copy(self.ply)  # the plies seen so far: shared, not copied
        return p

    def reserve(self, plies):
        """Make room for ``plies`` moves now (a saved game, before it is replayed)."""
        self._h.reserve(plies)

    def move_at(self, ply):
        """The move played at ``ply`` (0 <= ply < self.ply)."""
        page = self._h.pages[ply >> PAGE_SHIFT]
        o = (ply & PAGE_MASK) * _REC + _R_MOVE
        return page[o] | page[o + 1] << 8

    # ----------------------------------------------------------------- end (BE1-BE3)

    def is_terminal(self):
        if self.sub_kind == SUB_RESIGNED:
            return True
        if self.sub_kind == SUB_COUNT and self.sub_n == 0:
            return True  # BE1, BR6: the countdown ran out
        if self.master_captured() or self._nwhite == 0:
            return True
        for c in self.donjons:
            if self.cells[c] == EMPTY or self.cells[c] == WHITE:
                return False
        return True  # Black holds all 4 donjons

    def winner(self):
        """BE3: the winner of a finished game, -1 while it goes on or for a draw."""
        if not self.is_terminal():
            return -1
        if self.sub_kind == SUB_RESIGNED:
            return 1 - self.sub_player
        dw = self.donjon_count(WHITE_P)
        db = self.donjon_count(BLACK)
        if self.master_captured() or dw > db:
            return WHITE_P
        if db > dw:
            return BLACK  # the master is free here: not captured (on the board or in reserve)
        if self._nblack > self._nwhite:
            return BLACK
        if self._nwhite > self._nblack:
            return WHITE_P
        return -1

    def end_reason(self):
        """Why the game ended (BE1), or ``""`` while it goes on."""
        if not self.is_terminal():
            return ""
        if self.sub_kind == SUB_RESIGNED:
            return "resigned"
        if self.master_captured():
            return "master captured"
        if self._nwhite == 0:
            return "last white piece captured"
        if self.sub_kind == SUB_COUNT:
            return "submission countdown"
        return "four donjons"

    def returns(self):
        if not self.is_terminal():
            return (0, 0)
        w = self.winner()
        if w < 0:
            return (0, 0)
        return (1, -1) if w == BLACK else (-1, 1)

    # ----------------------------------------------------------------- captures

    def _flanker(self, c, player):
        """True when c holds a piece of player (BR1: a donjon's occupant flanks too)."""
        k = self.cells[c]
        if k == EMPTY:
            return False
        return (k == WHITE) == (player == WHITE_P)

    def captures(self, c, player, out):
        """The enemies taken when a piece of ``player`` arrives on c (already placed there):
        BC1, BC2, BC3, BR1-BR3; write them into ``out``, return how many. No allocation."""
        cells = self.cells
        nb = NEIGHBOUR
        isd = self.is_donjon
        master = cells[c] == MASTER
        n = 0
        for d in range(8):
            e = nb[c * 8 + d]
            if e == 255:
                continue
            k = cells[e]
            if k == EMPTY or (k == WHITE) == (player == WHITE_P):
                continue
            beyond = nb[e * 8 + d]
            if isd[e]:
                # BC3, BR2: two of the occupant's four lines flanked, c ends one of them
                if beyond == 255 or not self._flanker(beyond, player):
                    continue
                lines = 0
                for dd in range(4):  # N-S, E-W, NE-SW, SE-NW
                    a = nb[e * 8 + _LINE_A[dd]]
                    b = nb[e * 8 + _LINE_B[dd]]
                    if a != 255 and b != 255 and self._flanker(a, player) \
                            and self._flanker(b, player):
                        lines += 1
                if lines >= 2:
                    out[n] = e
                    n += 1
                continue
            if beyond == 255:
                continue  # BR1: the edge never captures
            if d < 4:
                if self._flanker(beyond, player):  # BC1
                    out[n] = e
                    n += 1
            elif player == BLACK:
                # BC2: the master arriving with any Black beyond, or (either) a man arriving
                # with the master beyond
                kb = cells[beyond]
                if (master and (kb == MAN or kb == MASTER)) or \
                        (self._man_diag and kb == MASTER):
                    out[n] = e
                    n += 1
        return n

    def captures_of(self, m, out):
        """The cells the legal move m captures (the pieces to take off), written into ``out``
        (8 bytes at least); returns how many. The position is left unchanged."""
        if m < DROP:
            f = m >> 8
            t = m & 255
            if not _enemy_next_to(self.cells, t, self.side == WHITE_P):
                return 0
            kind = self.cells[f]
            self.cells[f] = EMPTY
            self.cells[t] = kind
            n = self.captures(t, self.side, out)
            self.cells[t] = EMPTY
            self.cells[f] = kind
            return n
        base = m & 0xFF00
        c = m & 255
        if base == DROP or base == MDROP:
            if not _enemy_next_to(self.cells, c, False):
                return 0
            self.cells[c] = MAN if base == DROP else MASTER
            n = self.captures(c, BLACK, out)
            self.cells[c] = EMPTY
            return n
        if base == REMOTE:
            out[0] = c
            return 1
        return 0

    def _sorted_captures(self, m):
        out = self._cap
        n = self.captures_of(m, out)
        names = [cell_name(out[i]) for i in range(n)]
        names.sort()  # BR8: ascending string order
        return names

    # ----------------------------------------------------------------- move generation

    def _black_quadrants(self):
        q = self._qblack
        q[0] = q[1] = q[2] = q[3] = 0
        cells = self.cells
        for c in range(N_CELLS):
            k = cells[c]
            if k == MAN or k == MASTER:
                qq = QUADRANT[c]
                if qq != NO_QUADRANT:
                    q[qq] += 1
        return q

    def remote_quadrants(self):
        """A bit mask of the quadrants where Black may capture remotely now (BM3, BR4)."""
        if self._mcell < 0 or self.side != BLACK:
            return 0
        qb = self._black_quadrants()
        mask = 0
        for q in range(4):
            k = self.cells[self.donjons[q]]
            if (k == MAN or k == MASTER) and qb[3 - q] == 0:
                mask |= 1 << (3 - q)
        return mask

    def remote_targets(self, out):
        """The White pieces a remote capture may take now (out[c] = 1); returns how many."""
        for c in range(N_CELLS):
            out[c] = 0
        if self.pick >= 0:
            mask = 1 << self.pick
        else:
            mask = self.remote_quadrants() if self._normal_turn() else 0
        n = 0
        if mask:
            for c in range(N_CELLS):
                q = QUADRANT[c]
                if q != NO_QUADRANT and (mask >> q) & 1 and self.cells[c] == WHITE:
                    out[c] = 1
                    n += 1
        return n

    def _normal_turn(self):
        return self.sub_kind != SUB_ASKED and self.pick < 0 and not self.is_terminal()

    def _can_ask(self):
        return self.sub_kind == SUB_NONE

    def _rook_moves(self, f, buf, n):
        cells = self.cells
        nb = NEIGHBOUR
        black = cells[f] != WHITE
        for d in range(4):
            c = nb[f * 8 + d]
            while c != 255:
                k = cells[c]
                if k == EMPTY:
                    buf[n] = (f << 8) | c
                    n += 1
                elif k == WHITE or not black:
                    break  # BM2: nobody jumps White; White jumps nothing
                c = nb[c * 8 + d]
        return n

    def legal_moves(self, buf):
        """Fill buf with the legal moves; return their number. No allocation."""
        if self.is_terminal():
            return 0  # BR7
        if self.sub_kind == SUB_ASKED:
            buf[0] = ACCEPT
            buf[1] = REFUSE
            return 2
        cells = self.cells
        n = 0
        if self.pick >= 0:
            for c in range(N_CELLS):
                if cells[c] == WHITE and QUADRANT[c] == self.pick:
                    buf[n] = REMOTE + c
                    n += 1
            return n
        if self.side == BLACK:
            if self.res_men:
                for c in range(N_CELLS):
                    if cells[c] == EMPTY:
                        buf[n] = DROP + c
                        n += 1
            if self.res_master:
                for c in range(N_CELLS):
                    if cells[c] == EMPTY:
                        buf[n] = MDROP + c
                        n += 1
            for c in range(N_CELLS):
                k = cells[c]
                if k == MAN or k == MASTER:
                    n = self._rook_moves(c, buf, n)
            mask = self.remote_quadrants()
            if mask:
                if self._white_picks:
                    for q in range(4):
                        if (mask >> q) & 1:
                            buf[n] = DECLARE + q
                            n += 1
                else:
                    for c in range(N_CELLS):
                        q = QUADRANT[c]
                        if q != NO_QUADRANT and (mask >> q) & 1 and cells[c] == WHITE:
                            buf[n] = REMOTE + c
                            n += 1
        else:
            for c in range(N_CELLS):
                if cells[c] == WHITE:
                    n = self._rook_moves(c, buf, n)
        buf[n] = PASS
        n += 1
        if self._can_ask():
            buf[n] = ASK
            n += 1
        buf[n] = RESIGN
        return n + 1

    def targets(self, f, out):
        """The legal destinations of the piece on f if it were lifted now (out[c] = 1);
        returns how many."""
        for c in range(N_CELLS):
            out[c] = 0
        k = self.cells[f]
        if k == EMPTY or not self._normal_turn() or self.owner(f) != self.side:
            return 0
        buf = self._tbuf()
        n = self._rook_moves(f, buf, 0)
        for i in range(n):
            out[buf[i] & 255] = 1
        return n

    def _tbuf(self):
        b = self._tb
        if b is None:
            b = self._tb = array.array("H", bytes(2 * 32))
        return b

    def why_illegal(self, m):
        """None when m is legal, else a sentence saying why not."""
        if not isinstance(m, int) or m < 0 or m >= 0x10000 or not move_kind(m):
            return "%r is no Brochs move" % (m,)
        if self.is_terminal():
            return "the game is over (%s): no move is legal (BR7)" % self.end_reason()
        kind = move_kind(m)
        text = self._plain_text(m)
        if self.sub_kind == SUB_ASKED:
            if kind in ("accept", "refuse"):
                return None
            return ("%s must answer the submission question first: (s!) or (pass!) (BR6)"
                    % ("Black", "White")[self.side])
        if kind in ("accept", "refuse"):
            return "%s: no submission was asked (BR6)" % text
        if self.pick >= 0:
            if kind == "remote" and self.cells[m & 255] == WHITE \
                    and QUADRANT[m & 255] == self.pick:
                return None
            return "White must first pick a White piece of %s to remove (BM3)" \
                % QUADRANT_NAMES[self.pick]
        if kind in ("pass", "resign"):
            return None
        if kind == "ask":
            if self.sub_kind == SUB_COUNT:
                return "(s?): a submission countdown is running (BR6)"
            if self.sub_kind == SUB_REFUSED:
                return "(s?): already asked and refused this turn (BR6)"
            return None
        if kind == "move":
            f = m >> 8
            t = m & 255
            k = self.cells[f]
            if k == EMPTY:
                return "%s: %s is empty" % (text, cell_name(f))
            if self.owner(f) != self.side:
                return "%s: the piece on %s is not %s's" % (text, cell_name(f),
                                                            ("Black", "White")[self.side])
            if f % WIDTH != t % WIDTH and f // WIDTH != t // WIDTH:
                return "%s: a piece moves along its rank or file only (BM2)" % text
            if self.cells[t] != EMPTY:
                return "%s: %s is occupied (BM2)" % (text, cell_name(t))
            buf = self._tbuf()
            n = self._rook_moves(f, buf, 0)
            for i in range(n):
                if buf[i] == m:
                    return None
            if k == WHITE:
                return "%s: a White piece cannot jump over pieces (BM2)" % text
            return "%s: a Black piece can jump Black pieces only, not White ones (BM2)" % text
        if self.side != BLACK:
            return "%s: only Black %s" % (text, "drops" if "drop" in kind else
                                          "captures remotely (BM3)")
        c = m & 255
        if kind in ("drop", "master-drop"):
            if kind == "drop" and not self.res_men:
                return "%s: no Black man left in reserve (BM1)" % text
            if kind == "master-drop" and not self.res_master:
                return "%s: the master is not in reserve (BM1)" % text
            if self.cells[c] != EMPTY:
                return "%s: %s is occupied (BM1)" % (text, cell_name(c))
            return None
        mask = self.remote_quadrants()
        if kind == "declare":
            if not self._white_picks:
                return "%s: with imprecation_choice black, name the piece (!k13) (BM3)" % text
            if (mask >> c) & 1:
                return None
            return "%s: no remote capture into %s now (BM3)" % (text, QUADRANT_NAMES[c])
        # remote
        if self._white_picks:
            return "%s: with imprecation_choice white, Black names the quadrant (!SE) and" \
                " White picks the piece (BM3)" % text
        if self.cells[c] != WHITE:
            return "%s: no White piece on %s (BM3)" % (text, cell_name(c))
        q = QUADRANT[c]
        if q == NO_QUADRANT:
            return "%s: %s is on the central cross, in no quadrant (BB2, BM3)" % (
                text, cell_name(c))
        if (mask >> q) & 1:
            return None
        if self._mcell < 0:
            return "%s: a remote capture needs the master on the board (BM3)" % text
        return ("%s: a remote capture into %s needs a Black piece on the %s donjon and no"
                " Black piece in %s (BM3)" % (text, QUADRANT_NAMES[q], QUADRANT_NAMES[3 - q],
                                              QUADRANT_NAMES[q]))

    # ----------------------------------------------------------------- apply / undo

    def _donjon_owners(self):
        v = 0
        for q in range(4):
            v = v * 3 + self.owner(self.donjons[q]) + 1
        return v

    def apply(self, m):
        """Apply the legal move m (trusted)."""
        hist = self._h
        k = self.ply >> PAGE_SHIFT
        rec = hist.pages[k] if hist.ready[k] else hist.for_write(self.ply)
        r = (self.ply & PAGE_MASK) * _REC
        rec[r + _R_PICK] = self.pick + 1
        rec[r + _R_SUB] = self.sub_kind
        rec[r + _R_SUB + 1] = self.sub_player
        rec[r + _R_SUB + 2] = self.sub_n
        rec[r + _R_SIDE] = self.side
        rec[r + _R_MOVE] = m & 255
        rec[r + _R_MOVE + 1] = m >> 8
        self.ply += 1
        player = self.side
        ncap = 0
        if m >= PASS:
            rec[r] = 0
            if m == PASS:
                self._end_turn(player, False)
            elif m == ASK:
                self.sub_kind = SUB_ASKED
                self.sub_player = player
                self.side = 1 - player
            elif m == ACCEPT:
                self.sub_kind = SUB_RESIGNED  # BR6: the side asked resigns
                self.sub_player = player
            elif m == REFUSE:
                proposer = 1 - player
                self.side = proposer
                self.sub_player = proposer
                if self._countdown_allowed():
                    self.sub_kind = SUB_COUNT
                    self.sub_n = 4
                else:
                    self.sub_kind = SUB_REFUSED
            else:  # RESIGN
                self.sub_kind = SUB_RESIGNED
                self.sub_player = player
            return
        before = self._donjon_owners()
        cap = self._cap
        base = m & 0xFF00
        if m < DROP:
            f = m >> 8
            t = m & 255
            self._put(t, self._take(f))
            ncap = self.captures(t, player, cap)
            dropped = False
        elif base == DROP or base == MDROP:
            c = m & 255
            if base == DROP:
                self.res_men -= 1
                self._put(c, MAN)
            else:
                self.res_master = 0
                self._put(c, MASTER)
            ncap = self.captures(c, BLACK, cap)
            dropped = True
        elif base == DECLARE:
            rec[r] = 0
            self.pick = m & 255
            self.side = WHITE_P
            return
        else:  # REMOTE: Black's capture, or White's pick of the piece
            cap[0] = m & 255
            ncap = 1
            dropped = False
            if self.pick >= 0:
                player = BLACK  # the pick completes Black's remote capture
                self.pick = -1
                self.side = BLACK
        rec[r] = ncap
        for i in range(ncap):
            c = cap[i]
            rec[r + 1 + i] = c
            rec[r + 9 + i] = self._take(c)
        self._end_turn(player, dropped or ncap > 0 or self._donjon_owners() != before)

    def _countdown_allowed(self):
        # BE1: a side has 6 pieces or fewer left and the master is on the board
        return self._mcell >= 0 and (self.pieces_left(BLACK) <= 6
                                     or self.pieces_left(WHITE_P) <= 6)

    def _end_turn(self, player, eventful):
        """A turn of ``player`` is over: the submission countdown (BR6), the next side."""
        if self.sub_kind == SUB_COUNT:
            if eventful:
                self.sub_kind = SUB_NONE
                self.sub_n = 0
            elif player != self.sub_player:
                self.sub_n -= 1  # the opponent's move closes a round
        elif self.sub_kind == SUB_REFUSED and player == self.sub_player:
            self.sub_kind = SUB_NONE
        self.side = 1 - player

    def undo(self):
        if self.ply == 0:
            raise MoveError("nothing to undo: this is the start position")
        self.ply -= 1
        rec = self._h.pages[self.ply >> PAGE_SHIFT]
        r = (self.ply & PAGE_MASK) * _REC
        m = rec[r + _R_MOVE] | rec[r + _R_MOVE + 1] << 8
        if m < PASS and (m < DROP or (m & 0xFF00) != DECLARE):
            for i in range(rec[r] - 1, -1, -1):
                self._put(rec[r + 1 + i], rec[r + 9 + i])
            if m < DROP:
                f = m >> 8
                t = m & 255
                self._put(f, self._take(t))
            else:
                base = m & 0xFF00
                if base == DROP:
                    self._take(m & 255)
                    self.res_men += 1
                elif base == MDROP:
                    self._take(m & 255)
                    self.res_master = 1
        self.sub_kind = rec[r + _R_SUB]
        self.sub_player = rec[r + _R_SUB + 1]
        self.sub_n = rec[r + _R_SUB + 2]
        self.side = rec[r + _R_SIDE]
        self.pick = rec[r + _R_PICK] - 1

    # ----------------------------------------------------------------- for the board

    def occupancy(self, out):
        h = self.heights
        for c in range(N_CELLS):
            out[c] = 1 if h[c] else 0

    def footprint(self, m, lifted, added):
        """L(m) and A(m) of the legal move m (module docstring); returns (n_lifted, n_added).
        """
        # a drop (DROP, MDROP) that captures nothing, as most do: the board lists the
        # footprints of all ~400 drops after every move. Few locals here, and no further
        # Python call: a MicroPython function with a larger frame allocates it on the heap
        # at every call (216 us a move on the emulated Pico when this path had more of them)
        if DROP <= m < REMOTE and not _enemy_next_to(self.cells, m & 255, False):
            added[0] = m & 255
            return 0, 1
        return self._footprint(m, lifted, added)

    def _footprint(self, m, lifted, added):
        if m >= DECLARE:
            return 0, 0
        cap = self._cap
        n = self.captures_of(m, cap)
        if m < DROP:
            lifted[0] = m >> 8
            for i in range(n):
                lifted[1 + i] = cap[i]
            added[0] = m & 255
            return n + 1, 1
        if (m & 0xFF00) == REMOTE:
            lifted[0] = m & 255
            return 1, 0
        for i in range(n):
            lifted[i] = cap[i]
        added[0] = m & 255
        return n, 1

    def footprints(self, moves, n, inf):
        """Every legal move's footprint into the inference's buffers (docs/games.md): the
        drops that capture nothing in native code, the others one by one."""
        if _plain_drop_footprints(self.cells, moves, n, inf.fp, inf.fp_a, inf.n_l, inf.n_a,
                                  inf.touch_of, inf.btn_of):
            inf.buttons.append("master")  # (button 1 of the master drops above)
        n_l = inf.n_l
        for i in range(n):
            if n_l[i] == 255:
                inf.footprint_moves(self, i, i + 1)

    def button_of(self, m):
        """The button that picks m among moves of one footprint (docs/games.md): the master
        drop is a drop the board commits after the "master" button."""
        return "master" if is_master_drop(m) else ""

    def touch_cell(self, m):
        """The cell to lift and put back to choose m among moves of the same footprint: the
        Black donjon that faces the declared quadrant; -1 for every other move (a master drop
        is told from a plain one by the "master" button, ``is_master_drop``)."""
        if (m & 0xFF00) == DECLARE and m < PASS:
            return self.donjons[3 - (m & 255)]
        return -1

    def button_move(self, name):
        """The move the button ``name`` plays now (``BUTTONS``), or -1 when it is not legal."""
        m = BUTTONS.get(name, -1)
        if m < 0 or not self.is_legal(m):
            return -1
        return m

    # ----------------------------------------------------------------- moves as text (BN1)

    def _plain_text(self, m):
        if m >= PASS:
            return _SPECIAL_TEXT.get(m, "?")
        if m < DROP:
            return "%s-%s" % (cell_name(m >> 8), cell_name(m & 255))
        base = m & 0xFF00
        c = m & 255
        if base == DECLARE:
            return "!" + QUADRANT_NAMES[c] if c < 4 else "?"
        if c >= N_CELLS:
            return "?"
        if base == DROP:
            return "*" + cell_name(c)
        if base == MDROP:
            return "M*" + cell_name(c)
        return "!" + cell_name(c)

    def history_text(self, m):
        """BN1 text of a move already played, for the saved game: without its captures
        (they depend on the position before it; parse_move takes a move without them)."""
        return self._plain_text(m)

    def move_text(self, m):
        """BN1 text of m in this position (before it is played): captures follow, sorted."""
        text = self._plain_text(m)
        if m < REMOTE and self.is_legal(m):
            for name in self._sorted_captures(m):
                text += "x" + name
        return text

    def parse_move(self, text):
        """The legal move written ``text`` (BN1); raise MoveError saying why it is none.
        Captures may be left out; when written they must be the move's own."""
        t = text.strip()
        if not t:
            raise MoveError("empty move")
        if t in _TEXT_SPECIAL:
            m = _TEXT_SPECIAL[t]
        else:
            body = t
            caps = []
            if "x" in t:
                parts = t.split("x")
                body = parts[0]
                caps = parts[1:]
                for name in caps:
                    if parse_cell(name) < 0:
                        raise MoveError("'%s': '%s' is no square (a1-o15)" % (t, name))
            m = self._parse_body(body, t)
            why = self.why_illegal(m)
            if why is not None:
                raise MoveError(why)
            if caps:
                real = self._sorted_captures(m)
                caps.sort()
                if caps != real:
                    raise MoveError("'%s' captures %s, not %s (BC1-BC4)"
                                    % (self._plain_text(m), " ".join(real) or "nothing",
                                       " ".join(caps)))
            return m
        why = self.why_illegal(m)
        if why is not None:
            raise MoveError(why)
        return m

    def _parse_body(self, body, t):
        if body[:2] == "M*":
            c = parse_cell(body[2:])
            if c < 0:
                raise MoveError("'%s': '%s' is no square (a1-o15)" % (t, body[2:]))
            return MDROP + c
        if body[:1] == "*":
            c = parse_cell(body[1:])
            if c < 0:
                raise MoveError("'%s': '%s' is no square (a1-o15)" % (t, body[1:]))
            return DROP + c
        if body[:1] == "!":
            for q in range(4):
                if body[1:].upper() == QUADRANT_NAMES[q]:
                    return DECLARE + q
            c = parse_cell(body[1:])
            if c < 0:
                raise MoveError("'%s': '%s' is neither a square nor a quadrant" % (t, body[1:]))
            return REMOTE + c
        if "-" in body:
            a, _, b = body.partition("-")
            f = parse_cell(a)
            to = parse_cell(b)
            if f < 0 or to < 0:
                raise MoveError("'%s': '%s' is no square (a1-o15)" % (t, a if f < 0 else b))
            if f == to:
                raise MoveError("'%s': a move goes somewhere else (BM2)" % t)
            return (f << 8) | to
        raise MoveError("'%s' is no move: write *e5, M*e5, e5-e9, !k13, !SE, --, (s?), (s!),"
                        " (pass!) or (resign) (BN1)" % t)
