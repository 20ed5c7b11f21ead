"""The desktop simulator and the monitor's page: the firmware behind a local web page.

Usage::

    xobo sim                 # the firmware (VirtualBoard) in real time, page in the browser
    xobo monitor --port /dev/ttyACM0   # a real board mirrored in the same page

Modules: ``backend`` (the simulated board, stepped by a thread), ``monitor`` (a board over
serial), ``feed`` (the snapshot, version and events both offer the page), ``server`` (HTTP +
server-sent events), ``legend`` (the light colours), ``screenshot`` (regenerates
docs/screenshot.png), ``static/`` (the page), ``ptyboard`` (the serial stand-in: the
firmware behind a pseudo-terminal, ``xobo board run --pty``), ``diagrams`` (the lessons'
pictures, served by the page and written to docs/rules/diagrams/).
"""
