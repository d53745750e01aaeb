"""`autodist explain`: the layout over the program, why, what would change it;
the HTML page (parsed), the pictures (read back), the JSON and the text."""

from __future__ import annotations

import contextlib
import io
import json
from html.parser import HTMLParser

import numpy as np
import pytest
from PIL import Image

from autodist.cli import main

from ..conftest import PROGRAMS, ROOT, SAMPLES

ADI = str(SAMPLES / "adi.f")
APPBT = ROOT / "tests" / "frontend" / "corpus" / "nas" / "appbt.f"
# ADI at 16 processors on ddt1997 (tests/sweep/test_cli.py): static computes for
# 5.65787904 s and shifts 81,920 bytes, dynamic computes for 0.69794304 s and
# remaps 19 x 3 x 30,720 bytes, so static wins above this remote access time.
CROSSOVER = (5.65787904 - 0.69794304) / (19 * 3 * 30720 - 81920)  # 2.9716e-6 s/byte


class Page(HTMLParser):
    """Everything the tests look for in the page: ids, links, images, tables, text."""

    def __init__(self, text: str):
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.images: list[dict[str, str]] = []
        self.areas: list[str] = []
        self.tables = 0
        self.scripts: list[str] = []
        self.text: list[str] = []
        self._script = False
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "a" and "href" in a:
            self.links.append(a["href"])
        if tag == "img":
            self.images.append(a)
        if tag == "area":
            self.areas.append(a["href"])
        if tag == "table":
            self.tables += 1
        if tag == "script":
            self._script = True
            if "src" in a:
                self.scripts.append(a["src"])

    def handle_endtag(self, tag):
        if tag == "script":
            self._script = False

    def handle_data(self, data):
        if not self._script:
            self.text.append(data)

    @property
    def words(self) -> str:
        return " ".join(self.text)


def png(path):
    """The picture's pixels (and it is one: PIL reads it)."""
    with Image.open(path) as im:
        assert im.format == "PNG"
        return np.asarray(im.convert("RGB"), dtype=float)


def explain(capsys, *args):
    status = main(["explain", *args])
    out, err = capsys.readouterr()
    assert status == 0, err
    return out, err


@pytest.fixture(scope="module")
def adi(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("adi")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["explain", ADI, "--procs", "16", "--html", str(tmp / "adi.html"), "--png", str(tmp / "png"),
                       "--json", str(tmp / "adi.json"), "--assumptions", "remote_access_time"])
    assert status == 0, err.getvalue()
    (tmp / "stdout").write_text(out.getvalue())
    (tmp / "stderr").write_text(err.getvalue())
    return tmp, json.loads((tmp / "adi.json").read_text())


def test_adi_timeline_shows_the_row_column_remapping(adi):
    _, doc = adi
    assert doc["chosen"] == "dynamic"
    t = doc["timelines"][0]
    assert t["kind"] == "dynamic" and [p["key"] for p in t["phases"]] == [f"ADI:{k}" for k in range(1, 10)]
    rows = {p["id"]: p["layouts"] for p in t["phases"]}
    assert all(rows[k][a] == "(BLOCK,*)" for k in (4, 5, 6) for a in rows[k])  # row sweeps
    assert all(rows[k][a] == "(*,BLOCK)" for k in (7, 8, 9) for a in rows[k])  # column sweeps
    moves = {(r["name"], r["before_phase"], r["from"], r["to"], r["count"]) for r in t["remaps"]}
    assert moves == {(a, "ADI:7", "(BLOCK,*)", "(*,BLOCK)", 10.0) for a in "ABX"} | {
        (a, "ADI:4", "(*,BLOCK)", "(BLOCK,*)", 9.0) for a in "ABX"}
    assert [(b["text"], b["first_phase"], b["last_phase"]) for b in t["loops"]] == [("DO ITER = 1, 10", "ADI:4",
                                                                                  "ADI:9")]
    assert doc["timelines"][1]["kind"] == "static" and not doc["timelines"][1]["remaps"]


def test_adi_why_names_the_runner_ups_and_the_phases_that_decide(adi):
    _, doc = adi
    d = doc["decision"]
    assert d["other"] == "static" and d["delta"] == pytest.approx(5.73979904 - 2.44898304)
    assert [c["key"] for c in d["contributions"]] == ["ADI:4", "remapping", "ADI:6"]
    x = next(a for a in doc["arrays"] if a["id"] == "X")
    assert x["layout"] == "(BLOCK,*) -> (*,BLOCK)" and set(x["together"]) == {"A", "B"}
    alts = {a["layout"]: a for a in x["alternatives"]}
    assert alts["(*,BLOCK)"]["delta"] == pytest.approx(d["delta"])
    # static (*,BLOCK) loses in the row sweeps, static (BLOCK,*) in the column sweeps
    assert alts["(*,BLOCK)"]["contributions"][0]["key"] == "ADI:4"
    assert alts["(BLOCK,*)"]["contributions"][0]["key"] == "ADI:7"
    assert doc["replicated"] == [] and doc["unknown_trip_counts"] == []


def test_adi_what_would_change_it_is_the_crossover_sweep_finds(adi, capsys):
    _, doc = adi
    (a,) = doc["assumptions"]
    assert a["key"] == "remote_access_time" and a["value"] == 1e-6 and a["matters"]
    (flip,) = a["flips"]
    assert flip["side"] == "above" and flip["kind"] == "solution" and flip["to"]["chosen"] == "static"
    assert flip["refined"] and flip["at"] == pytest.approx(CROSSOVER, rel=2e-3)
    assert "static wins above 2.97 us/byte" in flip["text"]
    assert main(["sweep", ADI, "--procs", "16", "--vary", "remote_access_time=1e-9:1e-3:log:13",
                 "--json", "-", "-q"]) == 0
    sweep = json.loads(capsys.readouterr().out)
    (same,) = [c for c in sweep["crossovers"] if c["kind"] == "solution"]
    assert flip["at"] == pytest.approx(same["at"], rel=1e-12)  # the same bracket, the same bisection


def test_adi_page_is_self_contained_and_links_every_phase_and_array(adi):
    tmp, doc = adi
    page = Page((tmp / "adi.html").read_text())
    assert not page.scripts and all(img["src"].startswith("data:image/png;base64,") for img in page.images)
    assert len(page.images) == 3  # two timelines, the what-if panels
    assert not [link for link in page.links if link.startswith(("http:", "https:", "//"))]
    for p in doc["timelines"][0]["phases"]:
        pid = f"phase-ADI-{p['id']}"
        assert pid in page.ids and f"#{pid}" in page.areas
        assert f"src-0-{p['first_line']}" in page.ids
    assert {"array-A", "array-B", "array-X", "layout", "why", "what-if", "phases", "source"} <= page.ids
    assert {f"#{i}" for i in page.ids if i.startswith("src-")} & set(page.links)
    assert "static wins above 2.97 us/byte" in page.words
    assert page.tables >= 4


def test_adi_pictures_are_real_pictures(adi):
    tmp, doc = adi
    names = sorted(p.name for p in (tmp / "png").iterdir())
    assert names == ["timeline-dynamic.png", "timeline-static.png", "what-if.png"]
    page = Page((tmp / "adi.html").read_text())
    sizes = {(int(i["width"]), int(i["height"])) for i in page.images}
    for name in names:
        pixels = png(tmp / "png" / name)
        assert pixels.var() > 0 and (pixels.shape[1], pixels.shape[0]) in sizes
    # the timeline holds both layouts' colours and the red of the remaps
    pixels = png(tmp / "png" / "timeline-dynamic.png")
    assert (pixels[:, :, 0] > 200).sum() and ((pixels[:, :, 0] > 200) & (pixels[:, :, 1] < 60)).any()


def test_adi_text_gives_the_same_facts(adi):
    tmp, _ = adi
    out, err = (tmp / "stdout").read_text(), (tmp / "stderr").read_text()
    assert "Chosen: the dynamic solution" in out
    assert "A,B,X (BLOCK,*) -> (*,BLOCK) before phase 7 (line 55) of ADI: 10 times" in out
    assert "runner-up static T(*,BLOCK)" in out and "loop DO ITER = 1, 10" in out
    assert "remote access time 1 us/byte: static wins above 2.97 us/byte" in out
    assert "ddt1997" in err and f"autodist: wrote {tmp / 'adi.html'}" in err


def test_a_bigger_program_page_finds_every_phase_and_array(tmp_path, capsys):
    html, pngs = tmp_path / "appbt.html", tmp_path / "png"
    explain(capsys, str(APPBT), "-I", str(APPBT.parent), "--procs", "4", "--html", str(html), "--png", str(pngs),
            "--json", str(tmp_path / "appbt.json"), "--assumptions", "none", "-q")
    doc = json.loads((tmp_path / "appbt.json").read_text())
    page = Page(html.read_text())
    t = doc["timelines"][0]
    # 23 loop and call phases, and line 54 (TMAX = TIMER_READ(1)) calling a FUNCTION
    assert len(t["phases"]) == 24 and len({p["instance"] for p in t["phases"]}) == 8
    for p in t["phases"]:
        assert f"phase-{p['instance']}-{p['id']}" in page.ids
    arrays = {a["id"] for a in t["arrays"]}
    assert arrays == {a["id"] for a in doc["arrays"]} | {r["id"] for r in doc["replicated"]}
    for gid in arrays:
        assert f"array-{gid}" in page.ids
    # a template smaller than the processors is still distributed over fewer of
    # them, so what stays replicated does for its cost, or is a work array private
    # to the loops around every use (through calls too)
    assert "cost" in {r["category"] for r in doc["replicated"]}
    assert {r["category"] for r in doc["replicated"]} <= {"cost", "private work array"}
    # the bounds come from PARAMETERs copied into COMMON (GRID_POINTS(1) = PROBLEM_SIZE): all known
    assert doc["unknown_trip_counts"] == [] and "every trip count is known" in page.words
    # a timeline per solution shown (the other one too when they differ)
    assert {p.name for p in pngs.iterdir()} == {f"timeline-{x['kind']}.png" for x in doc["timelines"]}
    pixels = png(pngs / f"timeline-{t['kind']}.png")
    assert pixels.var() > 0 and pixels.shape[1] > 1000  # a column per phase


def test_trip_count_and_branch_probability_flips(capsys):
    src = PROGRAMS / "two_branches.f"
    out, _ = explain(capsys, str(src), "--procs", "4", "--assumptions", "branch_probability", "--json", "-", "-q")
    (a,) = json.loads(out)["assumptions"]
    assert a["matters"] and a["flips"] and 0 < a["flips"][0]["at"] < 1
    assert "autodist profile" in a["hint"]


def test_trip_count_flip_matches_sweep(tmp_path, capsys):
    src = tmp_path / "trips.f"
    src.write_text("""\
      PROGRAM TRIPS
      INTEGER N, I, J, K
      DOUBLE PRECISION A(64,64)
      READ (*,*) N
      DO 5 J = 1, 64
      DO 5 I = 1, 64
         A(I,J) = DBLE(I + J)
    5 CONTINUE
      DO 10 K = 1, N
      DO 10 J = 2, 64
      DO 10 I = 1, 64
         A(I,J) = A(I,J) + A(I,J-1) * 0.5D0
   10 CONTINUE
      DO 20 K = 1, 10
      DO 20 J = 1, 64
      DO 20 I = 2, 64
         A(I,J) = A(I,J) + A(I-1,J) * 0.5D0
   20 CONTINUE
      WRITE (*,*) A(64,64)
      END
""")
    out, _ = explain(capsys, str(src), "--procs", "4", "--assumptions", "trip_count", "--json", "-", "-q")
    doc = json.loads(out)
    (u,) = doc["unknown_trip_counts"]
    assert (u["line"], u["assumed"], u["phase"]) == (9, 100.0, None)
    (a,) = doc["assumptions"]
    (flip,) = a["flips"]
    assert a["key"] == "default_trip_count" and flip["side"] == "below" and flip["at"] == 2
    assert "--trip-count" in a["hint"]
    # with --trip-count 1 the static solution is chosen
    out, _ = explain(capsys, str(src), "--procs", "4", "--trip-count", "1", "--assumptions", "none", "--json", "-")
    assert json.loads(out)["chosen"] == "static"


@pytest.mark.parametrize("args, message", [
    (["--procs", "4,8"], "--procs: explain takes one processor count"),
    (["--assumptions", "speed"], "--assumptions: 'speed' cannot be examined"),
    (["--trip-count", "0"], "--trip-count must be an integer from 1"),
    (["--html", ADI], "refusing to overwrite the input file"),
    (["--png", ADI], "--png " + ADI + ": not a directory"),
    (["--tolerance", "2"], "--tolerance must be between 0 and 1"),
])
def test_bad_input_is_a_one_line_error(capsys, args, message):
    assert main(["explain", ADI, "-q", *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("autodist: error: ") and message in err[0]


def test_missing_file_and_bad_option(capsys):
    assert main(["explain", "no_such.f"]) == 2
    assert "no_such.f: no such file" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main(["explain", ADI, "--bogus"])
    assert exc.value.code == 2


def test_annotate_writes_the_same_page(tmp_path, capsys):
    page = tmp_path / "adi.html"
    assert main(["annotate", ADI, "--procs", "16", "-o", str(tmp_path / "adi_hpf.f"), "--explain", str(page),
                 "--assumptions", "none", "-q"]) == 0
    parsed = Page(page.read_text())
    assert {f"phase-ADI-{k}" for k in range(1, 10)} <= parsed.ids and len(parsed.images) == 2
    assert "REDISTRIBUTE" in (tmp_path / "adi_hpf.f").read_text()
