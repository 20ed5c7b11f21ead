"""The XoBo rules engine (docs/rules/xobo.md), for CPython and MicroPython alike.

Usage::

    >>> from xobo.games.xobo.rules.position import Position
    >>> from xobo.games.xobo.rules.notation import format_move, parse_move
    >>> import array
    >>> pos = Position()                       # the start, variant "xobo", NS to move
    >>> buf = array.array("H", bytes(2 * 1024))  # reusable move buffer (MAX_MOVES entries)
    >>> n = pos.legal_moves(buf)               # no allocation under MicroPython
    >>> m = parse_move("e5", pos)              # raises MoveError with a clear message
    >>> pos.apply(m)                           # M1-M4; pos.undo() takes it back exactly
    >>> pos.winner()                           # -1 while the game goes on, else NS (0) / EW (1)
    -1
    >>> pos.to_string().split("/")[4:]          # N3: the ranks, the side to move, the cubes
    ['....1....', '.........', '.........', '.........', '......... ew 35 0 0']

Modules:

- ``geometry``  B1-B4: cell indices and names, directions, neighbour and ray tables, edges.
- ``moves``     the small-int move encoding shared by everything.
- ``position``  ``Position``: heights in a bytearray, reserves, side to move, legal moves,
  apply/undo, Voina (V1-V4), result (E1-E4), winning chain, move footprints for the board.
- ``notation``  N1 move notation and N3 position strings.
- ``record``    N2 game records with tag lines.
- ``errors``    the exceptions (all subclasses of ValueError) with messages that say what is wrong.
"""
