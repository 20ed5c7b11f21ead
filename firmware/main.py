"""Device entry point (copied to the Pico's flash root by ``xobo flash``).

Loads ``board.json`` (the board definition chosen at flash time) and runs the board app, which
builds the drivers with ``xobo.board.boarddef.make_drivers``. A broken ``board.json`` is
reported on the serial console and the Pico stays at the REPL instead of looping. Ctrl-C (the
REPL, ``mpremote``) stops the hardware watchdog, so a session on the REPL is not reset; any
other exception leaves the watchdog running, so a crashed app restarts within 8 s and resumes
the saved game.
"""

from xobo.board import boarddef


def run():
    try:
        bd = boarddef.load("board.json")
    except boarddef.BoardDefError as exc:
        print("xobo: %s" % exc)
        print("xobo: fix it with: xobo flash --board NAME")
        return
    from xobo.board import app

    try:
        app.main(bd)
    except KeyboardInterrupt:
        from xobo.drivers.watchdog import disable

        disable()
        print("xobo: stopped (watchdog off until the next reset)")


run()
