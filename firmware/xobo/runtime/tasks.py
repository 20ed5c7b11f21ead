"""The board's tasks on asyncio: the scan, the light, the watchdog and the serial line.

Usage::

    >>> from xobo.runtime.tasks import serve
    >>> from xobo.runtime.protocol import Protocol
    >>> from xobo.runtime.virtual_board import VirtualBoard
    >>> import io
    >>> app = VirtualBoard().app    # a booted App (xobo.runtime.device.run on the Pico)
    >>> out = io.StringIO()
    >>> serve(app, Protocol(app), io.BytesIO(b"set hints off\\n"), out)   # returns when stdin ends
    >>> print(out.getvalue())
    ok hints off
    <BLANKLINE>
"""

from xobo.compat import IS_MICROPYTHON, ticks_diff
from xobo.runtime.app import CYCLE_MS


def asyncio_module():
    """The asyncio module (uasyncio on a MicroPython older than 1.21)."""
    try:
        import asyncio
    except ImportError:
        import uasyncio as asyncio
    return asyncio


def _sleep_ms(asyncio, ms):
    if hasattr(asyncio, "sleep_ms"):
        return asyncio.sleep_ms(ms)
    return asyncio.sleep(ms / 1000)


def serve(app, proto, stdin=None, stdout=None):
    """Run the board's tasks (scan, light, watchdog, serial) until the end of input (never
    on the device)."""
    asyncio_module().run(run_tasks(app, proto, stdin, stdout))


async def run_tasks(app, proto, stdin=None, stdout=None):
    """The tasks: scan+debounce+infer every 10 ms, light every 20 ms, serial, watchdog. The
    serial task reads one byte per wake-up, so a host sending junk without a newline can
    never block the scan (the protocol drops overlong lines)."""
    import sys

    asyncio = asyncio_module()
    out = stdout or sys.stdout
    src = stdin or sys.stdin
    src = getattr(src, "buffer", src)

    def write(line):
        out.write(line + "\n")
        flush = getattr(out, "flush", None)
        if flush is not None:
            flush()

    proto.writer = write
    clock = app.d.clock
    stop = [False]
    alive = [0]

    # each task sleeps what is left of its period, so the scan runs every 10 ms (not 10 ms
    # after the end of the last one: 11.5 ms measured on the emulated Pico)
    async def scan_task():
        while not stop[0]:
            if app.restart_requested:  # (a game switch: its reply has been written)
                app.d.restart()
            t0 = clock.ticks_ms()
            app.scan(t0)
            alive[0] += 1
            left = CYCLE_MS - ticks_diff(clock.ticks_ms(), t0)
            await _sleep_ms(asyncio, left if left > 0 else 0)

    async def light_task():
        while not stop[0]:
            t0 = clock.ticks_ms()
            app.render(t0)
            left = 2 * CYCLE_MS - ticks_diff(clock.ticks_ms(), t0)
            await _sleep_ms(asyncio, left if left > 0 else 0)

    async def watchdog_task():
        # the scan feeds the watchdog each cycle; this task only keeps feeding while the
        # scan task makes progress (a hung scan then resets the board)
        seen = -1
        while not stop[0]:
            if alive[0] != seen:
                seen = alive[0]
                app.d.watchdog.feed()
            await _sleep_ms(asyncio, 1000)

    async def serial_task():
        if IS_MICROPYTHON:
            reader = asyncio.StreamReader(src)
            read = reader.read
        else:  # CPython (desktop runs): a blocking read in a worker thread
            loop = asyncio.get_running_loop()
            raw = getattr(src, "read1", None) or src.read

            async def read(n):
                return await loop.run_in_executor(None, raw, 256)

        while True:
            if app.restart_requested:  # what follows is for the board after its restart
                await _sleep_ms(asyncio, CYCLE_MS)
                continue
            data = await read(1)
            if not data:
                stop[0] = True  # end of input (desktop runs only)
                return
            if isinstance(data, str):
                data = data.encode()
            proto.feed(data)

    await asyncio.gather(scan_task(), light_task(), watchdog_task(), serial_task())
