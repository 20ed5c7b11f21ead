"""``xobo cafe``: every table's board on one host (docs/cafe.md).

One module per concern:

- ``discovery``: which serial ports may hold a board (the Pico's USB identity, ``--port``).
- ``table``: one table: its board's connection (``version``, its name, the mirror of
  ``xobo_host.sim.monitor``, its games recorded), its health, the staff's controls.
- ``floor``: every table by name, found and followed again after an unplug or a restart.
- ``staff``: the staff's password (hashed) and login sessions.
- ``web``: the floor view, the table view and their JSON/SSE routes.
"""
