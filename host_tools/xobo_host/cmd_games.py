"""``xobo games``: the games ``xobo monitor`` recorded in the local SQLite file.

Usage::

    xobo games list                      # id, game, date, result, moves, board
    xobo games show 3                    # the moves with their times
    xobo games export 3 --out game3.txt  # the record (N2), checked by the rules engine
    xobo games --db other.sqlite list
"""

import os
import sys

from xobo_host.argtypes import whole_number


def register(subparsers):
    p = subparsers.add_parser(
        "games",
        help="list, show and export the games recorded by xobo monitor",
        description="Read the games database written by 'xobo monitor'.",
    )
    p.add_argument("--db", metavar="FILE", default=None,
                   help="the SQLite file (default ~/.local/share/xobo/games.sqlite)")
    sub = p.add_subparsers(dest="games_command", metavar="ACTION")
    sub.add_parser("list", help="every recorded game")
    s = sub.add_parser("show", help="one game: tags and moves with their times")
    s.add_argument("id", type=whole_number)
    e = sub.add_parser("export", help="one game as a record (N2)")
    e.add_argument("id", type=whole_number)
    e.add_argument("--out", metavar="FILE", default=None, help="write to FILE (default stdout)")
    p.set_defaults(func=run)


def _open(args):
    from xobo_host.gamesdb import GamesDB, GamesDBError, default_db_path

    path = args.db or default_db_path()
    if not os.path.exists(path):
        print("error: no games database at %s (xobo monitor writes it)" % path,
              file=sys.stderr)
        return None
    try:
        return GamesDB(path)
    except GamesDBError as exc:
        print("error: %s" % exc, file=sys.stderr)
        return None


def run(args):
    from xobo_host.gamesdb import GamesDBError

    if not args.games_command:
        print("error: usage: xobo games list | show ID | export ID [--out FILE]",
              file=sys.stderr)
        return 2
    db = _open(args)
    if db is None:
        return 1
    try:
        if args.games_command == "list":
            games = db.list_games()
            if not games:
                print("no games recorded yet")
            else:
                print("%4s  %-24s  %-20s  %-6s  %5s  %s" % (
                    "id", "game", "started (UTC)", "result", "moves", "board"))
            for g in games:
                game = g["game"] + (" " + g["params"] if g["params"] else "")
                print("%4d  %-24s  %-20s  %-6s  %5d  %s" % (
                    g["id"], game, g["started_at"], g["result"], g["n_moves"], g["source"]))
            return 0
        if args.games_command == "show":
            g = db.game(args.id)
            print("game %d  %s%s, %s first, result %s" % (
                g["id"], g["game"], " " + g["params"] if g["params"] else "", g["first"],
                g["result"]))
            print("started %s%s  board %s" % (g["started_at"], "  ended %s" % g["ended_at"]
                                              if g["ended_at"] else "", g["source"] or "-"))
            if g["start_position"]:
                print("from position %s" % g["start_position"])
            for m in g["moves"]:
                print("%4d. %-14s %s" % (m["ply"], m["notation"], m["played_at"]))
            return 0
        if args.games_command == "export":
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
