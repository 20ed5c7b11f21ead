"""Today's figures: docs/figures.md made from the benchmarks' results, and the docs' quotes of
them kept true.

The page is generated from ``bench-results/*/latest.json`` (``xobo_host.bench.results``): one
section a benchmark, headed by its name, with the command that measures it, when (UTC), on
what commit, machine and load, and a table of its figures. Nothing on it is typed by hand.

A page of the docs quotes a figure as a Markdown link to its benchmark's section, the
figure's name as the link's title, the figure's value and unit as its text::

    The computer's slowest move takes [95.1 ms](figures.md#ai "xobo.pico.slowest") on ...

(the path is relative, as any link: ``../figures.md`` from docs/rules/, ``docs/figures.md``
from the README). ``make figures`` writes the page and rewrites every quote's text from the
latest results; ``tests/test_doc_figures.py`` fails when the committed page or a quote
differs from what the results say, when a quote names a figure no result has, and when a
page states a figure by hand: a number with a unit of time, size, share or ratio (``ms``,
``s``, ``B``, ``KB``, ``%``, ``x``...) in a sentence (or a table row, with its header) that
speaks of a measurement (measured, median, p95, worst, free, took...), unless it is a quote,
is in code, or is a target or a bound (``<=``, ``>=``, target, limit, bound, budget, at most,
at least just before it). Such a figure belongs in a benchmark's results.

Usage::

    python -m xobo_host.bench.figures            # write docs/figures.md, refresh every quote
    python -m xobo_host.bench.figures --check    # exit 1 and say what differs (nothing written)
    python -m xobo_host.bench.figures --hand-typed docs/cafe.md  # a page's figures typed by hand

    >>> from xobo_host.bench import figures
    >>> text = 'A move takes [95.1 ms](figures.md#ai "xobo.pico.slowest") on the Pico.'
    >>> [(q.bench, q.figure, q.text) for q in figures.quotes(text)]
    [('ai', 'xobo.pico.slowest', '95.1 ms')]
    >>> figures.hand_typed("We measured 12 ms a move.")   # (line, sentence, figure)
    [(1, 'We measured 12 ms a move.', '12 ms')]
    >>> results = {"ai": {"bench": "ai", "title": "The computer's moves", "command": "make bench",
    ...                   "date": "2026-12-01T10:00:00Z", "figures": {"xobo.pico.slowest": {
    ...                       "value": 95.1, "unit": "ms", "what": "the slowest move"}}}}
    >>> print(figures.page_text(results))     # docs/figures.md (results: figures.results_now())
    # Today's figures
    ...
    ## ai
    ...
    - measured by: `make bench`
    - date: 2026-12-01 10:00:00 UTC
    ...
    | `xobo.pico.slowest` | 95.1 ms | the slowest move |
    <BLANKLINE>
"""

import argparse
import re
import sys
from pathlib import Path

from xobo_host.bench import results as benchresults

ROOT = benchresults.ROOT
PAGE = ROOT / "docs" / "figures.md"
# the benchmarks in the page's order (any other after them, by name)
ORDER = ("rules", "board-cycle", "ai", "ladder", "match-xobo-pico-uct20000",
         "match-xobo-strong-uct20000", "pico-check-pico_gpio-image",
         "pico-check-pico_15x15-image", "pico-check-pico_gpio-stock",
         "pico-check-pico_15x15-stock", "cafe", "cafe-burner", "cafe-browser", "remote",
         "remote-burner", "events")

QUOTE = re.compile(r'\[(?P<text>[^\]\n]+)\]\((?P<path>(?:\.\./|docs/)*figures\.md)'
                   r'#(?P<bench>[a-z0-9_-]+) "(?P<figure>[a-z0-9_.-]+)"\)')


def doc_pages(root=ROOT):
    """README.md and every Markdown page under docs/ but the figures page itself."""
    root = Path(root)
    pages = [root / "README.md"] + sorted((root / "docs").rglob("*.md"))
    return [p for p in pages if p.exists() and p.resolve() != (root / "docs" /
                                                               "figures.md").resolve()]


# ------------------------------------------------------------------ the page

def _ordered(results):
    """make bench's, the strength matches, the device check's, the café's, then any other."""
    def key(bench):
        if bench in ORDER:
            return (ORDER.index(bench), "")
        for k, prefix in enumerate(("rules", "board-cycle", "ai", "ladder", "match-",
                                    "pico-check-", "cafe", "remote", "events")):
            if bench.startswith(prefix):
                return (k + 0.5, bench)
        return (len(ORDER), bench)

    return sorted(results, key=key)


def _load(load):
    return ", ".join("%.2f" % x for x in load) if load else "not known"


def _cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def section(bench, data):
    """The page's section of one benchmark's latest run."""
    git = data.get("git") or {}
    commit = (git.get("commit") or "unknown")[:12]
    if git.get("dirty"):
        commit += " with uncommitted changes"
    m = data.get("machine") or {}
    machine = ", ".join(x for x in (
        m.get("cpu"), "%s cores" % m["cores"] if m.get("cores") else None,
        "CPython %s" % m["python"] if m.get("python") else None,
        "MicroPython %s (unix port)" % m["micropython"] if m.get("micropython") else None)
        if x)
    extra = ", ".join("%s: %s" % (k, v) for k, v in sorted(m.items())
                      if k not in ("cpu", "cores", "python", "micropython", "os"))
    load = data.get("load") or {}
    lines = ["## %s" % bench, "", data.get("title", ""), ""]
    if data.get("source"):
        lines += ["**Source: %s.** These figures were not written by a run of the benchmark: "
                  "run it to replace them." % data["source"], ""]
    lines += [
        "- measured by: `%s`" % data.get("command", "?"),
        "- date: %s" % data.get("date", "?").replace("T", " ").replace("Z", " UTC"),
        "- commit: %s" % commit,
        "- machine: %s" % (machine or "not known"),
    ]
    if extra:
        lines.append("- also: %s" % extra)
    lines += ["- load average (1, 5, 15 minutes) at the start: %s; at the end: %s" % (
        _load(load.get("start")), _load(load.get("end")))]
    if data.get("seconds") is not None:
        lines.append("- the run took %s s" % format(data["seconds"], ","))
    for note in data.get("notes") or []:
        lines.append("- %s" % note)
    lines += ["", "| figure | value | what |", "| --- | --- | --- |"]
    for name, fig in (data.get("figures") or {}).items():
        lines.append("| `%s` | %s | %s |" % (name, _cell(benchresults.quote(fig)),
                                              _cell(fig.get("what", ""))))
    return lines


def page_text(results):
    """docs/figures.md for ``results`` ({bench: latest run})."""
    lines = [
        "# Today's figures",
        "",
        "Every figure the docs give, as the benchmarks last measured it. This page is written "
        "by `make figures` from the benchmarks' results (`bench-results/BENCH/latest.json`); "
        "do not edit it. Each section names the command that measures its figures, when, on "
        "what code, machine and load.",
        "",
        "The load average matters: the benchmarks time real work on a shared machine, and a "
        "busy machine makes every time longer. The emulated Pico's times are emulated time "
        "(docs/device-check.md), which the load does not change.",
        "",
        "To measure again: `make figures-all` (every benchmark but the device check and the "
        "long strength matches, then this page; with `UF2=` and `BOOTROM=` the device check "
        "of both boards too), `make pico-check UF2=... BOOTROM=... BOARD=...` for one device "
        "check, `python -m xobo_host.bench.strength --all` for the strength matches (hours: "
        "docs/ai.md runs them under PyPy), then `make figures`.",
        "",
        "A page quotes a figure as a link to its section here, the figure's name as the link's "
        "title: `[95.1 ms](figures.md#ai \"xobo.pico.slowest\")`; `make figures` "
        "rewrites every quote from the results, and `tests/test_doc_figures.py` checks them.",
        "",
        "Benchmarks: %s." % ", ".join("[%s](#%s)" % (b, b) for b in _ordered(results)),
    ]
    for bench in _ordered(results):
        lines += [""] + section(bench, results[bench])
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ the quotes

class Quote:
    def __init__(self, match, line):
        self.text = match.group("text")
        self.bench = match.group("bench")
        self.figure = match.group("figure")
        self.line = line
        self.span = match.span()

    def expected(self, results):
        """The text the results give this quote, or None when they have no such figure."""
        fig = ((results.get(self.bench) or {}).get("figures") or {}).get(self.figure)
        return benchresults.quote(fig) if fig else None


def quotes(text):
    """[Quote] of a Markdown text, in order."""
    out = []
    for m in QUOTE.finditer(text):
        out.append(Quote(m, text.count("\n", 0, m.start()) + 1))
    return out


def refresh(text, results):
    """``text`` with every quote's text as the results give it (a quote of an unknown figure
    is left as it is: the check names it)."""
    def sub(m):
        q = Quote(m, 0)
        want = q.expected(results)
        return m.group(0) if want is None else m.group(0).replace(
            "[%s]" % q.text, "[%s]" % want, 1)

    return QUOTE.sub(sub, text)


def quote_problems(text, results):
    """[(line, problem)] of a page's quotes against the results."""
    out = []
    for q in quotes(text):
        want = q.expected(results)
        if want is None:
            out.append((q.line, "quotes %s %s, which the latest results do not have"
                        % (q.bench, q.figure)))
        elif want != q.text:
            out.append((q.line, "quotes %s %s as %r; the latest results say %r (make figures)"
                        % (q.bench, q.figure, q.text, want)))
    return out


# ------------------------------------------------------------------ figures typed by hand

NUMBER = r"\d[\d,]*(?:\.\d+)?"
UNITS = (r"ms|µs|us|ns|s|sec|secs|seconds?|min|mins|minutes?|hours?|h|%|B|KB|kB|KiB|MB|MiB"
         r"|GB|bytes?|CPU-s|x|×|times|fps|Hz|kHz|MHz")
# a number (or a range or list of them: 1.2-3.4, 185/228/380) and its unit; "x" glued to the
# number (35x) but not a board size (9x9)
FIGURE = re.compile(r"(?<![\w.#@/-])(?P<n>%s(?:\s?(?:-|–|to|/)\s?%s)*)\s?(?P<u>%s)(?![\w/])"
                    % (NUMBER, NUMBER, UNITS))
TIMES = re.compile(r"(?<![\w.])(?:×|x)\s?%s(?![\w-])" % NUMBER)  # ×35, x 3.4 (not x86-64)
MEASURING = re.compile(
    r"\b(measured|measures?|measuring|median|mean|average|averages|p9[59]|percentiles?|"
    r"worst|slowest|fastest|quickest|best|took|takes|lasted|lasts|peaks?|free|"
    r"maximum|minimum|max|min|typical|typically|reached|reaches|benchmarks?|faster|slower|"
    r"quicker|grew|growth|won|wins|share|score|scored|passed|failed|used|uses|"
    r"costs?|spent|spends|came to|comes to)\b", re.IGNORECASE)
BOUND = re.compile(r"(<=|>=|≤|≥|<|>|\btargets?\b|\blimits?\b|\bbounds?\b|\bbounded\b|"
                   r"\bbudgets?\b|\bat most\b|\bat least\b|\bfloor\b)[^.;,()]{0,24}$",
                   re.IGNORECASE)
BOUND_AFTER = re.compile(r"^\s*(targets?|limits?|bounds?|budgets?|floor|ceiling)\b",
                         re.IGNORECASE)
BOUND_WORD = re.compile(r"\b(targets?|limits?|bounds?|budgets?)\b", re.IGNORECASE)
CONFIDENCE = re.compile(r"^\s*\(?\**(Wilson|CI|confidence|margin|intervals?)\b", re.IGNORECASE)
DIMENSION_AFTER = re.compile(r"^\s?\d")
DIMENSION_BEFORE = re.compile(r"\d\s?$")
SENTENCE_END = re.compile(r"(?<=[.!?;])\s+(?=[A-Z(`*])")


def _prose(text):
    """[(line number, prose, context)] of a Markdown text: fenced and indented code dropped,
    inline code, quotes and link targets blanked. A table row gives one entry a cell, with its
    column's header as the context (None: a target's column, whose numbers are bounds)."""
    out = []
    fence = None
    header = None
    for n, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if fence:
            if stripped.startswith(fence):
                fence = None
            continue
        if stripped.startswith("```") or stripped.startswith("~~~"):
            fence = stripped[:3]
            continue
        if line.startswith("    ") and not stripped.startswith(("-", "*", "|")) and \
                (not out or out[-1][1] == ""):
            continue  # an indented code block
        line = _blank(line)
        if stripped.startswith("|"):
            cells = _cells(line)
            if header is None:
                header = cells
            elif not re.match(r"^\|[\s:|-]+\|$", stripped):
                for k, cell in enumerate(cells):
                    head = header[k] if k < len(header) else ""
                    out.append((n, cell, None if BOUND_WORD.search(head) else head))
            continue
        header = None
        out.append((n, line, ""))
    return out


def _blank(line):
    line = QUOTE.sub(" (quoted) ", line)
    line = re.sub(r"`[^`]*`", " (code) ", line)
    line = re.sub(r"\]\([^)]*\)", "]", line)  # a link's target: its text stays
    return re.sub(r"<https?://[^>]*>", " ", line)


def _cells(row):
    return [c.strip() for c in row.strip().strip("|").split("|")]


def _sentences(lines):
    """[(line number, sentence, context)]: paragraphs joined, then cut at sentence ends; a
    table cell is cut into its sentences, each with its column's header as context."""
    out = []
    para, start = [], None

    def flush():
        if para:
            for s in SENTENCE_END.split(" ".join(para)):
                out.append((start, s, ""))
            para.clear()

    for n, line, context in lines + [(None, "", "")]:
        if context != "":  # a table cell
            flush()
            if context is not None:
                for s in SENTENCE_END.split(line):
                    out.append((n, s, context))
            continue
        if not line.strip() or line.lstrip().startswith(("- ", "* ", "#")) or \
                re.match(r"^\s*\d+\. ", line):
            flush()
            if line.strip():
                para.append(line.strip())
                start = n
            continue
        if not para:
            start = n
        para.append(line.strip())
    flush()
    return out


def hand_typed(text):
    """[(line number, sentence, figure)] of the figures a Markdown text states by hand: a
    number with a unit in a sentence that speaks of a measurement (or in a table column whose
    header does), neither quoted, in code, a confidence level, nor a target or a bound."""
    out = []
    for n, sentence, context in _sentences(_prose(text)):
        if not (MEASURING.search(sentence) or MEASURING.search(context or "")):
            continue
        for m in list(FIGURE.finditer(sentence)) + list(TIMES.finditer(sentence)):
            after = sentence[m.end():]
            if BOUND.search(sentence[:m.start()]) or BOUND_AFTER.match(after) or \
                    (m.group(0).endswith("%") and CONFIDENCE.match(after)):
                continue
            if DIMENSION_AFTER.match(after) if m.group(0)[-1] in "x×" else \
                    m.group(0)[0] in "x×" and DIMENSION_BEFORE.search(sentence[:m.start()]):
                continue  # a size (9 × 9), not a ratio
            out.append((n, sentence.strip(), m.group(0)))
    return out


# ------------------------------------------------------------------ the command

def results_now(folder=None):
    return benchresults.all_latest(folder)


def run(check=False, root=ROOT, folder=None, say=print):
    """Write (or with ``check``, compare) the page and the quotes; returns the problems."""
    results = results_now(folder)
    problems = []
    page = Path(root) / "docs" / "figures.md"
    want = page_text(results)
    if not page.exists() or page.read_text() != want:
        if check:
            problems.append("docs/figures.md is not what the results give (make figures)")
        else:
            page.write_text(want)
            say("wrote %s" % page.relative_to(root))
    for path in doc_pages(root):
        text = path.read_text()
        new = refresh(text, results)
        if new != text:
            if check:
                problems.append("%s: quotes differ from the results (make figures)"
                                % path.relative_to(root))
            else:
                path.write_text(new)
                say("refreshed the quotes of %s" % path.relative_to(root))
        for line, problem in quote_problems(new, results):
            problems.append("%s:%d: %s" % (path.relative_to(root), line, problem))
    return problems


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m xobo_host.bench.figures",
                                description="Write docs/figures.md from the benchmarks' "
                                "latest results and refresh the docs' quotes of them.")
    p.add_argument("--check", action="store_true",
                   help="write nothing; exit 1 when the page or a quote differs")
    p.add_argument("--hand-typed", nargs="*", metavar="PAGE",
                   help="list the figures these pages (default: every page) state by hand, "
                   "line by line, and write nothing")
    args = p.parse_args(argv)
    if args.hand_typed is not None:
        pages = [Path(x) for x in args.hand_typed] or doc_pages()
        found = 0
        for page in pages:
            for line, sentence, figure in hand_typed(page.read_text()):
                found += 1
                print("%s:%d: %s  <- %s" % (page, line, figure, sentence[:120]))
        return 1 if found else 0
    problems = run(check=args.check)
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
