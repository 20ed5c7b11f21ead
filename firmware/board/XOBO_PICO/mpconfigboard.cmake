# The XoBo board on a Raspberry Pi Pico (RP2040): an out-of-tree MicroPython board, built by
# `make firmware MICROPYTHON=path/to/micropython` (host_tools/xobo_host/device/firmware.py) with
#   make -C $(MICROPYTHON)/ports/rp2 BOARD_DIR=firmware/board/XOBO_PICO BUILD=build/firmware/...
set(PICO_BOARD "pico")
set(PICO_PLATFORM "rp2040")

# the Pico's pin names (GP0..GP28, LED) are MicroPython's own RPI_PICO ones
set(MICROPY_BOARD_PINS ${MICROPY_PORT_DIR}/boards/RPI_PICO/pins.csv)

# the port's modules (asyncio, neopixel, ...) and the board's firmware, frozen
set(MICROPY_FROZEN_MANIFEST ${MICROPY_BOARD_DIR}/manifest.py)

# the generated module with the board definitions (firmware.py writes it; see manifest.py)
set(MICROPY_MANIFEST_XOBO_GEN_DIR ${XOBO_GEN_DIR})
