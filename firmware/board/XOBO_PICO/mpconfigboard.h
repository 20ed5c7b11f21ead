// The XoBo board on a Raspberry Pi Pico: MicroPython's RPI_PICO with the board's firmware
// frozen into the image (docs/deploy.md). The filesystem is the stock RPI_PICO one (1408 KiB
// of littlefs from flash offset 0xA0000), so the settings and saved games on it survive a
// change between the stock firmware and this image, in either direction.
#define MICROPY_HW_BOARD_NAME                   "XoBo board (Raspberry Pi Pico)"
#define MICROPY_HW_FLASH_STORAGE_BYTES          (1408 * 1024)
