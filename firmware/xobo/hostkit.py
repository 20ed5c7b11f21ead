"""What the host knows of every game beyond the game interface, from the game's own host module
(``xobo.games.<name>.host``, never on the device: docs/games.md, "The host module"), with the
defaults a game leaves out. The simulator, the monitor, the diagrams and the test kits ask here
and hold no game's name.

A host module may give:

- ``PIECES``: the pieces of the game's set when the page counts them (XoBo's 36 cubes), else
  ``None``; ``PIECE_WORD``: what a player calls them (``"cubes"``; default ``"pieces"``);
- ``CELL_HOLDS``: ``(most pieces a cell holds, the rule that says so)``, ``None``: no limit;
- ``hands(pos, m) -> [(what, cell, n)]``: move ``m`` of ``pos`` as a player's hands do it
  (``"put"`` one piece, ``"lift"`` a cell's pieces into the hand, ``"take"`` ``n`` off); the
  default reads the footprint from the heights before and after the move;
- ``draw(app, name) -> dict``: what the simulator's page draws beyond the LEDs and the counts
  (``xobo_host.sim.backend.game_drawing`` documents the fields);
- ``LIGHT_PREFIX``: ``(code prefix, words head)`` of the game's own light codes in
  ``xobo.runtime.colours`` and their meanings (``("X_", "X: ")``); ``LIGHT_NAMES``: its codes
  without a prefix (XoBo's ``VOINA``...); ``PLAYER_LABELS``: its players in the legend's words
  (default: the names, capitalized): the page's colour legend;
- ``LADDER``: ``(settings words, max plies, UCT rungs, games a rung)`` of its strength ladder
  in ``make bench`` (``xobo_host.bench.ladder``; default: its own defaults);
  ``RULES_BENCH``, ``AI_BENCH``: the modules of its bench kernels for both runtimes (``python
  -m``; ``xobo_host.bench.run``, ``xobo_host.bench.ai``: the rules print ``BENCH name us heap``
  lines, the computer ``BENCH name us heap nodes`` lines and with ``gap`` ``GAP name us``
  lines; default: ``None``, no table); the device check (``xobo_host.device.picocheck``) sweeps the
  hints over the ``POSITIONS`` of its ``AI_BENCH`` module when the board starts with the game
  (default: its computer's game at plies 0-40); ``CHECK_MIDDLE``: the middle-game position
  (its text) of the check's computer's move then (default: its computer's after 20 plies);
  ``BOARD_BENCH``: ``(position, hands, pulsing position)`` of ``make bench``'s board cycle
  when the board starts with the game (``xobo.runtime.bench``: idle in the position, with
  the hands ``(("lift"|"put", board cell), ...)`` done, and in a position whose cells pulse;
  default: its start position only);
- ``record_settings(rec) -> {key: value}``: the game's settings a record of its record module
  was played with (the simulator sets them to replay it; default: ``first``, the player to move
  at the record's start);
- ``piece_set(game) -> (highest stack, pieces, why)``: the pieces a table stocks for it
  (``hardware/pieces.py``; default: one piece a cell, never moved, the largest area filled);
- ``overlay_marks(game, pos, place, sheet, out)``: what its overlay for the glass shows besides
  the grid (``hardware/overlay.py``; default: nothing), ``OVERLAY_VARIANTS``: the setting
  that moves the marks (every value of its range but the default's has an overlay of its
  own); ``OWN_OVERLAY_BOARDS``: the boards where the game's default overlay is drawn apart,
  by ``own_overlay_svg(game, settings, sheet) -> SVG text`` (X's ``x_overlay.svg``);
- ``RESULT_WORDS``: ``{how: words}``, how a game ends in the simulator page's words, with the
  rules they cite (``how``: the board layer's result text after the winner; ``{winner}`` and
  ``{loser}`` are the players' labels); ``NOTATION_RULES``: the rule numbers of its record and
  position notation, ``(record, position)`` (XoBo's N2, N3; default: none shown);
  ``RESERVES``: the page shows the reserves of the state's ``reserves`` (XoBo's common and
  own cubes; default: no);
- ``LESSON_SHOT``: ``(lesson, board)``, the lesson of its course photographed for the docs
  (``xobo_host.sim.screenshot --learn``; default: the first, on the 9 x 9 board);
- ``FLOOR_SHOT``: the cells put, one piece each in turn, on its table in the café floor's
  picture (docs/cafe-floor.png, ``xobo_host.cafe.screenshot``); default: ``()``, no table.

Usage (host only, either runtime)::

    >>> from xobo import hostkit
    >>> from xobo.games import load
    >>> kit = hostkit.of("x")
    >>> kit.PIECES, kit.PIECE_WORD, kit.CELL_HOLDS    # None: the page's default
    (None, 'pieces', (1, 'a cell holds one piece (XM1)'))
    >>> pos = load("x").new_position({})
    >>> m = pos.parse_move("d5")
    >>> for what, cell, n in kit.hands(pos, m): print(what, cell, n)
    put 35 1
"""


def footprint_hands(pos, m):
    """Any game's move as hand actions, from the heights before and after it: the cells it
    empties are lifted, the cells it fills get their pieces, the rest is taken off; a move told
    apart from others of its footprint by its touch cell gets that cell lifted and put back
    (docs/games.md)."""
    before = bytes(pos.heights)
    after = pos.clone()
    after.apply(m)
    lifts, puts, takes = [], [], []
    for g in range(len(before)):
        h0, h1 = before[g], after.heights[g]
        if h0 and not h1:
            lifts.append(("lift", g, 0))
        elif h1 > h0:
            puts += [("put", g, 1)] * (h1 - h0)
        elif h1 < h0:
            takes.append(("take", g, h0 - h1))
    out = lifts + puts + takes
    touch = pos.touch_cell(m)
    if touch >= 0 and after.heights[touch]:
        out += [("lift", touch, 0)] + [("put", touch, 1)] * after.heights[touch]
    return out


def _max_area(game):
    """The largest (width, height) over the game's whole-number settings that change its
    area."""
    best = game.area(game.DEFAULTS)
    for key, values in game.SETTINGS.items():
        if isinstance(values, tuple) and len(values) == 2 and all(
                isinstance(v, int) for v in values):
            for v in range(values[0], values[1] + 1):
                w, h = game.area(dict(game.DEFAULTS, **{key: v}))
                if w * h > best[0] * best[1]:
                    best = (w, h)
    return best


def filling_piece_set(game):
    """The default piece set: each player puts pieces until the area is full, never moving
    them; the first mover places ceil(cells / players), and any player may be first, so
    each colour needs that many (X's XB5, the test game's TB2)."""
    from xobo.runtime import colours

    w, h = _max_area(game)
    cells = w * h
    each = -(-cells // game.PLAYERS)
    from xobo.games import part

    codes = part(game, "board").Layers.PLAYER_CODES
    assert tuple(game.SETTINGS.get("first", ())) == tuple(game.PLAYER_NAMES)
    dw, dh = game.area(game.DEFAULTS)
    default = [-(-(dw * dh - i) // game.PLAYERS) for i in range(game.PLAYERS)]
    return 1, [{"owner": p, "rgb": colours.RGB[codes[i]], "count": each, "shape": "cube"}
               for i, p in enumerate(game.PLAYER_NAMES)], (
        "one piece a cell, never moved; the largest area (%dx%d, %d cells) filled, the first "
        "mover placing %d, and any colour may move first (the default %dx%d: %s in turn "
        "order)" % (w, h, cells, each, dw, dh, "/".join(str(n) for n in default)))


class HostKit:
    """The host module of game ``name``, its defaults filled in."""

    def __init__(self, name, module):
        self.name = name
        self.module = module
        self.PIECES = getattr(module, "PIECES", None)
        self.PIECE_WORD = getattr(module, "PIECE_WORD", "pieces")
        self.CELL_HOLDS = getattr(module, "CELL_HOLDS", None)
        self.draw = getattr(module, "draw", None)
        self.hands = getattr(module, "hands", footprint_hands)
        self.LIGHT_PREFIX = getattr(module, "LIGHT_PREFIX", None)
        self.LIGHT_NAMES = getattr(module, "LIGHT_NAMES", ())
        self.PLAYER_LABELS = getattr(module, "PLAYER_LABELS", None)
        self.LADDER = getattr(module, "LADDER", None)
        self.STRENGTH = tuple(getattr(module, "STRENGTH", ()))
        self.RULES_BENCH = getattr(module, "RULES_BENCH", None)
        self.AI_BENCH = getattr(module, "AI_BENCH", None)
        self.CHECK_MIDDLE = getattr(module, "CHECK_MIDDLE", None)
        self.BOARD_BENCH = getattr(module, "BOARD_BENCH", None)
        self.FLOOR_SHOT = tuple(getattr(module, "FLOOR_SHOT", ()))
        self.piece_set = getattr(module, "piece_set", filling_piece_set)
        self.overlay_marks = getattr(module, "overlay_marks", None)
        self.OVERLAY_VARIANTS = getattr(module, "OVERLAY_VARIANTS", None)
        self.OWN_OVERLAY_BOARDS = getattr(module, "OWN_OVERLAY_BOARDS", ())
        self.own_overlay_svg = getattr(module, "own_overlay_svg", None)
        self.LESSON_SHOT = getattr(module, "LESSON_SHOT", (1, "pico_gpio"))
        self.RESULT_WORDS = getattr(module, "RESULT_WORDS", {})
        self.NOTATION_RULES = getattr(module, "NOTATION_RULES", None)
        self.RESERVES = getattr(module, "RESERVES", False)
        own = getattr(module, "record_settings", None)
        if own is not None:
            self.record_settings = own

    def record_settings(self, rec):
        """The default: only ``first``, the player to move at the record's start."""
        from xobo.games import load

        return {"first": load(self.name).PLAYER_NAMES[rec.start_position().side]}


_KITS = {}


def of(name):
    """The host kit of game ``name`` (a game without a host module gets every default)."""
    kit = _KITS.get(name)
    if kit is None:
        from xobo.games import load, part

        game = load(name)
        module = part(game, "host") if "host" in game.PARTS else None
        kit = _KITS[name] = HostKit(name, module)
    return kit
