"""Which ports may hold a board: a Pico's USB identity (vendor 0x2E8A) among the host's
serial ports, and the ports given by hand that exist."""

from types import SimpleNamespace

from xobo_host.cafe import discovery


def test_picos_are_found_by_their_usb_identity_and_given_ports_are_added(monkeypatch,
                                                                          tmp_path):
    ports = [SimpleNamespace(device=str(tmp_path / "ttyACM1"), vid=0x2E8A, pid=0x0005),
             SimpleNamespace(device=str(tmp_path / "ttyUSB0"), vid=0x0403, pid=0x6001),
             SimpleNamespace(device=str(tmp_path / "ttyS0"), vid=None, pid=None)]
    for p in ports:
        open(p.device, "w").close()
    from serial.tools import list_ports

    monkeypatch.setattr(list_ports, "comports", lambda: ports)
    assert discovery.pico_ports() == [ports[0].device]
    given = str(tmp_path / "pts-7")
    open(given, "w").close()
    gone = str(tmp_path / "unplugged")
    assert discovery.candidate_ports([given, gone, ports[0].device]) == [ports[0].device, given]
    assert discovery.candidate_ports([given], scan_usb=False) == [given]
