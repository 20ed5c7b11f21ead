"""``xobo broker-setup``: a mosquitto configuration for a network of cafés (docs/remote.md,
"The broker"): logins, the access list that lets a café write only under its own name, TLS,
and each café's settings file for ``xobo cafe --broker``.

Usage::

    xobo broker-setup broker/ --cafe corner-cafe --cafe bar-du-port \\
        --address broker.example.org --tls-cert server.crt --tls-key server.key
    # then, on the broker's machine: mosquitto -c broker/mosquitto.conf
    # give broker/corner-cafe.broker.json to corner-cafe only: xobo cafe --broker FILE
"""

import sys

from xobo_host.cli.argtypes import port


def register(subparsers):
    p = subparsers.add_parser(
        "broker-setup", help="write a mosquitto configuration for a network of cafés",
        description="Write mosquitto.conf, its password file (mosquitto_passwd) and access "
        "list for a network of cafés, and each café's settings for xobo cafe --broker "
        "(docs/remote.md). Run again with more --cafe to add cafés: the others keep their "
        "passwords.")
    p.add_argument("directory", help="where to write (created if need be)")
    p.add_argument("--cafe", action="append", default=[], metavar="NAME", required=True,
                   help="a café's name on the broker, its user name (repeatable)")
    p.add_argument("--port", type=port, default=None,
                   help="the listener's port (default 1883, 8883 with TLS)")
    p.add_argument("--bind", default="0.0.0.0", help="the listener's address (default all)")
    p.add_argument("--address", default=None,
                   help="the name or address the cafés connect to (in their settings files)")
    p.add_argument("--tls-cert", metavar="FILE", help="the broker's TLS certificate")
    p.add_argument("--tls-key", metavar="FILE", help="its private key")
    p.add_argument("--tls-ca", metavar="FILE",
                   help="the CA that signed it, for the cafés (default: the system's)")
    p.add_argument("--user", default=None,
                   help="the user mosquitto runs as when started by root (default its own, "
                   "mosquitto)")
    p.add_argument("--no-persistence", action="store_true",
                   help="the broker keeps nothing across its restarts (tests)")
    p.add_argument("--open", action="store_true",
                   help="an open broker (anonymous clients write anywhere): a test network "
                   "only")
    p.set_defaults(func=run)


def run(args):
    from xobo_host.cafe.brokersetup import SetupError, write_config

    if bool(args.tls_cert) != bool(args.tls_key):
        print("xobo broker-setup: --tls-cert and --tls-key go together", file=sys.stderr)
        return 2
    tls = (args.tls_cert, args.tls_key) if args.tls_cert else None
    port = args.port or (8883 if tls else 1883)
    try:
        out = write_config(args.directory, args.cafe, port=port, bind=args.bind,
                           address=args.address, tls=tls, ca_file=args.tls_ca,
                           persistence=not args.no_persistence, open_network=args.open,
                           run_as=args.user)
    except SetupError as exc:
        print("xobo broker-setup: %s" % exc, file=sys.stderr)
        return 1
    print("broker configuration: %s (mosquitto -c %s)" % (out["conf"], out["conf"]))
    for cafe, path in out["cafes"].items():
        print("%s: %s (give it to that café only: xobo cafe --cafe-name %s --broker %s)"
              % (cafe, path, cafe, path))
    return 0
