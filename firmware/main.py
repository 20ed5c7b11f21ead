"""Device entry point (copied to the Pico's flash root by ``xobo flash``).

Boots the board from ``board.json`` (the board definition chosen at flash time) with
``xobo.runtime.device.run``, which says on the serial console what is wrong when the board cannot
boot, and stops the watchdog on Ctrl-C. Kept tiny: the Pico compiles this file from source at
every boot.
"""

import gc

gc.collect()
from xobo.runtime import device  # noqa: E402  (after the collection: the heap in one piece)

device.run()
