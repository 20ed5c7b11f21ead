"""Regenerate every file derived from :mod:`hardware.design`.

    python -m hardware.generate           # write boards/*.json and hardware/out/*
    python -m hardware.generate --check   # write nothing; exit 1 listing the stale files

Run from the repository root (``make hardware``).
"""

import json
import sys
from pathlib import Path

from . import design

ROOT = Path(__file__).resolve().parent.parent
BOARDS_DIR = ROOT / "boards"
OUT_DIR = ROOT / "hardware" / "out"


def _dump(value, indent=0):
    """JSON with one key per line but every list of scalars on a single line."""
    pad = "  " * indent
    if isinstance(value, dict):
        items = [
            "%s  %s: %s" % (pad, json.dumps(k), _dump(v, indent + 1)) for k, v in value.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    return json.dumps(value)


def board_json(name):
    return _dump(design.board_definition(name)) + "\n"


def generated_files():
    """{path: text} of every generated file."""
    files = {}
    for name in design.BOARDS:
        files[BOARDS_DIR / (name + ".json")] = board_json(name)
    try:
        from . import outputs
    except ImportError:  # pragma: no cover - during bootstrap only
        return files
    files.update(outputs.generated(OUT_DIR))
    return files


def _show(path):
    try:
        return path.relative_to(ROOT)
    except ValueError:
        return path


def stale_files(files=None):
    files = generated_files() if files is None else files
    return [p for p, text in files.items() if not p.exists() or p.read_text() != text]


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    files = generated_files()
    if "--check" in argv:
        stale = stale_files(files)
        for p in stale:
            print("stale: %s (run python -m hardware.generate)" % _show(p))
        return 1 if stale else 0
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
            print("wrote %s" % _show(path))
    return 0


if __name__ == "__main__":
    sys.exit(main())
