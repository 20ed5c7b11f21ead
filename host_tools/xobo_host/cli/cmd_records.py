"""``xobo records``: the games ``xobo monitor`` and ``xobo cafe`` recorded in the local SQLite
file, every game.

Usage::

    xobo records list                      # id, game, date, result, moves, table, parameters
    xobo records list --table terrace-3 --game xobo --date 2026-11-26
    xobo records show 3                    # the moves with their times
    xobo records export 3 --out game3.txt  # the game's record, checked by its rules engine
    xobo records export 3 --db other.sqlite

Options go anywhere after ``records`` (``--db`` before or after the action). ``--table``
finds a table's games by the name they were played under or by the board's current name
(a table renamed keeps its records: docs/cafe.md, "Records"). It only reads the file (a
read-only one too). A file that is locked, damaged, not SQLite or another program's database
is an ``error: ...`` line that says so, never a traceback.
"""

import argparse
import os
import sys

from xobo_host.cli import argtypes
from xobo_host.cli.argtypes import whole_number

DB_HELP = "the SQLite file (default ~/.local/share/xobo/games.sqlite)"


def _db_option(parser, default):
    parser.add_argument("--db", metavar="FILE", default=default, help=DB_HELP)


def register(subparsers):
    p = subparsers.add_parser(
        "records",
        help="list, show and export the games recorded by xobo monitor and xobo cafe",
        description="Read the games database written by 'xobo monitor' and 'xobo cafe'.",
    )
    _db_option(p, None)
    sub = p.add_subparsers(dest="records_command", metavar="ACTION")
    ls = sub.add_parser("list", help="every recorded game (or those of a table, game, day)")
    ls.add_argument("--table", metavar="NAME", default=None,
                    help="only the games of this table (the name they were played under, or "
                         "the board's name now)")
    ls.add_argument("--game", type=argtypes.game, metavar="GAME", default=None,
                    help="only this game (xobo, x...)")
    ls.add_argument("--date", metavar="YYYY-MM-DD", default=None,
                    help="only the games started that day (UTC)")
    s = sub.add_parser("show", help="one game: tags and moves with their times")
    s.add_argument("id", type=whole_number)
    e = sub.add_parser("export", help="one game as a record, in its game's notation")
    e.add_argument("id", type=whole_number)
    e.add_argument("--out", metavar="FILE", default=None, help="write to FILE (default stdout)")
    for action in (ls, s, e):  # (SUPPRESS: a --db given before the action is kept)
        _db_option(action, argparse.SUPPRESS)
    p.set_defaults(func=run)


def _open(args):
    from xobo_host.records.gamesdb import GamesDB, GamesDBError, default_db_path

    path = args.db or default_db_path()
    if not os.path.exists(path):
        print("error: no games database at %s (xobo monitor and xobo cafe write it)" % path,
              file=sys.stderr)
        return None
    try:
        return GamesDB(path, readonly=True)
    except GamesDBError as exc:
        print("error: %s" % exc, file=sys.stderr)
        return None


def run(args):
    from xobo_host.records.gamerecords import clip
    from xobo_host.records.gamesdb import GamesDBError

    if not args.records_command:
        print("error: usage: xobo records list | show ID | export ID [--out FILE] "
              "[--db FILE]",
              file=sys.stderr)
        return 2
    db = _open(args)
    if db is None:
        return 1
    try:
        if args.records_command == "list":
            games = db.list_games(args.table, args.game, args.date)
            if not games:
                print("no games recorded yet")
            else:
                print("%4s  %-14s  %-20s  %-6s  %5s  %-14s  %s" % (
                    "id", "game", "started (UTC)", "result", "moves", "table", "parameters"))
            for g in games:
                print("%4d  %-14s  %-20s  %-6s  %5d  %-14s  %s" % (
                    g["id"], clip(g["game"], 20), clip(g["started_at"], 20),
                    clip(g["result"], 10), g["n_moves"], clip(g["source"] or "-", 40),
                    clip(g["params"], 200)))
            return 0
        if args.records_command == "show":
            g = db.game(args.id)
            print("game %d  %s%s, %s first, result %s" % (
                g["id"], clip(g["game"]), " " + clip(g["params"], 200) if g["params"] else "",
                clip(g["first"] or "-"), clip(g["result"])))
            print("started %s%s  table %s%s" % (
                clip(g["started_at"]), "  ended %s%s" % (
                    clip(g["ended_at"]), " (%s)" % clip(g["ending"]) if g["ending"] else "")
                if g["ended_at"] else "", clip(g["source"] or "-"),
                " (board %s)" % clip(g["board_id"]) if g["board_id"] else ""))
            if g["start_position"]:
                print("from position %s" % clip(g["start_position"], 400))
            for m in g["moves"]:
                print("%4d. %-14s %s" % (m["ply"], clip(m["notation"], 40),
                                         clip(m["played_at"])))
            return 0
        if args.records_command == "export":
            text = db.export_record(args.id)
            if args.out:
                with open(args.out, "w", encoding="utf-8") as f:
                    f.write(text)
                print("wrote game %d to %s" % (args.id, args.out))
            else:
                sys.stdout.write(text)
            return 0
    except GamesDBError as exc:
        print("error: %s" % exc, file=sys.stderr)
        return 1
    finally:
        db.close()
    return 2
