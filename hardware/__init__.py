"""XoBo board hardware as code (desktop-only; never copied to the board).

One source of truth, :mod:`hardware.design`, generates everything a maker needs::

    python -m hardware.generate          # boards/*.json, hardware/out/*
    python -m hardware.generate --check  # exit 1 if a committed file is stale
"""
