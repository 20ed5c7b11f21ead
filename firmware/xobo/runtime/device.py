"""Power-up on the Pico (``firmware/main.py``): build the board in an order that keeps the heap
in one piece, start the watchdog once the board is built, run the main loop.

On a stock MicroPython firmware the ``.mpy`` files are loaded into RAM, and the ~25 modules the
board imports take about half of the RP2040's ~240 KB heap. They also leave the free heap in
pieces: measured on an emulated Pico, after the imports 117 KB were free but the largest free
block was 9 KB, and the app's first large buffer (9 KB of move footprints) failed. Hence, here:

1. collect, load the board definition, collect;
2. make the largest buffers (the move inference) while the free heap is still one block;
3. import the rest, collecting after each step, and build the app;
4. only then start the hardware watchdog: a board that cannot boot says why on the serial
   console (and stays at the REPL) instead of resetting every 8 s forever.

Usage (what ``firmware/main.py`` does)::

    >>> from xobo.runtime import device
    >>> import tempfile
    >>> app = device.build("boards/pico_gpio.json", watchdog_ms=0, flash_root=tempfile.mkdtemp())
    >>> app.settings["game"]               # the boot of device.run() (which never returns)
    'xobo'
"""

import gc
import os

from xobo.compat import forget_module, mem_free

WATCHDOG_MS = 8000


def build(path="board.json", watchdog_ms=WATCHDOG_MS, flash_root="", default=None,
          resume=True):
    """The board's :class:`xobo.runtime.app.App`, built from the board definition at ``path``
    (raises ``xobo.drivers.boarddef.BoardDefError`` saying what is wrong with it), or from the
    JSON text ``default`` when there is no file at ``path`` (the frozen image's definition).
    ``resume=False``: the saved game is left on the flash and a new game starts (the boot
    after one that ran out of memory, ``run``)."""
    gc.collect()
    from xobo.drivers import boarddef

    bd = boarddef.load(path) if default is None or _exists(path) else boarddef.parse(default)
    gc.collect()
    from xobo.runtime.inference import Inference

    # the largest buffers, while the free heap is one block: sized for the board's cells and
    # XoBo's moves (the app makes its own when the game needs more)
    inference = Inference(bd.n_cells, 9, 1024)
    gc.collect()
    drivers = boarddef.make_drivers(bd, watchdog_ms=0, flash_root=flash_root)
    gc.collect()
    # the code the running board needs (the serial protocol, asyncio) before the saved game is
    # resumed: code first, data last. A saved game too long for the heap then fails where it
    # is resumed, which falls back to a new game and says so, never after it in an import,
    # which would fail at every power-up (a 1,999-segment Chain Reaction game on the 15x15
    # board once left too little for the protocol's import)
    from xobo.runtime import protocol  # noqa: F401
    from xobo.runtime.app import App
    from xobo.runtime.tasks import asyncio_module

    asyncio_module()
    # the definition's checking code is needed only until now: the running board keeps what
    # it uses, and the module (about 8 KB of bytecode on a stock firmware) goes before the
    # saved game is resumed (the longest Chain Reaction game on the 15x15 board needs it)
    drivers.boarddef = BoardSummary(bd)
    bd = boarddef = None
    forget_module("xobo.drivers.boarddef")
    gc.collect()
    # lean: the AI's buffers are dropped after each search, the code that loads games (and
    # reads the saved game and the settings) is unloaded after use, from the boot on
    app = App(drivers, inference=inference, resume=resume, lean=True)
    if app.settings["opponent"] != "off":
        try:
            app.computer_player().load()  # the computer plays: its code now, not at its first turn
        except MemoryError:  # (its first turn imports it again, and recovers if it must)
            gc.collect()
    if watchdog_ms:
        from xobo.drivers.watchdog import make

        drivers.watchdog = make(drivers.boarddef.platform, watchdog_ms)
    gc.collect()
    return app


class BoardSummary:
    """What the running board keeps of its board definition (``xobo.drivers.boarddef.BoardDef``
    is unloaded after the boot): its name and platform, the switch keys of the cells (the
    self-test) and the buttons."""

    def __init__(self, bd):
        self.name = bd.name
        self.platform = bd.platform
        self.cell_of_key = bd.cell_of_key
        self.buttons = bd.buttons
        self.width = bd.width
        self.height = bd.height
        self.n_cells = bd.n_cells
        self.led_edges = bd.led_edges
        self.gestures = bd.gestures

    def button_names(self):
        return sorted(self.buttons)



def _booted(path, default, resume):
    app = build(path, default=default, resume=resume)
    from xobo.runtime.protocol import Protocol

    return app, Protocol(app)


def _exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def run(path="board.json", default=None):
    """Boot and serve the board for ever. A broken board definition or a failed boot is
    reported on the serial console and the Pico stays at the REPL; Ctrl-C (the REPL,
    ``mpremote``) stops the watchdog so that a session there is not reset; any other
    exception leaves the watchdog running, so a crashed board restarts within 8 s and
    resumes the saved game."""
    from xobo.drivers.boarddef import BoardDefError

    try:
        app, proto = _booted(path, default, True)
    except BoardDefError as exc:
        print("xobo: %s" % exc)
        print("xobo: fix it with: xobo flash --board NAME")
        return None
    except MemoryError:
        # whatever ran out (a saved game, a setting's game), the board boots again without
        # resuming the saved game: never a boot that fails at every power-up
        app = proto = None
        gc.collect()
        free = mem_free()
        try:
            app, proto = _booted(path, default, False)
        except MemoryError:
            gc.collect()
            print("xobo: out of memory while booting (%d bytes free): the firmware on the "
                  "flash is larger than this MicroPython leaves room for" % mem_free())
            return None
        # the boot note says so (serial ``boot``, and the board's words until the game goes on)
        app.told("saved game not resumed: out of memory at power-up (%d bytes free); "
                 "new game" % free, True)
        print("xobo: " + app.note)
    from xobo.runtime.tasks import serve

    gc.collect()
    try:
        serve(app, proto)
    except KeyboardInterrupt:
        from xobo.drivers.watchdog import disable

        disable()
        print("xobo: stopped (watchdog off until the next reset)")
    return app
