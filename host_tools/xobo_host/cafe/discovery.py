"""Which serial ports may hold a board: the host's USB serial ports whose USB identity is a
Raspberry Pi Pico's (vendor 0x2E8A, pyserial's ``serial.tools.list_ports``), and the ports
given by hand (``--port``: a board behind a USB-serial adapter of another vendor, or the
serial stand-in's pseudo-terminals in the tests). Whether a port is a board is the board's
own ``version`` reply's to say (``table.connect``).

Usage::

    >>> import os
    >>> from xobo_host.cafe.discovery import candidate_ports
    >>> master, stand_in = os.openpty()           # a pseudo-terminal, as the tests' boards use
    >>> port = os.ttyname(stand_in)
    >>> candidate_ports([port, "/dev/no-such-port"], scan_usb=False) == [port]  # those present
    True
    >>> # candidate_ports([port]) lists every Pico on USB first (pyserial's list_ports)
    >>> os.close(master); os.close(stand_in)
"""

import os

PICO_VID = 0x2E8A  # Raspberry Pi: MicroPython's USB serial on a Pico (product 0x0005)


def pico_ports():
    """The devices of the USB serial ports a Pico presents, sorted."""
    try:
        from serial.tools import list_ports
    except ImportError:  # pyserial is a dependency: only a broken install lacks it
        return []
    return sorted(p.device for p in list_ports.comports() if p.vid == PICO_VID)


def candidate_ports(explicit=(), scan_usb=True):
    """The Pico ports and the explicit ports that exist now (no duplicates, in order)."""
    out = []
    for device in (pico_ports() if scan_usb else []) + list(explicit):
        if device not in out and os.path.exists(device):
            out.append(device)
    return out
