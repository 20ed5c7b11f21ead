"""The device check: the board's firmware on an emulated Pico (docs/device-check.md).

``image`` checks the .uf2 and the bootrom and builds the littlefs image, ``runner`` installs
rp2040js and drives tools/pico-check/harness.mjs, ``check`` runs the scenario and reports,
``command`` is ``xobo pico-check``.
"""
