"""Drivers: the board's hardware (rp2 GPIO matrix, WS2812 chain, buttons, flash, clock, watchdog)
and their virtual twins for the simulator and the tests.

Every driver runs under CPython 3.11 and MicroPython; hardware modules (``machine``, ``rp2``,
``neopixel``, ``board``, ``digitalio``) are imported lazily, inside the real drivers'
constructors, so importing a driver module never needs the hardware. Cells are indexed
``(rank-1)*9 + file`` (a1 = 0, i9 = 80) everywhere; the board definition (``boards/*.json``,
loaded by ``xobo.drivers.boarddef``) maps cells to switch keys and LED chain indices.

Usage (the app's main loop; the same code with the virtual drivers in the simulator)::

    >>> from xobo.drivers.boarddef import load, make_drivers
    >>> from xobo.drivers.virtual import make_virtual_drivers
    >>> bd = load("boards/pico_gpio.json")
    >>> d = make_drivers(bd)             # real drivers for bd.platform
    >>> d = make_virtual_drivers(bd)     # or their twins (below: a cube put on e5)
    >>> raw = bytearray(81)
    >>> ev = d.debouncer.new_event()     # [cell, occupied, ticks]
    >>> bev = d.buttons.new_event()      # [kind, name, ticks]
    >>> d.switches.put(40)
    >>> for cycle in range(10):          # while True:
    ...     now = d.clock.ticks_ms()
    ...     d.matrix.scan_into(raw)                 # undebounced occupancy, by cell, no allocation
    ...     if d.debouncer.update(raw, now):        # -> number of cells whose stable state changed
    ...         while d.debouncer.get_into(ev):      # oldest first
    ...             print(ev)                        # cell, occupied, ticks
    ...     d.buttons.update(now)
    ...     while d.buttons.get_into(bev):
    ...         kind, name, t = bev[0], bev[1], bev[2]   # kind: SHORT, LONG or BOTH (buttons.py)
    ...     d.leds.fill(0, 0, 0)
    ...     d.leds.set_cell(40, 255, 255, 255)
    ...     d.leds.set_edge("N", 0, 0, 80)
    ...     d.leds.show()                            # power-limited; masks interrupts ~3.5 ms
    ...     d.watchdog.feed()
    ...     d.clock.sleep_ms(5)
    [40, 1, 0]

The container ``Drivers`` (below) has the attributes ``matrix``, ``debouncer``, ``leds``,
``buttons``, ``clock``, ``watchdog``, ``flash`` and ``boarddef``; the virtual container also has
``switches`` (= ``matrix``, a ``VirtualSwitches``).

Interfaces (real class / virtual twin):

``matrix.SwitchMatrix`` / ``virtual.VirtualSwitches``
    ``scan_into(raw)``: fills ``raw`` (bytearray 81) with 0/1 occupancy by cell. No allocation.
    Real: 9 row outputs driven one at a time (active level ``row_active``), 9 column inputs read
    with a single read of SIO GPIO_IN (``machine.mem32[0xd0000004]``) on rp2. Virtual: holds the
    real cube count per cell ``counts`` (bytearray 81): ``put(cell, n=1)``, ``take(cell, n=1)``,
    ``lift(cell)`` (all cubes off), ``set_counts(heights)``, ``bounce(cell, now_ms, ms=4)``
    (chatters then settles), fault injection ``fault(cell, "open"|"closed"|"chatter"|None)``,
    ``dead_row(row)`` (a matrix row wire broken).

``debounce.Debouncer(n=81, stable_ms=20, queue=64)``
    ``update(raw, now_ms) -> changed_count``; ``stable`` (bytearray n, 0/1); ``prime(raw)``
    (take ``raw`` as the stable state without events, at power-up); change events in a ring
    buffer: ``new_event()`` -> ``[0, 0, 0]``, ``get_into(ev) -> bool`` fills ``[cell, occupied,
    ticks_when_the_raw_change_began]``; ``pending()``; ``overflows`` (events dropped). A change
    counts once the raw value has stayed the same for ``stable_ms``. No allocation.

``leds.LedChain`` (MicroPython ``neopixel``) / ``leds_circuitpython.LedChainCP``
(adafruit-circuitpython-neopixel, CircuitPython and Blinka) / ``virtual.VirtualLeds``
    Common base ``leds.LedFrame``: ``count``, ``set(index, r, g, b)`` (chain index),
    ``set_cell(cell, r, g, b)``, ``set_edge(side, r, g, b)`` (side "N", "S", "E", "W": every LED
    of that edge), ``set_edge_led(side, k, r, g, b)``, ``fill(r, g, b)``, ``clear()``,
    ``brightness`` (0..255, global), ``show()`` (applies the power limiter, then writes),
    ``frame`` (bytearray 3*count, RGB, before limiting), ``last_scale`` (0..256), ``last_ma``.
    ``leds.PowerLimiter(count, budget_ma=500, ma_per_channel=20, idle_ma_per_led=1,
    base_ma=50)``: ``scale_for(frame) -> 0..256`` (256 = full), ``estimate_ma(frame, scale)``;
    integer math, no allocation. Virtual: ``shown`` (bytearray RGB after the limiter),
    ``cell_rgb(cell) -> (r, g, b)``, ``edge_rgb(side) -> [(r, g, b), ...]``, ``frames``.

``buttons.Buttons`` / ``virtual.VirtualButtons``
    Names ``ok``, ``undo`` and optionally ``hint``. ``update(now_ms)`` polls (debounce
    ``stable_ms=20``); events ``SHORT`` (released before ``long_ms``), ``LONG`` (held
    ``long_ms``, default 1500 ms, sent once while still held), ``BOTH`` (ok and undo held
    together ``both_ms``, default 1000 ms; those presses then give no SHORT/LONG);
    ``new_event()`` -> ``[0, None, 0]``, ``get_into(ev) -> bool`` fills ``[kind, name, ticks]``;
    ``held(name) -> bool`` (debounced). Virtual: ``press(name)``, ``release(name)``,
    ``hold(name, ms)`` (released when virtual time reaches now + ms), ``click(name)``.

``clock.Clock`` / ``virtual.VirtualClock``
    ``ticks_ms()``, ``ticks_diff(a, b)``, ``ticks_add(t, ms)``, ``sleep_ms(ms)``. Virtual:
    ``advance(ms)``; ``sleep_ms`` advances virtual time; ``VirtualClock(realtime=True)`` follows
    the host's clock instead (simulator).

``watchdog.Watchdog(timeout_ms=8000)`` / ``watchdog.NullWatchdog`` / ``virtual.VirtualWatchdog``
    ``feed()``. Real: ``machine.WDT`` (rp2 max 8388 ms; cannot be stopped once started).
    Virtual: ``feeds`` count, ``expired() -> bool`` (virtual time since the last feed >
    timeout), ``resets``.

``flash.Flash(root="")`` / ``virtual.VirtualFlash``
    ``read(name) -> bytes or None``, ``write_atomic(name, data)`` (writes ``name.tmp`` then
    ``os.rename``), ``remove(name)``, ``exists(name)``, ``listdir()``. Virtual: an in-memory
    directory; ``cut_after(n_ops)`` arms a power cut that raises ``PowerCut`` at the n-th
    primitive operation (create, write of a chunk - cut half-way -, rename, remove), leaving
    whatever a real flash would hold; ``ops`` counts primitive operations;
    ``cut_after_bytes(n)`` cuts after n more bytes of data. Flash writes on the
    Pico stall both cores with interrupts masked (tens of ms per erased sector): never write
    inside the scan timing; the app saves after a commit, between scans.

Saved game and settings: ``xobo.runtime.storage`` (``SavedGame``, ``Settings``) on a ``flash``.
Self-test mode: ``xobo.runtime.selftest.SelfTest``.
"""


class Drivers:
    """The set of drivers the app uses; built by ``make_drivers`` or ``make_virtual_drivers``."""

    def __init__(self, boarddef=None, matrix=None, debouncer=None, leds=None, buttons=None,
                 clock=None, watchdog=None, flash=None, restart=None):
        self.boarddef = boarddef
        self.matrix = matrix
        self.debouncer = debouncer
        self.leds = leds
        self.buttons = buttons
        self.clock = clock
        self.watchdog = watchdog
        self.flash = flash
        self.restart = restart  # restarts the interpreter (``machine.soft_reset``), or None
