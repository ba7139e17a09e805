"""report.html: what it says about a class, and that it reads well on a laptop screen in a real
headless browser (Debian's chromium)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from grader.classroom.class_report import Figures, Row, render
from grader.classroom.results import (
    grader_fault_results,
    observation_key,
    parse_results,
    refused_results,
)
from grader.labs import CATALOGUE

LABS = ("queue", "mq")
LAPTOP = (1366, 768)


def _results(name: str, failing: dict[str, str]) -> dict[str, Any]:
    """Gradescope results in today's report.py shape: ``failing`` maps id -> 관찰 text."""
    tests = []
    for rid, req in CATALOGUE.items():
        seen = failing.get(rid)
        output = "통과" if seen is None else f"확인: {req.title}\n관찰: {seen}\n힌트: {req.hint}"
        tests.append(
            {
                "name": f"{rid} {req.title}",
                "number": rid,
                "score": 0.0 if seen else 1.0,
                "max_score": 1.0,
                "status": "failed" if seen else "passed",
                "output": output,
                "extra_data": {"outcome": "failed" if seen else "passed"},
            }
        )
    return {"score": sum(t["score"] for t in tests), "output": "", "tests": tests}


def _class(size: int = 30) -> list[Row]:
    rows = []
    for i in range(size):
        failing = {}
        if i % 3:
            failing["Q3.4"] = f"processing/ 을 거치지 않음: inbox→done (msg-{i:08d}.json)"
        if i % 4 == 0:
            failing["M7.1"] = "--prefetch 없이: unacked 가 40 까지 올라감 (기대: 5 이하)"
        if i % 5 == 0:
            failing["M5.1"] = "422 청구가 claim.dead 가 아니라 claim.in 으로 돌아감"
        rows.append(Row(f"student-{i:02d}", "graded", parse_results(_results(f"student-{i:02d}", failing))))
    rows.append(
        Row(
            "broken-grader",
            "grader-error",
            parse_results(grader_fault_results(LABS, "grader overran its 300 s limit")),
            "grader overran its 300 s limit and was stopped",
        )
    )
    rows.append(
        Row(
            "evil-tar",
            "refused",
            parse_results(refused_results(LABS, "q/../x: ../ 는 받을 수 없습니다")),
            "q/../x: ../ 는 받을 수 없습니다",
        )
    )
    return rows


FIGURES = Figures(
    submissions=32,
    regraded=32,
    jobs=4,
    wall_seconds=151.0,
    labs=LABS,
    tool="eai-lab-grader test",
    finished="2026-11-30 12:00",
)


def test_the_report_says_where_the_class_stands() -> None:
    page = render(_class(), FIGURES)
    assert "<script" not in page and "http://" not in page and "https://" not in page
    assert page.count("<svg") == 2  # one pass-rate chart per lab
    # The heat map: one row per student and lab, a cell per id.
    assert page.count('<td class="name"') == 2 * 32
    assert page.count('class="c ') == 32 * len(CATALOGUE)
    # Q3.4 failed by 20 of the 30 graded students; the grader error and the refused
    # submission say nothing about any id.
    assert re.search(r"Q3\.4 .*?— 20명 실패, 통과 10/30", page)
    # The random file names of one mistake group into one 관찰 line.
    assert re.search(
        r'<td class="n">20명</td><td title="예: [^"]*">processing/ 을 거치지 않음: inbox→done '
        r"\(msg-#.json\)</td>",
        page,
    )
    grader_errors = page.split('id="grader-errors"')[1].split("</section>")[0]
    assert "broken-grader" in grader_errors and "student-01" not in grader_errors
    assert "evil-tar" in page.split('id="refused"')[1]
    assert "M1.3" in page.split('id="policy"')[1]


def test_observation_keys_blank_only_what_changes_per_run() -> None:
    assert observation_key("guid 3f2b8c1e-1d2a-4b3c-9d8e-7f6a5b4c3d2e 두 번 POST") == "guid … 두 번 POST"
    assert observation_key("파일 44개: q62a295-0001.json: inbox → done") == "파일 #개: …-#.json: inbox → done"
    assert observation_key("claim.in 의 인자 {} (기대: 'eai.dlx')") == "claim.in 의 인자 {} (기대: 'eai.dlx')"


PROBE = """
<script>
addEventListener("load", () => {
  const box = (sel) => { const e = document.querySelector(sel); if (!e) return null;
    const r = e.getBoundingClientRect(); return {w: r.width, h: r.height, right: r.right}; };
  const heat = [...document.querySelectorAll("table.heat")].map(
    (t) => ({table: t.scrollWidth, room: t.parentElement.clientWidth}));
  const out = {inner: innerWidth, page: document.documentElement.scrollWidth,
    title: document.querySelector("h1").textContent, heat,
    boxes: Object.fromEntries(["#figures .cards", "svg.chart", "table.heat", "#observations .obs",
      "#grader-errors table", "#refused table"].map((s) => [s, box(s)]))};
  const pre = document.createElement("pre"); pre.id = "probe";
  pre.textContent = JSON.stringify(out); document.body.appendChild(pre);
});
</script>
"""


def _chromium() -> str:
    path = shutil.which("chromium")
    if path is None:  # a missing browser is a harness fault, never a pass
        raise RuntimeError("chromium is not installed: apt-get install -y chromium fonts-noto-cjk")
    return path


def _headless(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            _chromium(),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            f"--window-size={LAPTOP[0]},{LAPTOP[1]}",
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("report") / "report.html"
    path.write_text(render(_class(), FIGURES))
    return path


def test_it_fits_a_laptop_screen_in_a_real_browser(page: Path) -> None:
    probe = page.with_name("probe.html")
    probe.write_text(page.read_text().replace("</body>", PROBE + "</body>"))
    dom = _headless("--virtual-time-budget=5000", "--dump-dom", probe.as_uri()).stdout
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S)
    assert found, dom[-2000:]
    seen = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    assert seen["inner"] == LAPTOP[0]
    assert seen["page"] <= seen["inner"], f"horizontal overflow: {seen}"
    assert seen["title"] == "학급 채점 보고서"
    for selector, box in seen["boxes"].items():
        assert box and box["w"] > 0 and box["h"] > 0, f"{selector} is not visible: {seen}"
        assert box["right"] <= seen["inner"], f"{selector} sticks out: {seen}"
    assert all(h["table"] <= h["room"] for h in seen["heat"]), f"heat map scrolls: {seen}"


def test_a_screenshot_at_laptop_size(page: Path) -> None:
    shot = page.with_name("report.png")
    _headless(f"--screenshot={shot}", page.as_uri())
    assert shot.stat().st_size > 20_000  # a blank page is a few kB
    keep = Path("/tmp/lab-grader-report.png")  # for a person to look at
    shutil.copyfile(shot, keep)
