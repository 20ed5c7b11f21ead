"""The legend of the board's light colours, for the page: [{"name", "rgb", "meaning"}, ...].

The colours are the firmware's choice. They are read from the firmware's colour module
``xobo.runtime.colours`` (``RGB``, ``PATTERN``, ``PATTERN_NAMES`` by light code) and their
meanings from ``xobo.runtime.meanings``, else from the table in ``docs/colours.md`` (rows
holding a colour as ``#rrggbb`` or ``(r, g, b)``). Each item also has ``pattern`` (steady,
pulse, blink 1 Hz, ...) when known.

Usage::

    from xobo_host.sim.legend import legend
    for item in legend():
        print(item["name"], item["rgb"], item["meaning"])
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
