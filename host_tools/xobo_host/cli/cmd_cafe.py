"""``xobo cafe``: every table's board on one host: the floor view, the tables' views, every
game recorded (docs/cafe.md).

It follows every board on the host's USB serial ports (the Pico's USB identity, and the
ports given with ``--port``), shows the floor on a local page, records every game of every
table into a SQLite file, and lets the staff (a password set at the first start) change a
table from the page.

Usage::

    xobo cafe                                   # http://127.0.0.1:8765/, ~/.local/share/xobo
    xobo cafe --host 0.0.0.0 --no-browser       # the floor on the café's own network
    xobo cafe --set-password                    # set (or change) the staff's password
    xobo cafe --port /dev/ttyUSB0 --db cafe.sqlite
    xobo cafe --cafe-name corner-cafe --broker broker.json --publish   # matches elsewhere
    xobo cafe --events-db events.sqlite        # the tournaments' file (docs/events.md)
"""

import getpass
import os
import signal
import sys
import threading
import webbrowser

from xobo_host.cli.argtypes import port, positive

DEFAULT_HTTP_PORT = 8765


def register(subparsers):
    p = subparsers.add_parser(
        "cafe", help="every table's board on one host: the floor view, records, staff controls",
        description="Follow every board on this host's USB serial ports: the floor view and "
        "each table's view on a local page, every game recorded in SQLite, the staff's "
        "controls behind a password (docs/cafe.md).")
    p.add_argument("--port", metavar="DEVICE", action="append", default=[],
                   help="a serial device to follow besides the Picos found (repeatable)")
    p.add_argument("--no-usb-scan", action="store_true",
                   help="follow only the --port devices, not every Pico found")
    p.add_argument("--db", metavar="FILE", default=None,
                   help="games database (default ~/.local/share/xobo/games.sqlite)")
    p.add_argument("--events-db", metavar="FILE", default=None,
                   help="the events' file (default: events.sqlite next to the database)")
    p.add_argument("--staff-file", metavar="FILE", default=None,
                   help="the staff's hashed password (default: staff.json next to the database)")
    p.add_argument("--set-password", action="store_true",
                   help="set the staff's password (asked on the terminal, or one line on stdin)"
                   " and exit")
    p.add_argument("--host", default="127.0.0.1",
                   help="address of the page (0.0.0.0: the café's network; never the internet)")
    p.add_argument("--http-port", type=port, default=DEFAULT_HTTP_PORT,
                   help="port of the page (default %d; 0: a free one)" % DEFAULT_HTTP_PORT)
    p.add_argument("--no-browser", action="store_true", help="do not open a web browser")
    p.add_argument("--poll-s", type=positive, default=2,
                   help="each board is read this often besides what it reports (default 2 s;"
                   " more for a host following a hundred boards)")
    g = p.add_argument_group("matches with other cafés (docs/remote.md)")
    g.add_argument("--cafe-name", metavar="NAME", default=None,
                   help="this café's name on the broker (1-32 letters, digits, '-', '_', '.'; "
                   "its user name there)")
    g.add_argument("--broker", metavar="FILE", default=None,
                   help="the MQTT broker's settings: a JSON file {host, port, tls, ca_file, "
                   "username, password}, readable by this user only")
    g.add_argument("--broker-host", metavar="ADDRESS", default=None,
                   help="the broker's address (instead of --broker; no password)")
    g.add_argument("--broker-port", type=port, default=None,
                   help="the broker's port (default 1883, 8883 with TLS)")
    g.add_argument("--broker-tls", action="store_true", help="connect to the broker with TLS")
    g.add_argument("--publish", action="store_true",
                   help="publish the floor live on the broker, for spectators elsewhere")
    p.set_defaults(func=run)


def _ask_password():
    if sys.stdin.isatty():
        first = getpass.getpass("Staff password (8 characters or more): ")
        again = getpass.getpass("Again: ")
        if first != again:
            raise ValueError("the two passwords differ")
        return first
    line = sys.stdin.readline()
    if not line:
        raise ValueError("no password on stdin")
    return line.rstrip("\n")


def _broker_settings(args):
    """The broker's settings from --broker FILE or --broker-host (None: no broker: matches
    between this café's own tables only). ValueError says what is wrong."""
    from xobo_host.cafe.broker import BrokerSettings, check_cafe_name

    if args.broker is None and args.broker_host is None:
        if args.publish:
            raise ValueError("--publish needs a broker (--broker FILE or --broker-host)")
        return None
    if not args.cafe_name:
        raise ValueError("a café on a broker needs its name there: --cafe-name NAME")
    check_cafe_name(args.cafe_name)
    if args.broker is not None:
        settings = BrokerSettings.from_file(args.broker)
    else:
        settings = BrokerSettings(args.broker_host, 1883, args.broker_tls)
    if args.broker_port is not None:
        settings.port = args.broker_port
    elif args.broker is None and args.broker_tls:
        settings.port = 8883
    settings.tls = settings.tls or args.broker_tls
    return settings


def run(args):
    if getattr(args, "own_command_line", False):  # a host for weeks: see cafe/allocator.py
        from xobo_host.cafe.allocator import restart_with_bounded_caches

        restart_with_bounded_caches()
    from xobo_host.cafe.floor import Floor
    from xobo_host.cafe.staff import Staff, StaffError
    from xobo_host.cafe.web import CafeServer
    from xobo_host.records.gamesdb import GamesDB, GamesDBError, default_db_path

    db_path = args.db or default_db_path()
    staff_path = args.staff_file or os.path.join(os.path.dirname(os.path.abspath(db_path)),
                                                 "staff.json")
    if args.set_password or not os.path.exists(staff_path):
        if not args.set_password and not sys.stdin.isatty():
            print("error: no staff password yet (%s): run 'xobo cafe --set-password'"
                  % staff_path, file=sys.stderr)
            return 1
        try:
            Staff.create(staff_path, _ask_password())
        except (StaffError, ValueError, OSError) as exc:
            print("error: %s" % exc, file=sys.stderr)
            return 1
        print("staff password set (%s, hashed)" % staff_path)
        if args.set_password:
            return 0
    try:
        staff = Staff.load(staff_path)
        GamesDB(db_path).close()  # made (or checked) before the tables record into it
    except (StaffError, GamesDBError) as exc:
        print("error: %s" % exc, file=sys.stderr)
        return 1
    try:
        broker = _broker_settings(args)
    except ValueError as exc:
        print("error: %s" % exc, file=sys.stderr)
        return 1
    floor = Floor(db_path, ports=args.port, scan_usb=not args.no_usb_scan,
                  poll_s=max(1, args.poll_s))
    from xobo_host.cafe.matches import MatchService

    matches = MatchService(floor, db_path, cafe=args.cafe_name or "cafe", broker=broker,
                           publish_floor=args.publish)
    from xobo_host.cafe.events.director import Director
    from xobo_host.cafe.events.store import StoreError

    events_path = args.events_db or os.path.join(os.path.dirname(os.path.abspath(db_path)),
                                                 "events.sqlite")
    try:
        director = Director(floor, events_path, matches=matches)
    except StoreError as exc:
        print("error: %s" % exc, file=sys.stderr)
        return 1
    stop = threading.Event()
    previous = {sig: signal.signal(sig, lambda *_: stop.set())
                for sig in (signal.SIGINT, signal.SIGTERM)}
    server = None
    try:
        try:
            server = CafeServer(floor, staff, db_path, host=args.host,
                                port=args.http_port, matches=matches,
                                director=director).start()
        except (OSError, OverflowError) as exc:
            print("error: cannot serve the page on port %d: %s" % (args.http_port, exc),
                  file=sys.stderr)
            return 1
        floor.start()
        matches.start()
        director.start()
        print("XoBo cafe: %s  (games in %s; Ctrl-C to stop)" % (server.url, db_path),
              flush=True)
        if not args.no_browser:
            webbrowser.open(server.url)
        stop.wait()
        return 0
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if server is not None:
            server.stop()
        matches.stop()
        director.stop()
        floor.stop()
