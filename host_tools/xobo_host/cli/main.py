"""The ``xobo`` command: one CLI for the rules engine, the board, the simulator and the tools.

Each subcommand lives in its own module ``xobo_host.cli.cmd_<name>`` exposing
``register(subparsers)``; it adds its parser and sets ``func`` to a callable taking the parsed
arguments and returning an exit status.
"""

import argparse
import importlib
import sys

# name -> module; order is the order shown in --help
COMMANDS = (
    "rules",
    "board",
    "sim",
    "monitor",
    "cafe",
    "broker",
    "games",
    "records",
    "flash",
    "doctor",
    "selftest",
    "match",
)

EPILOG = """examples:
  xobo rules legal "$(xobo rules play e5 | cut -f2)"
  xobo rules play e5 d4 e4
  xobo rules --game x result 'POSITION'
  xobo match --game x --games 30
  xobo rules perft 2
  xobo board run --script game.txt --runtime micropython
  xobo sim
"""


class XoboArgumentParser(argparse.ArgumentParser):
    """argparse with the CLI's error format: the usage, then one line ``error: ...``
    (subcommand parsers are of this class too: add_subparsers uses the parent's class)."""

    def error(self, message):
        self.print_usage(sys.stderr)
        self.exit(2, "error: %s (%s --help for more)\n" % (message, self.prog))


def build_parser():
    parser = XoboArgumentParser(
        prog="xobo",
        description="XoBo board: rules engine, scripted board sessions, simulator and tools.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        try:
            module = importlib.import_module("xobo_host.cli.cmd_" + name)
        except ModuleNotFoundError as exc:
            if exc.name == "xobo_host.cli.cmd_" + name:
                continue  # command not built in this checkout
            raise
        module.register(sub)
    importlib.import_module("xobo_host.device.picocheck.command").register(sub)  # xobo pico-check
    return parser


def main(argv=None):
    own_command_line = argv is None
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["rules"]:  # every game's own rules CLI, its words as they are
        from xobo_host.cli import cmd_rules

        try:
            return cmd_rules.main(argv[1:])
        except BrokenPipeError:
            return 0
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    args.own_command_line = own_command_line  # this process's own (not a caller's list)
    try:
        return args.func(args) or 0
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
