"""``xobo monitor``: mirror a real board (USB serial) in the simulator's page, record its games.

It sends ``follow on``, reads the position and the game record whenever the board reports an
event, shows them in the same page as ``xobo sim`` (a read-only mirror), and records every game
it sees into a local SQLite file (``xobo records`` reads it).

Usage::

    xobo monitor --port /dev/ttyACM0
    xobo monitor --port /dev/ttyACM0 --db games.sqlite --no-browser --http-port 8766
"""

import signal
import sys
import threading
import webbrowser

from xobo_host.cli.argtypes import port, positive


def _guess_port():
    try:
        from serial.tools import list_ports
    except ImportError:
        return None
    for p in list_ports.comports():
        if (p.vid, p.pid) in ((0x2E8A, 0x0005), (0x2E8A, 0x000A)) or "ACM" in p.device:
            return p.device
    return None


def register(subparsers):
    p = subparsers.add_parser(
        "monitor",
        help="mirror a board over USB serial in the page and record its games",
        description="Follow a real board over USB serial: mirror it in a web page and record "
        "every game into a SQLite file.",
    )
    p.add_argument("--port", metavar="DEVICE", default=None,
                   help="serial device of the board (default: the first Pico found)")
    p.add_argument("--db", metavar="FILE", default=None,
                   help="games database (default ~/.local/share/xobo/games.sqlite)")
    p.add_argument("--http-port", type=port, default=0,
                   help="port of the page (default: free)")
    p.add_argument("--no-browser", action="store_true", help="do not open a web browser")
    p.add_argument("--baud", type=positive, default=115200,
                   help="baud rate (USB CDC ignores it)")
    p.set_defaults(func=run)


def run(args):
    from xobo_host.records.gamesdb import GamesDB, GamesDBError, Recorder, default_db_path
    from xobo_host.sim.monitor import LinkError, MonitorBackend, SerialLink
    from xobo_host.sim.server import SimServer

    device = args.port or _guess_port()
    if not device:
        print("error: no board found; give its serial device with --port",
              file=sys.stderr)
        return 1
    db_path = args.db or default_db_path()
    try:
        db = GamesDB(db_path)
    except GamesDBError as exc:
        print("error: %s" % exc, file=sys.stderr)
        return 1
    try:
        link = SerialLink.open(device, args.baud)
    except LinkError as exc:
        print("error: %s" % exc, file=sys.stderr)
        db.close()
        return 1
    # the board's own id (a game it resumes continues its record); '' from a board that
    # cannot say it (its records are then the port's)
    board_id = ""
    try:
        reply = link.command("id", timeout=10.0)  # (a board may still be booting)
        words = reply[0].split() if reply else []
        if len(words) == 3 and words[:2] == ["ok", "id"]:
            board_id = words[2]
    except LinkError as exc:
        print("error: %s" % exc, file=sys.stderr)
        link.close()
        db.close()
        return 1
    backend = MonitorBackend(link, recorder=Recorder(db, source=device, board_id=board_id),
                             device=device)
    try:
        backend.start()
    except LinkError as exc:
        print("error: %s" % exc, file=sys.stderr)
        link.close()
        db.close()
        return 1
    # Ctrl-C (or SIGTERM) asks for a clean stop at any instant, never a KeyboardInterrupt
    # raised in the middle of shutting the server, the link or the database down.
    stop = threading.Event()
    previous = {sig: signal.signal(sig, lambda *_: stop.set())
                for sig in (signal.SIGINT, signal.SIGTERM)}
    server = None
    try:
        try:
            server = SimServer(backend, port=args.http_port).start()
        except (OSError, OverflowError) as exc:  # a port in use; OverflowError past 65535
            print("error: cannot serve the page on port %d: %s" % (args.http_port, exc),
                  file=sys.stderr)
            return 1
        print("XoBo monitor: %s  (board %s, games in %s; Ctrl-C to stop)"
              % (server.url, device, db_path), flush=True)
        if not args.no_browser:
            webbrowser.open(server.url)
        while not stop.wait(0.5):
            if link.closed:
                print("error: %s" % (link.error or "the board went away"),
                      file=sys.stderr)
                return 1
        return 0
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if server is not None:
            server.stop()
        backend.stop()
        link.close()
        db.close()
