"""Helpers of the café tests: stand-in boards behind ptys, the café's web API (waiting for a
state: ``xobo_testing.wait_for``)."""

import json
import urllib.error
import urllib.request

from xobo_host.sim.ptyboard import PtyBoard


def named_board(tmp_path, name, settle=200, hands_clock=False):
    """A stand-in board named ``name``; ``hands_clock``: its time passes only with the
    players' lines (``wait MS``), however slow the machine."""
    board = PtyBoard(tmp_path / ("flash-" + name), hands_clock=hands_clock).plug()
    board.play("serial set name " + name)
    board.play("serial set settle %d" % settle)
    return board


def play_move(board, cell, settle=200):
    """A player puts a cube and waits for the board to commit it (its settle time)."""
    board.play("put " + cell)
    board.play("wait %d" % (settle + 100))


# the café's web API (xobo_host.cafe.web), as a browser calls it
PASSWORD = "counter-staff-7"  # the staff password the café tests set


def api_request(url, body=None, cookie=None, origin=True, ctype="application/json"):
    """(status, JSON body, headers) of a GET, or of a POST of ``body`` (with the page's own
    origin unless ``origin`` is False, and the login's ``cookie``)."""
    headers = {}
    if body is not None:
        headers["Content-Type"] = ctype
        if origin:
            headers["Origin"] = url.split("/api/")[0]
    if cookie:
        headers["Cookie"] = cookie
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, headers=headers,
                                 method="POST" if body is not None else "GET")
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read() or b"{}"), r.headers
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}"), exc.headers
