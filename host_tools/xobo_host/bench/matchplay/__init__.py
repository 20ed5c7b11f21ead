"""The engines of ``xobo match`` (xobo_host/cli/cmd_match.py): ``pairs`` (two levels, an Elo
estimate), ``lineups`` (any game, every line-up of levels in its seats) and ``yardstick``
(one level against UCT or another level)."""
