"""The board's own identity: what a café host knows a table by, whatever its name or port.

A Pico answers with its flash chip's unique id (``machine.unique_id()``, 8 bytes), a
CircuitPython board with its chip's (``microcontroller.cpu.uid``); a board with neither (the
simulator, the serial stand-in, the unix port) draws 8 random bytes once and keeps them on its
own flash (``board.id``, written atomically), so the same flash is the same board after a
restart, and two stand-ins are two boards. A ``board.id`` that is not 16 hex digits (damaged,
written by hand) is drawn again: the board still answers.

Usage::

    >>> from xobo.runtime.boardid import board_id
    >>> from xobo.drivers.virtual import VirtualFlash
    >>> flash = VirtualFlash()          # (the app's: app.d.flash)
    >>> first = board_id(flash)         # 16 hex digits: '5f3a0c11d2e4b697'
    >>> len(first), board_id(flash) == first   # kept on the flash: the same board
    (16, True)
"""

ID_FILE = "board.id"
HEX = "0123456789abcdef"


def _hex(data):
    return "".join("%02x" % b for b in data)


def _chip_id():
    """The chip's unique id as hex, or '' on a board that has none (CPython: the simulator,
    the stand-in, a Raspberry Pi, whose Blinka ``microcontroller`` is no chip of ours)."""
    import sys

    if sys.implementation.name not in ("micropython", "circuitpython"):
        return ""
    try:
        import machine

        return _hex(machine.unique_id())
    except (ImportError, AttributeError, OSError):
        pass
    try:
        import microcontroller

        return _hex(microcontroller.cpu.uid)
    except (ImportError, AttributeError, OSError):
        return ""


def _valid(text):
    if len(text) != 16:
        return False
    for ch in text:
        if ch not in HEX:
            return False
    return True


def board_id(flash):
    """This board's id: 16 hex digits (the chip's, else kept on ``flash``)."""
    chip = _chip_id()
    if chip:
        return chip
    kept = ""
    if flash is not None:
        try:
            data = flash.read(ID_FILE)
            kept = data.decode().strip() if data else ""
        except (OSError, UnicodeError):
            kept = ""
    if _valid(kept):
        return kept
    from xobo.runtime.gameid import random_bytes

    new = _hex(random_bytes(8))
    if flash is not None:
        try:
            flash.write_atomic(ID_FILE, new.encode())
        except OSError:
            pass  # (a full or failing flash: this power-up's id, said the same till restart)
    return new
