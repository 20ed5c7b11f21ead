"""Push buttons (``ok``, ``undo``, optionally ``hint``): debounced, short press, long press, and
ok+undo held together, as events in a small preallocated queue. Polled: call ``update(now_ms)``
every loop; no interrupts, no allocation.

Events (``kind``):

- ``SHORT``: pressed and released before ``long_ms``; sent at the release.
- ``LONG``: held for ``long_ms`` (default 1500 ms); sent once, while still held (the release
  then sends nothing).
- ``BOTH``: ``ok`` and ``undo`` held together for ``both_ms`` (default 1000 ms); sent once with
  name ``"both"``; those two presses then send no SHORT/LONG until both are released.

Usage::

    >>> from xobo.drivers.buttons import Buttons, SHORT, LONG, BOTH
    >>> btn = Buttons({"ok": ("GP26", 0), "undo": ("GP27", 0)})   # name -> (pin, active level)
    >>> ev = btn.new_event()
    >>> btn.update(1000)                    # (now, in ms) poll the pins: nothing pressed
    >>> while btn.get_into(ev):             # the presses, oldest first
    ...     kind, name, t = ev[0], ev[1], ev[2]
    >>> btn.held("ok")
    False
"""

from array import array

from xobo.compat import const, ticks_diff
from xobo.drivers.eventq import EventQueue

SHORT = const(1)
LONG = const(2)
BOTH = const(3)
KIND_NAMES = {SHORT: "short", LONG: "long", BOTH: "both"}

_ORDER = ("ok", "undo", "hint")


class ButtonsBase(EventQueue):
    """Debounce and gesture logic; subclasses provide ``_read(i) -> 1 while pressed``.

    Events queue as ``[kind, index into names or 255 for "both", ticks]``."""

    def __init__(self, names, long_ms=1500, both_ms=1000, stable_ms=20, queue=8):
        self.names = tuple(names)
        n = len(self.names)
        self.long_ms = long_ms
        self.both_ms = both_ms
        self.stable_ms = stable_ms
        self._cand = bytearray(n)
        self._since = array("i", [0] * n)
        self._down = bytearray(n)  # debounced state
        self._down_at = array("i", [0] * n)
        self._long_sent = bytearray(n)
        self._suppress = bytearray(n)  # part of a BOTH gesture: no SHORT/LONG
        self._both_sent = False
        self._iok = self.names.index("ok") if "ok" in self.names else -1
        self._iundo = self.names.index("undo") if "undo" in self.names else -1
        EventQueue.__init__(self, queue)

    def _read(self, i):  # overridden
        return 0

    def new_event(self):
        return [0, None, 0]

    def held(self, name):
        """Debounced: is ``name`` held down now?"""
        return bool(self._down[self.names.index(name)])

    def get_into(self, ev):
        """Move the oldest event into ``ev`` (``[kind, name, ticks]``); False if none."""
        if not EventQueue.get_into(self, ev):
            return False
        b = ev[1]
        ev[1] = "both" if b == 255 else self.names[b]
        return True

    def update(self, now_ms):
        for i in range(len(self.names)):
            v = 1 if self._read(i) else 0
            if v != self._cand[i]:
                self._cand[i] = v
                self._since[i] = now_ms
            elif v != self._down[i] and ticks_diff(now_ms, self._since[i]) >= self.stable_ms:
                self._down[i] = v
                if v:
                    self._down_at[i] = self._since[i]
                    self._long_sent[i] = 0
                else:
                    if not self._long_sent[i] and not self._suppress[i]:
                        self._push(SHORT, i, now_ms)
                    self._suppress[i] = 0
            if (self._down[i] and not self._long_sent[i] and not self._suppress[i]
                    and ticks_diff(now_ms, self._down_at[i]) >= self.long_ms):
                self._long_sent[i] = 1
                self._push(LONG, i, now_ms)
        a, b = self._iok, self._iundo
        if a >= 0 and b >= 0:
            if self._down[a] and self._down[b]:
                self._suppress[a] = 1
                self._suppress[b] = 1
                if not self._both_sent:
                    t0 = self._down_at[a]
                    if ticks_diff(self._down_at[b], t0) > 0:
                        t0 = self._down_at[b]
                    if ticks_diff(now_ms, t0) >= self.both_ms:
                        self._both_sent = True
                        self._push(BOTH, 255, now_ms)
            elif not self._down[a] and not self._down[b]:
                self._both_sent = False


class Buttons(ButtonsBase):
    """Real buttons on GPIOs: ``{name: (pin, active_level)}``; pull-ups/downs enabled to match.

    On MicroPython uses ``machine.Pin``; elsewhere (CircuitPython, Blinka) ``digitalio``."""

    def __init__(self, pins, long_ms=1500, both_ms=1000, stable_ms=20, pin_lookup=None):
        names = [n for n in _ORDER if n in pins] + sorted(n for n in pins if n not in _ORDER)
        ButtonsBase.__init__(self, names, long_ms, both_ms, stable_ms)
        self._active = bytearray(len(names))
        self._pins = []
        try:
            import machine

            use_machine = hasattr(machine, "Pin") and pin_lookup is None
        except ImportError:
            use_machine = False
        for k, name in enumerate(names):
            pin, active = pins[name]
            self._active[k] = 1 if active else 0
            if use_machine:
                num = int(pin[2:]) if isinstance(pin, str) and pin.startswith("GP") else pin
                pull = machine.Pin.PULL_DOWN if active else machine.Pin.PULL_UP
                self._pins.append(machine.Pin(num, machine.Pin.IN, pull))
            else:
                import digitalio

                if pin_lookup is None:
                    import board

                    def pin_lookup(name):
                        return getattr(board, name)

                p = digitalio.DigitalInOut(pin_lookup(pin))
                p.switch_to_input(pull=digitalio.Pull.DOWN if active else digitalio.Pull.UP)
                self._pins.append(p)
        self._machine = use_machine

    def _read(self, i):
        p = self._pins[i]
        v = p.value() if self._machine else int(p.value)
        return 1 if v == self._active[i] else 0
