"""An event exported: its pairings, results and standings as CSV, and every game's record
in the game's own notation (the games database's records, with the event's tags: Event,
Round, Table, and each seat's player; a game the database does not hold, the board's own
record of it as it ended), one after the other; or all four in one zip file.

CSV cells are plain text: a cell that a spreadsheet would read as a formula (starting with
``=``, ``+``, ``-`` or ``@``) is written with a leading ``'``.

Usage::

    >>> import io, zipfile
    >>> from xobo_host.cafe.events import export
    >>> from xobo_host.cafe.events.director import Director, StaffInfo
    >>> from xobo_host.cafe.floor import Floor
    >>> from xobo_host.records.gamesdb import GamesDB
    >>> floor = Floor("games.sqlite", scan_usb=False).start()
    >>> director = Director(floor, "events.sqlite").start()
    >>> eid = director.create({"name": "Friday", "game": "xobo", "format": "swiss", "rounds": 3})
    >>> for name in ("Alice", "Bob", "Carol"):
    ...     _ = director.action(eid, {"action": "add_player", "name": name, "checked_in": True},
    ...                         StaffInfo("Sam"))
    >>> _ = director.action(eid, {"action": "start"}, StaffInfo("Sam"))
    >>> view = director.view(eid, staff=True)
    >>> print(export.pairings_csv(view))
    round,board,table,kind,ns,ew,floats
    1,1,,game,Alice,Bob,
    1,2,,bye,Carol,,
    <BLANKLINE>
    >>> db = GamesDB("games.sqlite")              # the records' (read only)
    >>> export.records_text(view, db)             # no game has ended yet
    ''
    >>> zipfile.ZipFile(io.BytesIO(export.zip_file(view, db))).namelist()   # event-ID.zip
    ['pairings.csv', 'results.csv', 'standings.csv', 'records.txt']
    >>> db.close(); director.stop(); floor.stop()
"""

import csv
import io
import zipfile

from xobo_host.records.gamerecords import GameRecordError, read_record, write_record
from xobo_host.records.gamesdb import GamesDBError

FILES = ("pairings.csv", "results.csv", "standings.csv", "records.txt")


def _cell(value):
    if isinstance(value, float):
        return ("%.2f" % value).rstrip("0").rstrip(".") if value != int(value) else \
            "%d" % value
    text = "" if value is None else str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


def _csv(header, rows):
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(header)
    for row in rows:
        w.writerow([_cell(v) for v in row])
    return out.getvalue()


def _seats(view):
    return view["seats"]


def pairings_csv(view):
    seats = _seats(view)
    header = ["round", "board", "table", "kind"] + seats + ["floats"]
    rows = []
    for g in view["history"]:
        names = {s["seat"]: s["name"] for s in g["seats"]}
        if g["kind"] in ("bye", "free"):
            players = [g["seats"][0]["name"]] + [""] * (len(seats) - 1)
        else:
            players = [names.get(s, "") for s in seats]
        floats = " ".join("%s %s" % (next((s["name"] for s in g["seats"]
                                           if str(s["player"]) == pid), pid), way)
                          for pid, way in sorted(g["floats"].items()))
        rows.append([g["round"], g["board"], g["table_name"], g["kind"]] + players + [floats])
    return _csv(header, rows)


def results_csv(view):
    seats = _seats(view)
    header = ["round", "board", "table", "kind"]
    for s in seats:
        header += [s, s + " place", s + " points"]
    header += ["result", "how", "board words", "record", "corrected"]
    corrected = {c["game_id"] for c in view.get("corrections", [])}
    rows = []
    for g in view["history"]:
        row = [g["round"], g["board"], g["table_name"], g["kind"]]
        by_seat = {s["seat"]: s for s in g["seats"]}
        for k, s in enumerate(seats):
            got = by_seat.get(s) or (g["seats"][0] if k == 0 and g["kind"] in ("bye", "free")
                                     else None)
            if got is None:
                row += ["", "", ""]
            else:
                row += [got["name"], got.get("place", ""), got.get("points", "")]
        row += [g["result"] or g["state"], g["how"] or "", g["words"] or "",
                g["record_id"] or "", "yes" if g["id"] in corrected else ""]
        rows.append(row)
    return _csv(header, rows)


def standings_csv(view):
    header = ["rank", "name", "points", "buchholz", "sonneborn-berger", "played", "byes",
              "rating", "rating uncertainty", "rated games"]
    rows = [["%d%s" % (r["rank"], "=" if r["shared"] else ""), r["name"], r["points"],
             r["buchholz"], r["sb"], r["played"], r["byes"], r["rating"]["mu"],
             r["rating"]["sigma"], r["rating"]["games"]] for r in view["standings"]]
    return _csv(header, rows)


def records_text(view, db):
    """Every game of the event with a record, in its game's notation, one after the other
    (a game whose record cannot be read is named, not left out silently)."""
    out = []
    for g in view["history"]:
        if g["kind"] != "game" or not (g["record_id"] or g.get("record_text")):
            continue
        tags = [("Event", view["name"]), ("Round", str(g["round"])),
                ("Table", g["table_name"])]
        tags += [(s["seat"].capitalize() if len(s["seat"]) > 2 else s["seat"].upper(),
                  s["name"]) for s in g["seats"]]
        try:
            if g["record_id"]:
                out.append(db.export_record(g["record_id"], tags).rstrip("\n"))
            else:  # (not found in the games database: the board's own record of it)
                rec = read_record(view["game"], g["record_text"])
                out.append(write_record(view["game"], rec.tags, rec.start, rec.moves,
                                        [("Board", g["table_name"])] + tags,
                                        rec.ending).rstrip("\n"))
        except (GamesDBError, GameRecordError) as exc:
            out.append("; round %d board %d: the record %s cannot be exported: %s"
                       % (g["round"], g["board"], g["record_id"], exc))
    return "\n\n".join(out) + ("\n" if out else "")


def zip_file(view, db):
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("pairings.csv", pairings_csv(view))
        z.writestr("results.csv", results_csv(view))
        z.writestr("standings.csv", standings_csv(view))
        z.writestr("records.txt", records_text(view, db))
    return data.getvalue()
