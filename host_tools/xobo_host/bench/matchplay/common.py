"""What the match engines share: a game's modules, its settings from ``KEY=VALUE`` words."""

from xobo.games import part


def first_game():
    """The first game of ``xobo.games.GAMES`` (the default of ``xobo match``)."""
    from xobo.games import GAMES

    return GAMES[0]


def module_of(game, name):
    """The game's rules engine (its ``engine`` part) or computer player (``computer``)."""
    return part(game, "engine") if name == "rules" else part(game, "computer")


def parse_settings(game, words):
    """The game's DEFAULTS updated by ``KEY=VALUE`` words; ValueError says what is wrong."""
    from xobo.numbers import parse_uint

    settings = dict(game.DEFAULTS)
    for word in words:
        key, eq, value = word.partition("=")
        if not eq or key not in game.SETTINGS:
            raise ValueError("--set %s: use KEY=VALUE with KEY one of %s"
                             % (word, ", ".join(sorted(game.SETTINGS))))
        choices = game.SETTINGS[key]
        if len(choices) == 2 and isinstance(choices[0], int):
            v = parse_uint(value)
            if v < choices[0] or v > choices[1]:
                raise ValueError("--set %s: %s must be a whole number %d-%d"
                                 % (word, key, choices[0], choices[1]))
            settings[key] = v
        elif value in choices:
            settings[key] = value
        else:
            raise ValueError("--set %s: %s must be one of %s" % (word, key, ", ".join(choices)))
    return settings
