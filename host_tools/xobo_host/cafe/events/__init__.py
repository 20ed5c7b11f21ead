"""An event on ``xobo cafe``: a tournament evening run by the boards themselves
(docs/events.md).

One module per concern:

- ``model``: an event, its players, rounds, games and corrections, and the checks of what
  the staff enters (names, formats, settings).
- ``store``: the events' SQLite file (``events.sqlite`` next to the games database).
- ``pairing``: two-player pairings: Swiss by score groups (networkx's maximum-weight
  matching) and round robin (Berger tables).
- ``trios``: three-player groups (X): by standing, seats rotated, no repeated trio.
- ``results``: what a game's end means for the event: places and points (X's place points).
- ``standings``: points and tie-breaks (Buchholz, Sonneborn-Berger).
- ``ratings``: a rating per player per game across events (OpenSkill, Plackett-Luce).
- ``intake``: a game's end as the café host sees it, from the table's board.
- ``director``: runs the events: pairs rounds, gives each game a table, starts it on the
  board, takes its result, advances.
- ``routes``: the events' pages and JSON routes on the café's server.
- ``export``: pairings, results and standings as CSV; every game's record.
- ``evening``: a whole evening on stand-in boards, players scripted with the computer's
  levels (the tests' and the benchmark's).
- ``bench``: the pairing benchmark (200 players).
"""
