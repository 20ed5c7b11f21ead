"""The docs' figures come from the benchmarks' results (docs/figures.md, xobo_host.bench.figures):
the committed figures page is what the committed results give, every figure a page quotes is
in the latest results with the value it shows, no page states a figure by hand, and every
results file says when, on what code, machine and load, with what command."""

import json

import pytest
from conftest import ROOT

from xobo_host.bench import figures
from xobo_host.bench import results as benchresults

RESULTS = ROOT / "bench-results"

# Pages written before figures came from results, and how many figures each still states by
# hand (figures.hand_typed). A transitional list: a page leaves it once its figures are
# quotes of docs/figures.md (or gone), and the list ends empty. A count may only go down:
# a page on the list gets no new hand-typed figure either.
NOT_YET_QUOTING = {
}


def committed_results():
    return benchresults.all_latest(RESULTS)


def page_name(path):
    return str(path.relative_to(ROOT))


# ------------------------------------------------------------------ the committed state

def test_the_figures_page_is_what_the_committed_results_give():
    want = figures.page_text(committed_results())
    got = (ROOT / "docs" / "figures.md").read_text()
    assert got == want, "docs/figures.md differs from the results: run make figures"


def test_every_quoted_figure_is_in_the_latest_results_with_its_value():
    results = committed_results()
    problems = ["%s:%d: %s" % (page_name(p), line, problem) for p in figures.doc_pages(ROOT)
                for line, problem in figures.quote_problems(p.read_text(), results)]
    assert not problems, "\n".join(problems)


def test_no_page_states_a_figure_by_hand():
    found = []
    for p in figures.doc_pages(ROOT):
        if page_name(p) in NOT_YET_QUOTING:
            continue
        for line, sentence, figure in figures.hand_typed(p.read_text()):
            found.append("%s:%d: %r in: %s" % (page_name(p), line, figure, sentence[:160]))
    assert not found, ("figures typed by hand (quote them from docs/figures.md, or say "
                       "they are a target or bound):\n" + "\n".join(found))


def test_pages_not_yet_quoting_gain_no_hand_typed_figure():
    for name, allowed in NOT_YET_QUOTING.items():
        path = ROOT / name
        assert path.exists(), "%s is on NOT_YET_QUOTING but does not exist: remove it" % name
        count = len(figures.hand_typed(path.read_text()))
        assert count, "%s states no figure by hand now: remove it from NOT_YET_QUOTING" % name
        assert count <= allowed, (
            "%s states %d figures by hand, more than its %d: quote the new ones from "
            "docs/figures.md" % (name, count, allowed))


@pytest.mark.parametrize("bench", sorted(p.parent.name for p in RESULTS.glob("*/latest.json")))
def test_a_results_file_says_when_on_what_code_machine_and_load(bench):
    data = json.loads((RESULTS / bench / "latest.json").read_text())
    assert data["bench"] == bench
    assert data["standard"] is True
    assert data["command"] and data["title"]
    assert data["date"].endswith("Z") and "T" in data["date"]
    assert len(data["git"]["commit"]) == 40
    assert data["machine"]["cpu"] and data["machine"]["cores"] >= 1
    assert data["machine"]["python"]
    if data.get("source"):
        # figures written before their benchmark wrote files: where they come from (the
        # commit that first gave them); running the benchmark replaces them
        assert data["source"].startswith("transcribed from "), data["source"]
    else:
        assert data["git"]["dirty"] in (True, False)
        assert data["argv"]
        assert len(data["load"]["start"]) == 3 and len(data["load"]["end"]) == 3
    assert data["figures"]
    for name, fig in data["figures"].items():
        assert benchresults.FIGURE_ID.match(name), name
        assert set(fig) == {"value", "unit", "what"}, (name, fig)
        assert isinstance(fig["value"], (int, float, str)) and fig["what"], (name, fig)


def test_every_benchmark_of_the_figures_page_has_committed_results():
    # make bench's four, the café's two (the floor page's paint latency is --browser's own),
    # the device check of both boards with the image, the events' pairings
    have = set(committed_results())
    want = {"rules", "board-cycle", "ai", "ladder", "cafe", "remote", "events",
            "pico-check-pico_gpio-image", "pico-check-pico_15x15-image"}
    assert want <= have, "no latest results for %s" % sorted(want - have)


# ------------------------------------------------------------------ how a figure is written

def test_a_run_writes_a_timestamped_file_and_the_latest_only_when_standard(tmp_path):
    run = benchresults.Run("demo", "A demo", command="make demo", argv=["demo"])
    run.figure("speed", 12.5, "ms", "a demo figure")
    path = run.write(tmp_path)
    data = json.loads(path.read_text())
    assert path.parent == tmp_path / "demo" and path.name.endswith("Z.json")
    assert json.loads((tmp_path / "demo" / "latest.json").read_text()) == data
    assert data["figures"]["speed"] == {"value": 12.5, "unit": "ms", "what": "a demo figure"}
    assert data["load"]["start"] and data["load"]["end"] and data["git"]["commit"]
    assert data["machine"]["cores"] >= 1

    other = benchresults.Run("demo", "A demo", command="make demo", standard=False)
    other.figure("speed", 99, "ms", "a demo figure")
    other.date = "2099-01-01T00:00:00Z"
    assert other.write(tmp_path).exists()
    assert json.loads((tmp_path / "demo" / "latest.json").read_text()) == data


def test_a_figure_needs_a_name_the_page_can_show_and_a_measured_value():
    run = benchresults.Run("demo", "A demo", command="make demo")
    with pytest.raises(ValueError, match="figure name"):
        run.figure("Speed Now", 1, "ms", "x")
    with pytest.raises(ValueError, match="NaN"):
        run.figure("speed", float("nan"), "ms", "x")
    with pytest.raises(ValueError, match="bench name"):
        benchresults.Run("a.b", "x", command="x")


def test_a_quote_shows_the_value_thousands_separated_and_its_unit():
    q = benchresults.quote
    assert q({"value": 1234, "unit": "ms"}) == "1,234 ms"
    assert q({"value": 183552, "unit": "B"}) == "183,552 B"
    assert q({"value": 0.72, "unit": "s"}) == "0.72 s"
    assert q({"value": 45, "unit": "%"}) == "45%"
    assert q({"value": 35.5, "unit": "x"}) == "35.5x"
    assert q({"value": "185/228/380", "unit": "ms"}) == "185/228/380 ms"


RESULTS_DEMO = {"ai": {"figures": {"xobo.pico.slowest": {"value": 95.1, "unit": "ms",
                                                         "what": "w"}}}}


def test_make_figures_rewrites_a_stale_quote_and_the_check_names_an_unknown_one():
    text = ('Its slowest move takes [90.0 ms](figures.md#ai "xobo.pico.slowest"), see '
            '[1 s](../figures.md#ai "xobo.pico.nothing").')
    new = figures.refresh(text, RESULTS_DEMO)
    assert '[95.1 ms](figures.md#ai "xobo.pico.slowest")' in new
    assert '[1 s](../figures.md#ai "xobo.pico.nothing")' in new
    problems = figures.quote_problems(text, RESULTS_DEMO)
    assert len(problems) == 2
    assert "'90.0 ms'" in problems[0][1] and "'95.1 ms'" in problems[0][1]
    assert "do not have" in problems[1][1]
    assert figures.quote_problems(new, RESULTS_DEMO) == [
        (1, "quotes ai xobo.pico.nothing, which the latest results do not have")]


def test_the_page_names_each_benchmarks_command_date_commit_machine_and_load():
    data = {"bench": "ai", "title": "The computer", "command": "make bench",
            "date": "2026-12-07T16:00:00Z", "git": {"commit": "a" * 40, "dirty": True},
            "machine": {"cpu": "AMD EPYC", "cores": 2, "python": "3.11.7",
                        "micropython": "1.29.0"},
            "load": {"start": [2.5, 2.0, 1.0], "end": [3.0, 2.1, 1.1]},
            "figures": RESULTS_DEMO["ai"]["figures"]}
    text = figures.page_text({"ai": data})
    assert "## ai" in text
    assert "`make bench`" in text and "2026-12-07 16:00:00 UTC" in text
    assert "aaaaaaaaaaaa with uncommitted changes" in text
    assert "AMD EPYC, 2 cores, CPython 3.11.7" in text
    assert "2.50, 2.00, 1.00" in text and "3.00, 2.10, 1.10" in text
    assert "| `xobo.pico.slowest` | 95.1 ms | w |" in text


# ------------------------------------------------------------------ figures typed by hand

@pytest.mark.parametrize("prose", [
    "The computer's move takes 557 ms on the emulated Pico.",
    "XoBo's session worst move was 721 ms, at least 183,552 B free.",
    "The café host answered in 12.5 ms (p95) with 32 boards.",
    "It measured 35-80x slower than the unix port.",
    "The hint sweep: 185/228/380 ms, the worst of the positions.",
    "Boot took 1.2 s.",
    "- the median latency is 5.5 ms",
    "| item | measured |\n| --- | --- |\n| boot | 302 ms |",
    "Chromium used 2.56 CPU-s in a lesson.",
    "MicroPython is about 3 times slower, measured on the same machine.",
    "XoBo's pico level won 57% of its games.",
    "| game | share (95% Wilson) |\n| --- | --- |\n| XoBo | 83% (73-90%) |",
    "The switch took 94 ms. The worst of its session, 721 ms, is under the target.",
])
def test_a_figure_typed_by_hand_in_prose_is_caught(prose):
    assert figures.hand_typed(prose), prose


@pytest.mark.parametrize("prose", [
    # quoted from the results
    'The computer\'s move takes [557 ms](figures.md#ai "xobo.pico.slowest").',
    # targets and bounds are specifications, not measurements
    "The computer's move must be <= 1.5 s; its worst is quoted below.",
    "The heap free after boot has a target of 150,000 B.",
    "The board bounds its slowest search to a 1.8 s budget.",
    "A hint at most 1.5 s, the worst included.",
    # constants stated without a measurement
    "The scan runs every 10 ms and a move settles after 1 s.",
    "The Pico has 264 KB of RAM and a 2 MiB flash.",
    # code is code
    "The worst case is `AI_TIME_MS = 1800` ms.",
    "```\nmeasured 557 ms\n```",
    # a board size, an instruction set, a count
    "The 9x9 and 15x15 boards were measured; x86-64 is the desktop.",
    "A 9 × 9 board takes 81 cubes.",
    # a target's column holds bounds, a confidence level is no figure
    "| item | measured | target |\n| --- | --- | --- |\n| boot | (quoted) | <= 1 s, 9.5-12.5 ms |",
    "The share won, with its 95% Wilson interval.",
    "The worst of 6 positions is measured.",
])
def test_quotes_targets_constants_and_code_are_not_figures_typed_by_hand(prose):
    assert not figures.hand_typed(prose), figures.hand_typed(prose)
