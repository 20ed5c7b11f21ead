"""The XoBo image's entry point (frozen; MicroPython runs a frozen main.py before looking at the
filesystem).

The development path stays open: when the filesystem has a ``main.py`` (``xobo flash`` put one
there, with its ``xobo/`` package and ``board.json``), that one runs, and its imports find the
filesystem's ``xobo`` before the frozen one (``sys.path`` is ``['', '.frozen', '/lib']`` on
rp2). Otherwise the frozen firmware boots with the filesystem's ``board.json`` if there is one
(another wiring), else the board definition frozen into the image (``make firmware BOARD=...``).
The settings and saved games are on the filesystem either way.
"""

import gc
import os


def _exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


gc.collect()
if _exists("main.py"):
    with open("main.py") as _f:
        _source = _f.read()
    exec(_source, {"__name__": "__main__"})
else:
    from xobo_image import BOARD_JSON

    from xobo.runtime import device

    device.run("board.json", default=BOARD_JSON)
