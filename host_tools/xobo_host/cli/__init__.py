"""The ``xobo`` command: ``main`` parses the command line and hands each subcommand to its
module ``cmd_<name>``; ``argtypes`` checks the numbers, boards, games and levels they take."""
