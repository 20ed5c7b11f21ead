"""The games a board played, on the host: ``gamesdb`` (the local SQLite file ``xobo monitor``
and ``xobo cafe`` write, ``xobo records`` reads) and ``gamerecords`` (any game's record
notation, through the game's own record module)."""
