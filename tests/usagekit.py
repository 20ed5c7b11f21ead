"""The ``Usage::`` blocks of the modules' docstrings, for the tests that run them (the
firmware's: tests/test_usage_examples.py; the host tools': tests/test_host_usage_examples.py).

A block is one of two kinds:

- a doctest (it has ``>>>`` lines): its examples run, and every other line of it is a blank, a
  ``#`` comment or a command line (checked as below), so that Python code without its prompt
  cannot hide in a doctest as text no one runs;
- command lines: every line (a ``\\`` continues it) is a blank, a ``#`` comment or a command,
  and a command is one of
  ``python -m MODULE ...`` (``python3``, ``pypy3``, ``micropython``; the module exists and
  runs as a program: it has ``__main__``),
  ``xobo ...`` (the words parse with the ``xobo`` command's own parser; nothing runs) and
  ``make TARGET ...`` (``make -n`` expands the target's recipe: the target exists).

Anything else fails, naming the line."""

import ast
import contextlib
import doctest
import importlib.util
import io
import re
import shlex
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEAD = re.compile(r"^Usage\b.*::\s*$")
PYTHON = re.compile(r"^(?:MICROPYPATH=\S+ )?(?:python3?|pypy3|micropython) (?:\S+ )*?-m ([\w.]+)")
OPTIONS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def usage_block(path):
    """``(line, text)`` of the module docstring's ``Usage::`` block (its indented lines, the
    line of the first in the file), or None."""
    tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    doc = ast.get_docstring(tree, clean=False)
    if not doc:
        return None
    lines = doc.splitlines()
    for i, line in enumerate(lines):
        if HEAD.match(line.strip()):
            block = []
            for text in lines[i + 1:]:
                if text.strip() and not text.startswith(" "):
                    break
                block.append(text)
            first = tree.body[0].lineno + i + 1  # (the docstring opens on its own first line)
            return first, "\n".join(block).rstrip() + "\n"
    return None


def modules_with_usage(root):
    """The ``.py`` files under ``root`` whose docstring has a ``Usage::`` block, sorted."""
    return sorted(p for p in Path(root).rglob("*.py") if usage_block(p) is not None)


def name(path):
    """A module's path from the repository's root (a test's id)."""
    path = Path(path)
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def is_doctest(text):
    return any(line.lstrip().startswith(">>>") for line in text.splitlines())


def logical_lines(text, first=0):
    """``(line number, line)`` of a text's lines, stripped, a trailing ``\\`` joining the next
    line (the number is the first's)."""
    out, held, start = [], "", None
    for k, line in enumerate(text.splitlines()):
        line = line.strip()
        if held:
            line = held + " " + line
        else:
            start = first + k
        if line.endswith("\\"):
            held = line[:-1].rstrip()
            continue
        held = ""
        out.append((start, line))
    if held:
        out.append((start, held))
    return out


def command_kind(line):
    """``"python"``, ``"xobo"``, ``"make"`` for a command line, ``"text"`` for a blank or a
    ``#`` comment, or None."""
    if not line or line.startswith("#"):
        return "text"
    if PYTHON.match(line):
        return "python"
    word = line.split()[0]
    if word in ("xobo", "make"):
        return word
    return None


def _without_comment(line):
    return re.sub(r"\s+#\s.*$", "", line)


def check_command(line, parser=None):
    """None when the command line is right, else what is wrong with it (``parser``: the
    ``xobo`` command's argument parser, for its lines; built when not given)."""
    kind = command_kind(line)
    if kind is None:
        return "neither a command (python -m, xobo, make) nor a # comment"
    if kind == "text":
        return None
    if kind == "python":
        module = PYTHON.match(line).group(1)
        try:
            spec = importlib.util.find_spec(module)
        except ModuleNotFoundError:
            spec = None
        if spec is None:
            return "no module %s" % module
        if spec.submodule_search_locations is not None:  # a package runs its __main__
            spec = importlib.util.find_spec(module + ".__main__")
        if spec is None or not spec.origin or "__main__" not in Path(spec.origin).read_text(
                encoding="utf-8"):
            return "module %s does nothing when run (no __main__)" % module
        return None
    words = shlex.split(_without_comment(line))
    if kind == "make":
        proc = subprocess.run(["make", "-n"] + words[1:], cwd=ROOT, capture_output=True,
                              text=True, timeout=120)
        if proc.returncode != 0:
            return "make -n %s: %s" % (" ".join(words[1:]), proc.stderr.strip()[-300:])
        return None
    if parser is None:
        from xobo_host.cli.main import build_parser

        parser = build_parser()
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            args = parser.parse_args(words[1:])
    except SystemExit:
        said = err.getvalue().strip().splitlines()
        return "xobo's parser refuses it: %s" % (said[-1] if said else "it exits")
    if not callable(getattr(args, "func", None)):
        return "names no xobo command"
    return None


def check_command_lines(path, parser=None):
    """The wrong lines of a block of command lines: ``["path:line: line: what", ...]``."""
    first, text = usage_block(path)
    wrong = []
    for number, line in logical_lines(text, first):
        why = check_command(line, parser)
        if why:
            wrong.append("%s:%d: %s: %s" % (name(path), number, line, why))
    return wrong


def doctest_text_lines(path, parser=None):
    """The wrong lines of a doctest block outside its examples (Python code without its
    prompt, a command that is wrong): ``["path:line: line: what", ...]``."""
    first, text = usage_block(path)
    wrong, number = [], first
    for piece in doctest.DocTestParser().parse(text):
        if isinstance(piece, doctest.Example):
            number = first + piece.lineno + piece.source.count("\n") + piece.want.count("\n")
            continue
        for k, line in logical_lines(piece, number):
            why = check_command(line, parser)
            if why:
                wrong.append("%s:%d: %s: %s" % (name(path), k, line, why))
        number += piece.count("\n")
    return wrong


def run_doctest(path, globs=None):
    """Run the block's examples; ``(attempted, failed, report)``."""
    first, text = usage_block(path)
    test = doctest.DocTestParser().get_doctest(text, dict(globs or {"__name__": "__usage__"}),
                                               name(path), str(path), first - 1)
    out = []
    result = doctest.DocTestRunner(optionflags=OPTIONS).run(test, out=out.append)
    return result.attempted, result.failed, "".join(out)
