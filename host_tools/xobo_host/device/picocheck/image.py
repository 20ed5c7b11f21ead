"""The files a Pico boots, as the device check gives them to the emulator: the firmware .uf2
checked, the bootrom checked, and a littlefs2 image of ``xobo flash``'s build at the RPI_PICO
flash layout.

MicroPython v1.28.0 rp2, board RPI_PICO: 2 MiB of flash, the last 1408 KiB of it (from flash
offset 0xA0000, XIP address 0x100A0000) are the filesystem: littlefs2 with 4096-byte blocks,
352 of them, read size 32, prog size 256 (``_boot.py`` mounts ``VfsLfs2(bdev, progsize=256)``),
lookahead 32 bytes, cache 1024 bytes (extmod/vfs_lfs.c), on-disk version 2.1.

Usage::

    >>> from pathlib import Path
    >>> from xobo_host.device.picocheck import image
    >>> build = Path("build/flash/pico_gpio")     # xobo flash's build (deploy.build), here two
    >>> build.mkdir(parents=True)                 # of its files
    >>> _ = (build / "main.py").write_text("import xobo.runtime.device")
    >>> _ = (build / "board.json").write_text("{}")
    >>> image.build_fs_image(build, "build/pico-check/fs.img")   # the files put in the image
    ['board.json', 'main.py']
    >>> Path("build/pico-check/fs.img").stat().st_size   # the RPI_PICO's filesystem, 1408 KiB
    1441792
    >>> image.check_bootrom("bootrom.bin")        # the RP2040's, 16 KiB (not in the repository)
    Traceback (most recent call last):
    ...
    xobo_host.device.picocheck.image.ImageError: bootrom file bootrom.bin does not exist (...)
    >>> _ = Path("RPI_PICO.uf2").write_bytes(b"not a uf2")
    >>> image.check_uf2("RPI_PICO.uf2")           # a good one: its blocks
    Traceback (most recent call last):
    ...
    xobo_host.device.picocheck.image.ImageError: RPI_PICO.uf2 is not a UF2 file: 9 bytes, ...
"""

import struct
from pathlib import Path

FLASH_START = 0x10000000
FLASH_SIZE = 2 * 1024 * 1024
FS_OFFSET = 0xA0000
BLOCK_SIZE = 4096
BLOCK_COUNT = 352
FS_SIZE = BLOCK_SIZE * BLOCK_COUNT  # 1408 KiB
LFS_CONFIG = dict(block_size=BLOCK_SIZE, block_count=BLOCK_COUNT, read_size=32, prog_size=256,
                  lookahead_size=32, cache_size=1024, block_cycles=100, name_max=255,
                  disk_version=0x00020001)

BOOTROM_SIZE = 16 * 1024
UF2_MAGIC = (0x0A324655, 0x9E5D5157, 0x0AB16F30)  # start 0, start 1, end
UF2_FAMILY_RP2040 = 0xE48BFF56
UF2_FLAG_NOT_MAIN_FLASH = 0x1
UF2_FLAG_FAMILY = 0x2000


class ImageError(Exception):
    """A firmware, bootrom or filesystem file that cannot be used; the message says why."""


def firmware_bytes(path):
    """The bytes of flash the .uf2 at ``path`` writes (its blocks' payloads; checked first
    with ``check_uf2``)."""
    data = Path(path).read_bytes()
    total = 0
    for off in range(0, len(data), 512):
        flags, _addr, size = struct.unpack_from("<3I", data, off + 8)
        if not flags & UF2_FLAG_NOT_MAIN_FLASH:
            total += size
    return total


def check_uf2(path):
    """The number of flash blocks in the RP2040 .uf2 at ``path``; raises ImageError when it is
    missing, not a UF2, for another chip, or writes outside the Pico's 2 MiB of flash or over
    the filesystem."""
    p = Path(path)
    if not p.is_file():
        raise ImageError("firmware file %s does not exist (download RPI_PICO .uf2 from "
                         "micropython.org, docs/device-check.md)" % p)
    data = p.read_bytes()
    if not data or len(data) % 512:
        raise ImageError("%s is not a UF2 file: %d bytes, not a multiple of 512"
                         % (p, len(data)))
    blocks = 0
    for off in range(0, len(data), 512):
        m0, m1, flags, addr, size, _n, _total, family = struct.unpack_from("<8I", data, off)
        (end,) = struct.unpack_from("<I", data, off + 508)
        if (m0, m1, end) != UF2_MAGIC:
            raise ImageError("%s is not a UF2 file: block %d has no UF2 magic numbers"
                             % (p, off // 512))
        if flags & UF2_FLAG_NOT_MAIN_FLASH:
            continue
        if flags & UF2_FLAG_FAMILY and family != UF2_FAMILY_RP2040:
            raise ImageError("%s is for another chip (UF2 family 0x%08x, the RP2040's is "
                             "0x%08x): use the RPI_PICO firmware" % (p, family,
                                                                    UF2_FAMILY_RP2040))
        if size > 476 or not FLASH_START <= addr <= FLASH_START + FLASH_SIZE - size:
            raise ImageError("%s writes %d bytes at 0x%08x, outside the Pico's 2 MiB flash "
                             "(0x%08x-0x%08x)" % (p, size, addr, FLASH_START,
                                                  FLASH_START + FLASH_SIZE))
        if addr + size > FLASH_START + FS_OFFSET:
            raise ImageError("%s reaches 0x%08x, into the filesystem at 0x%08x: it is not a "
                             "RPI_PICO (2 MiB) MicroPython firmware"
                             % (p, addr + size, FLASH_START + FS_OFFSET))
        blocks += 1
    if not blocks:
        raise ImageError("%s has no blocks for the main flash" % p)
    return blocks


def uf2_payload(path):
    """The bytes a .uf2 writes to the main flash, in address order (gaps left out)."""
    data = Path(path).read_bytes()
    blocks = []
    for off in range(0, len(data) - 511, 512):
        _m0, _m1, flags, addr, size = struct.unpack_from("<5I", data, off)
        if not flags & UF2_FLAG_NOT_MAIN_FLASH:
            blocks.append((addr, data[off + 32:off + 32 + size]))
    return b"".join(b for _, b in sorted(blocks))


FROZEN_MARK = b"xobo/runtime/app.py"  # a frozen module's name, as the image stores it


def has_frozen_firmware(path):
    """True when the .uf2 is the XoBo image (``make firmware``: the board frozen in), False
    for a stock MicroPython."""
    return FROZEN_MARK in uf2_payload(path)


def check_bootrom(path):
    """Raises ImageError unless ``path`` is a raw 16 KiB RP2040 bootrom."""
    p = Path(path)
    if not p.is_file():
        raise ImageError("bootrom file %s does not exist (docs/device-check.md says where to "
                         "get the RP2040 B1 bootrom)" % p)
    data = p.read_bytes()
    if len(data) != BOOTROM_SIZE:
        raise ImageError("%s is %d bytes: an RP2040 bootrom is a raw %d-byte file"
                         % (p, len(data), BOOTROM_SIZE))
    # the RP2040 bootrom has the magic "Mu\x01" at 0x10, then its version (1 = B0, 2 = B1,
    # 3 = B2) at 0x13 (RP2040 datasheet, "Bootrom contents")
    if data[0x10:0x13] != b"Mu\x01":
        raise ImageError("%s is 16 KiB but not an RP2040 bootrom (no 'Mu' magic at 0x10)" % p)


def build_fs_image(src_dir, out_path):
    """A littlefs2 image (exactly 1408 KiB) holding every file under ``src_dir`` at the same
    path from ``/``; returns the list of files written."""
    from littlefs import LittleFS

    src = Path(src_dir)
    if not src.is_dir():
        raise ImageError("no firmware build in %s" % src)
    fs = LittleFS(**LFS_CONFIG)
    written = []
    for f in sorted(src.rglob("*")):
        rel = f.relative_to(src).as_posix()
        if f.is_dir():
            fs.makedirs(rel, exist_ok=True)
            continue
        with fs.open(rel, "wb") as out:
            out.write(f.read_bytes())
        written.append(rel)
    data = bytes(fs.context.buffer)
    if len(data) != FS_SIZE:
        raise ImageError("littlefs image is %d bytes, expected %d" % (len(data), FS_SIZE))
    Path(out_path).parent.mkdir(parents=True, exist_ok=True)
    Path(out_path).write_bytes(data)
    return written
