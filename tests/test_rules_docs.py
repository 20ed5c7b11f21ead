"""The rule numbers the code cites are defined in docs/rules/, and the rules are found inside the
repository: a clone has no ../shared, so nothing may point there.

    .venv/bin/python -m pytest tests/test_rules_docs.py -q
"""

import io
import re
import subprocess
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules"
PAGES = ("README.md", "xobo.md", "x.md", "chain-reaction.md", "brochs.md", "board.md")

# XoBo's rule families (B board, M moves, V Voina, E end, N notation), optionally a sub-rule
# letter (M3a). Hardware references (U1, R1, D0, GP2...) use other letters, so they never match.
CITED = re.compile(r"\b([BMVEN][1-9][0-9]?[a-z]?)(?![0-9A-Za-z])")
# A rule is defined where the page writes its number in bold: "- **M3 Spread**", "- **B1** ...".
DEFINED = re.compile(r"\*\*([A-Z]{1,2}[1-9][0-9]?[a-z]?)\b")
NOQA = re.compile(r"#\s*noqa\b.*$")
RANGE = re.compile(r"\b([BMVEN])([1-9])[-\u2013]\1?([1-9])\b")
# Brochs' families (brochs.md): BB board, BM moves, BC captures, BE end, BN notation, BR readings
BROCHS_CITED = re.compile(r"\b(B[BMCENR][1-9][0-9]?)(?![0-9A-Za-z])")
BROCHS_RANGE = re.compile(r"\b(B[BMCENR])([1-9])[-\u2013]\1?([1-9])\b")


def tracked(*paths):
    out = subprocess.run(["git", "ls-files", "--", *paths], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    return [ROOT / line for line in out.splitlines() if line]


def citations(source, cited=CITED, ranges=RANGE):
    """Rule numbers cited in a Python source's comments, strings (docstrings, error messages) and
    test function names; a range like "M1-M4" cites every rule in it."""
    texts = []
    prev = None
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            texts.append(NOQA.sub("", tok.string))  # ruff codes (E402) are not rules
        elif tok.type == tokenize.STRING:
            texts.append(tok.string)
        elif tok.type == tokenize.NAME and prev == "def" and tok.string.startswith("test_"):
            # test_E3_E4_result_reasons: the underscores separate the numbers
            texts.append(tok.string.replace("_", " "))
        prev = tok.string if tok.type == tokenize.NAME else None
    found = set()
    for text in texts:
        found.update(cited.findall(text))
        for family, lo, hi in ranges.findall(text):
            found.update("%s%d" % (family, n) for n in range(int(lo), int(hi) + 1))
    return found


def defined(page):
    return set(DEFINED.findall((RULES / page).read_text(encoding="utf-8")))


def test_every_rule_number_cited_in_firmware_and_tests_is_defined_in_xobo_md():
    rules = defined("xobo.md")
    cited = {}
    for path in tracked("firmware", "tests"):
        if path.suffix == ".py" and path.name != "test_rules_docs.py":  # its examples cite M3a
            for rule in citations(path.read_text(encoding="utf-8")):
                cited.setdefault(rule, []).append(str(path.relative_to(ROOT)))
    assert len(cited) >= 20, "only %s found: the citation pattern is broken" % sorted(cited)
    unknown = {rule: where for rule, where in cited.items() if rule not in rules}
    assert not unknown, "rule numbers cited but not defined in docs/rules/xobo.md: %s" % unknown


# X's rule families (docs/rules/x.md): XB, XM, XS, XE, XN
X_CITED = re.compile(r"\b(X[BMSEN][1-9][0-9]?)(?![0-9A-Za-z])")
X_RANGE = re.compile(r"\b(X[BMSEN])([1-9])[-\u2013]\1?([1-9])\b")


def x_citations(source):
    """X rule numbers cited in a source's comments, strings and test names ("XS1-XS4": all)."""
    texts = []
    prev = None
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type in (tokenize.COMMENT, tokenize.STRING):
            texts.append(tok.string)
        elif tok.type == tokenize.NAME and prev == "def" and tok.string.startswith("test_"):
            texts.append(tok.string.replace("_", " "))
        prev = tok.string if tok.type == tokenize.NAME else None
    found = set()
    for text in texts:
        found.update(X_CITED.findall(text))
        for family, lo, hi in X_RANGE.findall(text):
            found.update("%s%d" % (family, n) for n in range(int(lo), int(hi) + 1))
    return found


def test_every_x_rule_number_cited_is_defined_in_x_md():
    rules = defined("x.md")
    cited = {}
    for path in tracked("firmware/xobo/games/x", "tests/games/x", "host_tools"):
        if path.suffix == ".py":
            for rule in x_citations(path.read_text(encoding="utf-8")):
                cited.setdefault(rule, []).append(str(path.relative_to(ROOT)))
    assert len(cited) >= 10, "only %s found: the citation pattern is broken" % sorted(cited)
    unknown = {rule: where for rule, where in cited.items() if rule not in rules}
    assert not unknown, "X rule numbers cited but not defined in docs/rules/x.md: %s" % unknown


CHAIN_CITED = re.compile(r"\b(C[BMSENR][1-9][0-9]?)(?![0-9A-Za-z])")
CHAIN_RANGE = re.compile(r"\b(C[BMSENR])([1-9])[-\u2013]\1?([1-9])\b")


def test_every_chain_reaction_rule_cited_is_defined_in_chain_reaction_md():
    rules = defined("chain-reaction.md")
    cited = {}
    for path in tracked("firmware/xobo/games/chain_reaction", "tests/games/chain_reaction"):
        if path.suffix != ".py":
            continue
        source = path.read_text(encoding="utf-8")
        texts = [tok.string.replace("_", " ") if tok.type == tokenize.NAME else tok.string
                 for tok in tokenize.generate_tokens(io.StringIO(source).readline)
                 if tok.type in (tokenize.COMMENT, tokenize.STRING, tokenize.NAME)]
        for text in texts:
            found = set(CHAIN_CITED.findall(text))
            for family, lo, hi in CHAIN_RANGE.findall(text):
                found.update("%s%d" % (family, n) for n in range(int(lo), int(hi) + 1))
            for rule in found:
                cited.setdefault(rule, []).append(str(path.relative_to(ROOT)))
    assert len(cited) >= 15, "only %s found: the citation pattern is broken" % sorted(cited)
    unknown = {rule: where for rule, where in cited.items() if rule not in rules}
    assert not unknown, "cited but not defined in docs/rules/chain-reaction.md: %s" % unknown


def test_every_brochs_rule_number_cited_is_defined_in_brochs_md():
    rules = defined("brochs.md")
    cited = {}
    for path in tracked("firmware/xobo/games/brochs", "tests/games/brochs"):
        if path.suffix == ".py":
            for rule in citations(path.read_text(encoding="utf-8"), BROCHS_CITED, BROCHS_RANGE):
                cited.setdefault(rule, []).append(str(path.relative_to(ROOT)))
    assert len(cited) >= 20, "only %s found: the citation pattern is broken" % sorted(cited)
    unknown = {rule: where for rule, where in cited.items() if rule not in rules}
    assert not unknown, "rule numbers cited but not defined in docs/rules/brochs.md: %s" % unknown


def test_xobo_md_defines_every_rule_of_each_family_in_order():
    text = (RULES / "xobo.md").read_text(encoding="utf-8")
    numbers = DEFINED.findall(text)
    expected = (["B%d" % n for n in range(1, 8)] + ["M%d" % n for n in range(1, 5)]
                + ["V%d" % n for n in range(1, 5)] + ["E%d" % n for n in range(1, 6)]
                + ["N%d" % n for n in range(1, 4)])
    assert numbers == expected


def test_citations_are_read_from_comments_strings_and_test_names_only():
    source = (
        "import x  # noqa: E402\n"
        "def test_E3_E4_reasons():\n"
        "    pos = B1  # M3: a spread needs a capture; B1-B4 geometry\n"
        "    return 'rank 9 (N3)'\n"
        "def helper_V2():\n"
        "    pass\n"
    )
    assert citations(source) == {"E3", "E4", "M3", "B1", "B2", "B3", "B4", "N3"}


def test_each_rules_page_starts_with_the_game_in_short_then_the_note_and_its_credits():
    # a player reads the goal and how to play first (issue 23), the provenance next, then
    # the numbered rules
    credits = {"xobo.md": "Vincent Everaert (2000)", "x.md": "Mark Steere (2009)",
               "chain-reaction.md": "Sid Sackson (Abacusspiele, 1993",
               "brochs.md": "name neither\nan author nor a year", "board.md": "(2000"}
    for page, credit in credits.items():
        text = (RULES / page).read_text(encoding="utf-8")
        lines = text.splitlines()
        assert lines[0].startswith("# ") and lines[1] == "", page
        start = 2
        if page != "board.md":
            assert lines[2] == "## The game in short", page
            assert lines[4].startswith("**Goal.**"), page
            assert "](diagrams/" in text.split("\n## ", 2)[1], page  # its diagrams
            start = lines.index("The numbered rules follow.", 2) + 1
            while not lines[start]:
                start += 1
        note = "\n".join(lines[start:start + 4])
        assert note.startswith("*This page is the project's own rendering of its"), page
        assert credit in note, (page, credit)
        first_rule = DEFINED.search(text)
        assert first_rule is None or text.index(note) < first_rule.start(), page


def test_each_page_keeps_its_rule_families():
    families = {"x.md": ("XB", 5, "XM", 2, "XS", 4, "XE", 2, "XN", 2),
                "chain-reaction.md": ("CB", 5, "CM", 4, "CS", 2, "CE", 3, "CN", 2, "CR", 7),
                "brochs.md": ("BB", 5, "BM", 4, "BC", 4, "BE", 3, "BN", 2, "BR", 8)}
    for page, spec in families.items():
        expected = []
        for i in range(0, len(spec), 2):
            expected += ["%s%d" % (spec[i], n) for n in range(1, spec[i + 1] + 1)]
        assert DEFINED.findall((RULES / page).read_text(encoding="utf-8")) == expected, page


def test_nothing_points_outside_the_repository_for_the_rules():
    offenders = []
    for path in tracked("README.md", "CONTRIBUTING.md", "docs", "firmware", "host_tools", "tests"):
        if path.suffix in (".md", ".py") and path.name != "test_rules_docs.py":
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if "../shared" in line:
                    offenders.append("%s:%d" % (path.relative_to(ROOT), n))
    assert not offenders, "pointers to ../shared (a clone has none): %s" % offenders


def test_links_into_docs_rules_resolve():
    link = re.compile(r"\]\(([^)#\s]+)(#[^)]*)?\)")
    broken = []
    for path in tracked("README.md", "CONTRIBUTING.md", "docs"):
        if path.suffix != ".md":
            continue
        for target, _anchor in link.findall(path.read_text(encoding="utf-8")):
            if "://" in target or not ("rules" in target or path.parent == RULES):
                continue
            if not (path.parent / target).exists():
                broken.append("%s -> %s" % (path.relative_to(ROOT), target))
    assert not broken, "links that lead nowhere: %s" % broken
    for page in PAGES:
        assert (RULES / page).exists(), page
