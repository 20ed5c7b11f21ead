"""The event's side of a table: a game set up and started on its board, its end read from
the board, a resignation said to it, and the end noticed as it happens. Everything the
events know of tables and boards goes through here (the floor's ``Table``: its view, its
controls, its board's serial link), so that how a table is found and how its game's end
reaches the host can change in one place.

- ``start(table, game, settings)``: ``set game``, the game's settings, ``set opponent
  off`` (people play an event's games), ``new``: the board's own commands
  (docs/protocol.md), each checked by the board; ActionError with its refusal.
- ``read_end(table)``: the board's ``state``: its game, its ply, and ``result`` in the
  board's words (``ew blocus``, ``red 2-1-1``, ``ew ns-resigned``), ``*`` while it goes on;
  None when the board is offline; and its ``record``: the game as the board keeps it.
- ``find_record(floor, key, game, moves)``: the games database's record of that game played
  on the table's board (its own id: a table renamed keeps its records; the table's recorder
  writes it a moment after the board's move: looked for until found).
- ``resign(table, seat, winner)``: ``resign SEAT WINNER|none``: the board shows the game
  over, and says so (``event result``) like any end.
- ``Watcher``: the floor's event lines of every board: an ``event result`` (a game over, a
  resignation) or a board found again (``event attached``: it may have ended its game while
  the host did not follow it) calls ``on_end(table_key)``.
- ``fits(table, game)``: the table's board can host ``game`` (Brochs needs a 15 x 15).
- ``record_of(view)``: the games database's record of the game a table's view shows.

Usage::

    >>> from xobo_host.cafe.events import intake
    >>> from xobo_host.cafe.floor import Floor
    >>> from xobo_host.sim.ptyboard import PtyBoard
    >>> board = PtyBoard("flash-t1").plug()       # a stand-in board on a pty
    >>> board.play("serial set name t1")
    ['name t1']
    >>> floor = Floor("games.sqlite", ports=[board.device], scan_usb=False, scan_s=0.05).start()
    >>> snap = floor.snapshot()
    >>> for _ in range(50):                       # until a scan has found it
    ...     if floor.table("t1"): break
    ...     snap = floor.wait_change(snap["version"], 1.0)
    >>> ended = []
    >>> watcher = intake.Watcher(floor, on_end=ended.append)  # "t1" when its game ends
    >>> table = floor.table("t1")
    >>> intake.fits(table, "xobo"), intake.fits(table, "brochs")   # Brochs: a 15 x 15 board
    (True, False)
    >>> intake.start(table, "xobo", {"variant": "xobo"})
    >>> intake.read_end(table)                    # the game goes on: "*"
    {'game': 'xobo', 'ply': 0, 'result': '*', 'record': None}
    >>> intake.resign(table, "ns", "ew")
    'resign ew ns-resigned'
    >>> intake.read_end(table)["result"]          # the board's words (cafe.events.results)
    'ew ns-resigned'
    >>> floor.stop(); board.unplug()
"""

from xobo_host.cafe.table import fitting_games
from xobo_host.sim.backend import ActionError
from xobo_host.sim.monitor import LinkError


def _command(table, line):
    """One board command; its reply lines. ActionError when offline or refused."""
    conn = table.conn
    if conn is None or not conn.alive:
        raise ActionError("the board of %s is offline" % table.key)
    try:
        reply = conn.link.command(line)
    except LinkError as exc:
        raise ActionError("%s: %s" % (table.key, exc)) from None
    if not reply or not reply[0].startswith("ok"):
        raise ActionError("the board of %s refused '%s': %s"
                          % (table.key, line, " ".join(reply)[6:] or "no reply"))
    return reply


def fits(table, game):
    return table.online and game in fitting_games(
        table.snapshot().get("state", {}).get("board", {}))


def start(table, game, settings):
    """Set the board up for a new game of ``game`` with ``settings`` and start it."""
    table.action({"action": "game", "value": game})
    for key, value in sorted(settings.items()):
        _command(table, "set %s %s" % (key, value))
    first = settings.get("first")
    if first is None:
        from xobo import games

        pkg = games.load(game)
        first = pkg.DEFAULTS.get("first")
        if first is not None:
            _command(table, "set first %s" % first)
    table.action({"action": "opponent", "value": "off"})
    table.action({"action": "new"})


def read_end(table, with_record=False):
    """{"game", "ply", "result"} as the board says now (``with_record``: and "record", the
    text of its ``record`` reply, the game as the board keeps it, read only when the game is
    over); None when the board is offline or does not answer."""
    if not table.online:
        return None
    try:
        state = _command(table, "state")[0].split()
        game = None
        for line in _command(table, "settings"):
            words = line.split()
            if len(words) == 3 and words[1] == "game":
                game = words[2]
    except ActionError:
        return None
    out = {"game": game, "ply": None, "result": "*", "record": None}
    # 'ok state INFERENCE side S result WINNER [REASON] ply N ...': the result's words run
    # to the ply field
    if "result" in state and "ply" in state:
        k, end = state.index("result"), state.index("ply")
        out["result"] = " ".join(state[k + 1:end]) or "*"
        ply = state[end + 1] if end + 1 < len(state) else ""
        out["ply"] = int(ply) if ply.isdigit() and ply.isascii() else None
    if with_record and out["result"] != "*":
        try:
            out["record"] = "\n".join(line[3:] for line in _command(table, "record")
                                      if line.startswith("ok ") and line != "ok end")
        except ActionError:
            return None
    return out


def record_moves(game, text):
    """The moves of a board's record text (its game's notation), or None when it cannot be
    read."""
    from xobo_host.records.gamerecords import GameRecordError, read_record

    try:
        return list(read_record(game, text).moves)
    except (GameRecordError, ValueError):
        return None


def find_record(floor, table_key, game, moves, known=()):
    """The games database's id of the record of this game (``moves`` in its notation) played
    at table ``table_key``: the one the table's view shows, else one of that table's last
    records, whose moves are these; None while it is not recorded yet. ``known``: ids that
    are another game's."""
    from xobo_host.records.gamesdb import GamesDB, GamesDBError

    table = floor.table(table_key)
    candidates = []
    if table is not None:
        shown = record_of(floor.view_of(table, full=True, local=False))
        if shown is not None:
            candidates.append(shown)
    try:
        db = GamesDB(floor.db_path, readonly=True)
    except GamesDBError:
        return None
    try:
        if table is not None:
            # the table's board's records (a table is its board: renamed, it keeps them),
            # or, for a board the host has not read an id from, those under its name
            rows = db.list_games(board_id=table.board_id, game=game) if table.board_id \
                else db.list_games(source=table.name, game=game)
            candidates.extend(r["id"] for r in reversed(rows[-6:]))
        for rid in candidates:
            if rid in known:
                continue
            if [m["notation"] for m in db.moves(rid)] == moves:
                return rid
    except GamesDBError:
        return None
    finally:
        db.close()
    return None


def resign(table, seat, winner):
    """The board is told ``seat`` resigned, ``winner`` (a seat) winning, or None (nobody)."""
    reply = _command(table, "resign %s %s" % (seat, winner or "none"))
    table.conn.monitor.refresh_soon()
    return " ".join(reply)[3:]


def record_of(view):
    """The games database's id of the record a table's full view shows, or None."""
    return view.get("game_id")


class Watcher:
    """Calls ``on_end(table_key)`` when a board says its game ended, or is found again."""

    def __init__(self, floor, on_end):
        self.on_end = on_end
        floor.line_hooks.append(self._line)

    def _line(self, key, line):
        words = line.split()
        if len(words) >= 2 and words[0] == "event" and words[1] in ("result", "attached",
                                                                     "new", "load"):
            self.on_end(key)
