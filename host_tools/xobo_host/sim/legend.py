"""The legend of the board's light colours, for the page: [{"name", "rgb", "meaning"}, ...].

The colours are the firmware's choice. They are read from the firmware's colour module
``xobo.runtime.colours`` (``RGB``, ``PATTERN``, ``PATTERN_NAMES`` by light code) and their
meanings from ``xobo.runtime.meanings``, else from the table in ``docs/colours.md`` (rows
holding a colour as ``#rrggbb`` or ``(r, g, b)``). Each item also has ``pattern`` (steady,
pulse, blink 1 Hz, ...) when known.

Usage::

    >>> from xobo_host.sim.legend import legend
    >>> for item in legend()[:2]:
    ...     print(item["name"], item["rgb"], item["meaning"])
    steady 0072b2 North-South: its edges while it is to move
    steady e69f00 East-West: its edges while it is to move
"""

import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__)))))
_HEX = re.compile(r"#?\b([0-9a-fA-F]{6})\b")
_TUPLE = re.compile(r"\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)")


def _hex(r, g, b):
    return "%02x%02x%02x" % (int(r) & 255, int(g) & 255, int(b) & 255)


def from_colours_module():
    try:
        from xobo.runtime import colours
        from xobo.runtime.meanings import MEANINGS as meanings
    except ImportError:
        return []
    rgb = getattr(colours, "RGB", None)
    if not rgb or not meanings:
        return []
    patterns = getattr(colours, "PATTERN", ())
    pattern_names = getattr(colours, "PATTERN_NAMES", ())
    out = []
    for code in range(1, min(len(rgb), len(meanings))):
        meaning = meanings[code]
        if not meaning or meaning in ("off", "self-test") or not rgb[code]:
            continue
        pattern = ""
        if code < len(patterns) and patterns[code] < len(pattern_names):
            pattern = pattern_names[patterns[code]]
        r = rgb[code]
        out.append({"name": pattern or "light", "rgb": _hex(r >> 16, r >> 8, r),
                    "meaning": meaning, "pattern": pattern})
    return out


def from_module():
    items = from_colours_module()
    if items:
        return items
    for name in ("xobo.runtime.colours", "xobo.runtime.colors", "xobo.runtime.light"):
        try:
            mod = __import__(name, fromlist=["LEGEND"])
        except ImportError:
            continue
        items = getattr(mod, "LEGEND", None)
        if not items:
            continue
        out = []
        for item in items:
            try:
                label, rgb, meaning = item[0], item[1], item[2]
                if isinstance(rgb, int):
                    rgb = ((rgb >> 16) & 255, (rgb >> 8) & 255, rgb & 255)
                out.append({"name": str(label), "rgb": _hex(*rgb), "meaning": str(meaning)})
            except (TypeError, IndexError, ValueError):
                continue
        if out:
            return out
    return []


def from_markdown(text):
    """Rows of a markdown table that name a colour: the first cell is the name, the last
    non-colour cell the meaning."""
    out = []
    for line in text.splitlines():
        line = line.strip()
        if not line.startswith("|") or set(line) <= set("|-: "):
            continue
        cells = [c.strip().strip("`*") for c in line.strip("|").split("|")]
        rgb = None
        rest = []
        for c in cells:
            m = _TUPLE.search(c) or None
            h = _HEX.search(c) if m is None else None
            if rgb is None and m:
                rgb = _hex(*m.groups())
            elif rgb is None and h and not c.isdigit():
                rgb = h.group(1).lower()
            else:
                rest.append(c)
        if rgb is None or not rest:
            continue
        name = rest[0]
        meaning = " ".join(r for r in rest[1:] if r) or name
        out.append({"name": name, "rgb": rgb, "meaning": meaning})
    return out


def legend():
    items = from_module()
    if items:
        return items
    path = os.path.join(ROOT, "docs", "colours.md")
    try:
        with open(path, encoding="utf-8") as f:
            return from_markdown(f.read())
    except OSError:
        return []


# each game's own light codes carry its prefix (X_, CR_, BR_ of colours.py), or are named by
# its host module (XoBo's Voïna and regroup cells...): xobo.hostkit
_PLAYER_KINDS = ("PLAYER_CODES", "WIN_CODES", "OPP_CODES")
_PIECE_WORDS = {  # the meanings that speak of spreads and stacks, for a game of pieces
    "PUT": "put a piece here (the rest of the move in progress)",
    "TAKE": "take off (a piece the move in progress still takes or empties)",
    "ADJUST": "a piece to add or change on this cell (its switch cannot see it)",
}


def _player_words(kind, name):
    if kind == "PLAYER_CODES":
        return "%s: its pieces, and its edges while it is to move" % name
    if kind == "WIN_CODES":
        return "%s won: its winning pieces and its edges" % name
    return "edges: the computer now plays %s (hint held 1.5 s)" % name


def seen_pattern(C, code):
    """The pattern of light ``code`` as a player sees it, from the colour table: a steady
    light whose colour is a third of another code's (X's Green corner, GREEN_THIRD: bluish
    green's dim pattern belongs to XoBo) is seen dim, as the dim codes are."""
    pattern = C.PATTERN[code]
    rgb = C.RGB[code]
    if pattern == C.STEADY and rgb:
        for other in C.RGB:
            if other and other != rgb and all(
                    abs(((other >> s) & 255) // 3 - ((rgb >> s) & 255)) <= 6
                    for s in (16, 8, 0)):
                return C.PATTERN_NAMES[C.DIM]
    return C.PATTERN_NAMES[pattern]


def game_legend(app):
    """The legend of the game being played (``app``: the board's App): the board's own
    meanings and the game's, its players' colours named after its players (Light, Red,
    Black...), nothing of the other games. Items as ``legend()``'s, with ``code``."""
    from xobo import games, hostkit
    from xobo.runtime import colours as C
    from xobo.runtime.meanings import MEANINGS

    game = app.settings["game"]
    kit = hostkit.of(game)
    kits = [hostkit.of(g) for g in games.available()]
    prefixes = tuple(k.LIGHT_PREFIX[0] for k in kits if k.LIGHT_PREFIX)
    others_own = set(n for k in kits if k is not kit for n in k.LIGHT_NAMES)
    layers = app.layers
    names = {}  # code -> its name (the pattern constants share the small numbers)
    patterns = set(n.upper().replace(" ", "") for n in ("STEADY", "PULSE", "BLINK", "FAST",
                                                       "DOUBLE", "DIM", "SLOW"))
    for n in dir(C):
        v = getattr(C, n)
        if (n.isupper() and isinstance(v, int) and 0 < v < C.N_CODES
                and not n.startswith(("N_", "OPP_DOUBLE")) and n not in patterns):
            names[v] = n
    players = {}  # code -> words, for this game's players
    every_player_code = set()
    from xobo.runtime.layers import GameLayers

    for kind in _PLAYER_KINDS:
        for source in (GameLayers, layers):
            every_player_code.update(getattr(source, kind, ()))
        own = getattr(layers, kind, ())
        for k in range(min(len(own), len(app.names))):
            who = app.names[k]
            label = kit.PLAYER_LABELS[k] if kit.PLAYER_LABELS else who.capitalize()
            players.setdefault(own[k], _player_words(kind, label))
    prefix, head = kit.LIGHT_PREFIX or (None, "")
    out = []
    for code in range(1, C.N_CODES):
        n = names.get(code, "")
        meaning = MEANINGS[code] if code < len(MEANINGS) else ""
        if code in players:
            meaning = players[code]
        elif code in every_player_code:
            continue  # another game's player, or a third player this game has not
        elif prefixes and n.startswith(prefixes):
            if not prefix or not n.startswith(prefix):
                continue
            if meaning.startswith(head):  # the game is known here
                meaning = meaning[len(head):]
        elif n in others_own and n not in kit.LIGHT_NAMES:
            continue
        if not meaning or meaning == "off" or not C.RGB[code]:
            continue
        if kit.PIECE_WORD != "cubes":  # the board's own meanings, in the words of a game of pieces
            meaning = _PIECE_WORDS.get(n) or meaning.replace("cube(s)", "piece(s)").replace(
                "cubes", "pieces").replace("cube", "piece")
        pattern = seen_pattern(C, code)
        r = C.RGB[code]
        out.append({"name": pattern, "rgb": _hex(r >> 16, r >> 8, r), "meaning": meaning,
                    "pattern": pattern, "code": code})
    return out
