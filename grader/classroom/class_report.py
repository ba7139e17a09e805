"""report.html: where the class stands, in one self-contained file (inline CSS and SVG, no
script, nothing fetched), Korean titles like the scoreboard."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from html import escape

from grader.classroom.results import PASSED, Results, expected_ids, observation_key
from grader.labs import CATALOGUE

FAULT, REFUSED = "grader-error", "refused"
TOP_OBSERVATIONS = 5


@dataclass(frozen=True)
class Figures:
    submissions: int
    regraded: int
    jobs: int
    wall_seconds: float
    labs: tuple[str, ...]
    tool: str
    finished: str
    part: str = ""  # which part of the class this is (a shard), said under the title
    shards: int = 1  # machines whose batches were merged into this report (jobs: their sum)


@dataclass(frozen=True)
class Row:
    name: str
    status: str  # graded / grader-error / refused
    results: Results
    note: str = ""

    @property
    def judged(self) -> bool:
        """Counts in the class's grades: a grader fault is not a verdict on the student."""
        return self.status != FAULT

    @property
    def per_id(self) -> bool:
        """Counts in the figures per id: a refused submission says nothing about any id."""
        return self.status not in (FAULT, REFUSED)


CSS = """
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 "Noto Sans CJK KR","Noto Sans KR","Malgun Gothic","Apple SD Gothic Neo",
 system-ui,sans-serif;color:#1f2933;background:#f5f7fa}
main{max-width:1180px;margin:0 auto;padding:24px 20px 48px}
h1{font-size:26px;margin:0 0 4px}h2{font-size:20px;margin:36px 0 10px;border-bottom:2px solid #d9e2ec;
 padding-bottom:4px}h3{font-size:16px;margin:20px 0 8px}
.sub{color:#52606d;margin:0 0 16px}
.cards{display:flex;flex-wrap:wrap;gap:10px}
.card{background:#fff;border:1px solid #d9e2ec;border-radius:8px;padding:8px 14px;min-width:118px}
.card b{display:block;font-size:22px}.card span{color:#52606d;font-size:13px}
.card.warn{border-color:#e12d39;background:#ffe3e3}
svg.chart{width:100%;height:auto;background:#fff;border:1px solid #d9e2ec;border-radius:8px}
.scroll{max-width:100%;overflow-x:auto}
table{border-collapse:collapse;background:#fff}
table.heat td,table.heat th{border:1px solid #e4e7eb;padding:0}
table.heat th.id{writing-mode:vertical-rl;transform:rotate(180deg);font-size:11px;font-weight:500;
 padding:4px 0;width:21px;height:46px}
table.heat td.c{width:21px;height:21px}
table.heat td.name,table.heat th.name{padding:0 8px;text-align:left;white-space:nowrap;
 max-width:170px;overflow:hidden;text-overflow:ellipsis}
table.heat td.score{padding:0 8px;text-align:right;font-variant-numeric:tabular-nums}
.p{background:#3ebd93}.f{background:#ef4e4e}.e{background:#f0b429}.n{background:#cbd2d9}
.legend{font-size:13px;color:#52606d;margin:6px 0}
.legend i{display:inline-block;width:12px;height:12px;margin:0 4px 0 12px;vertical-align:-1px}
table.list{width:100%}table.list td,table.list th{border-bottom:1px solid #e4e7eb;padding:6px 10px;
 text-align:left;vertical-align:top}
table.list td.n{width:4em;text-align:right;font-variant-numeric:tabular-nums}
.obs{background:#fff;border:1px solid #d9e2ec;border-radius:8px;padding:4px 14px;margin:10px 0}
.obs h3{margin:8px 0}.obs .rate{color:#52606d;font-weight:400;font-size:14px}
.note{background:#fff8e1;border-left:4px solid #f0b429;padding:8px 12px}
.ok{color:#199473}
footer{margin-top:40px;color:#7b8794;font-size:12px}
"""


def _pass_rates(rows: list[Row], ids: list[str]) -> dict[str, tuple[int, int]]:
    """id -> (students who passed it, students judged on it)."""
    rates = {}
    for rid in ids:
        judged = [r for r in rows if r.per_id and rid in r.results.tests]
        rates[rid] = (sum(r.results.tests[rid].outcome == PASSED for r in judged), len(judged))
    return rates


def _colour(rate: float) -> str:
    return "#3ebd93" if rate >= 0.8 else "#f0b429" if rate >= 0.5 else "#ef4e4e"


def chart(lab: str, rates: dict[str, tuple[int, int]]) -> str:
    """Pass rate per id of one lab: an inline SVG bar chart that scales to the page's width."""
    ids = [rid for rid in rates if CATALOGUE[rid].lab == lab]
    step, top, height = 40, 24, 160
    width = step * len(ids) + 50
    parts = [
        f'<svg class="chart" viewBox="0 0 {width} {top + height + 40}" role="img" '
        f'aria-label="{escape(lab)} 항목별 통과율">'
    ]
    for pct in (0, 50, 100):
        y = top + height - height * pct / 100
        parts.append(
            f'<line x1="40" x2="{width}" y1="{y}" y2="{y}" stroke="#e4e7eb"/>'
            f'<text x="34" y="{y + 4}" font-size="11" text-anchor="end" fill="#7b8794">'
            f"{pct}%</text>"
        )
    for i, rid in enumerate(ids):
        passed, judged = rates[rid]
        rate = passed / judged if judged else 0.0
        x = 46 + i * step
        h = height * rate
        label = f"{round(rate * 100)}" if judged else "–"
        parts.append(
            f"<g><title>{escape(rid)} {escape(CATALOGUE[rid].title)}: {passed}/{judged}</title>"
            f'<rect x="{x}" y="{top + height - h:.1f}" width="{step - 10}" height="{h:.1f}" '
            f'fill="{_colour(rate)}" rx="2"/>'
            f'<text x="{x + (step - 10) / 2}" y="{top + height - h - 4:.1f}" font-size="11" '
            f'text-anchor="middle" fill="#323f4b">{label}</text>'
            f'<text x="{x + (step - 10) / 2}" y="{top + height + 16}" font-size="11" '
            f'text-anchor="middle" fill="#323f4b">{escape(rid)}</text></g>'
        )
    parts.append("</svg>")
    return "".join(parts)


def heat_map(lab: str, rows: list[Row]) -> str:
    ids = [r.id for r in CATALOGUE.values() if r.lab == lab]
    head = "".join(f'<th class="id" title="{escape(CATALOGUE[i].title)}">{escape(i)}</th>' for i in ids)
    body = []
    cls = {"passed": "p", "failed": "f", "error": "e"}
    for row in rows:
        cells = []
        for rid in ids:
            t = row.results.tests.get(rid)
            if t is None:
                cells.append('<td class="c n" title="채점 안 함"></td>')
                continue
            seen = t.observations[0] if t.observations else t.outcome
            cells.append(
                f'<td class="c {cls.get(t.outcome, "e")}" title="{escape(rid)}: {escape(seen[:200])}"></td>'
            )
        mine = [t for t in row.results.tests.values() if t.lab == lab]
        score = f"{sum(t.outcome == PASSED for t in mine)}/{len(mine)}" if row.judged else "오류"
        body.append(
            f'<tr><td class="name" title="{escape(row.name)}">{escape(row.name)}</td>'
            f'{"".join(cells)}<td class="score">{score}</td></tr>'
        )
    return (
        f'<div class="scroll"><table class="heat" aria-label="{escape(lab)} 학생별 결과">'
        f'<tr><th class="name">학생</th>{head}<th class="name">통과</th></tr>'
        f"{''.join(body)}</table></div>"
    )


def observations(rows: list[Row], ids: list[str], rates: dict[str, tuple[int, int]]) -> str:
    """For each id some students failed: the most frequent 관찰 lines, grouped, with counts."""
    blocks = []
    for rid in ids:
        failed = [
            r for r in rows if r.per_id and rid in r.results.tests and r.results.tests[rid].outcome != PASSED
        ]
        if not failed:
            continue
        counts: Counter[str] = Counter()
        example: dict[str, str] = {}  # a line as one student saw it, shown on hover
        for r in failed:
            seen = r.results.tests[rid].observations or ["(관찰 줄 없음)"]
            keys = {observation_key(line): line for line in seen}
            counts.update(keys.keys())
            for key, line in keys.items():
                example.setdefault(key, line)
        passed, judged = rates[rid]
        items = "".join(
            f'<tr><td class="n">{n}명</td><td title="예: {escape(example[text][:300])}">'
            f"{escape(text)}</td></tr>"
            for text, n in counts.most_common(TOP_OBSERVATIONS)
        )
        more = len(counts) - TOP_OBSERVATIONS
        extra = f'<p class="legend">그 밖의 관찰 {more}가지</p>' if more > 0 else ""
        blocks.append(
            f'<div class="obs"><h3>{escape(rid)} {escape(CATALOGUE[rid].title)} '
            f'<span class="rate">— {len(failed)}명 실패, 통과 {passed}/{judged}</span></h3>'
            f'<table class="list">{items}</table>{extra}</div>'
        )
    return "".join(blocks) or '<p class="ok">모든 학생이 모든 항목을 통과했습니다.</p>'


def apart(rows: list[Row], status: str, empty: str) -> str:
    mine = [r for r in rows if r.status == status]
    if not mine:
        return f'<p class="ok">{empty}</p>'
    items = "".join(f"<tr><td>{escape(r.name)}</td><td>{escape(r.note[:600])}</td></tr>" for r in mine)
    return f'<table class="list"><tr><th>학생</th><th>내용</th></tr>{items}</table>'


def _card(value: str, label: str, warn: bool = False) -> str:
    return f'<div class="card{" warn" if warn else ""}"><b>{escape(value)}</b><span>{label}</span></div>'


def render(rows: list[Row], figures: Figures) -> str:
    ids = expected_ids(figures.labs)
    rates = _pass_rates(rows, ids)
    judged = [r for r in rows if r.judged]
    faults = sum(r.status == FAULT for r in rows)
    refused = sum(r.status == REFUSED for r in rows)
    all_passed = sum(r.results.all_passed for r in judged)
    mean = sum(r.results.score for r in judged) / len(judged) if judged else 0.0
    best = max((r.results.max_score for r in judged), default=float(len(ids)))
    wall = round(figures.wall_seconds)
    per_minute = figures.regraded / figures.wall_seconds * 60 if figures.wall_seconds else 0.0
    cards = "".join(
        [
            _card(str(figures.submissions), "제출물"),
            _card(str(all_passed), "모두 통과"),
            _card(f"{mean:.1f}/{best:g}", "평균 점수"),
            _card(str(faults), "채점기 오류", warn=faults > 0),
            _card(str(refused), "풀 수 없는 제출물", warn=refused > 0),
            _card(
                f"{figures.regraded}", f"이번에 채점(나머지 {figures.submissions - figures.regraded} 재사용)"
            ),
            *([_card(str(figures.shards), "샤드 (기계)")] if figures.shards > 1 else []),
            _card(str(figures.jobs), "동시 작업"),
            _card(f"{wall // 60}:{wall % 60:02d}", f"걸린 시간 (분당 {per_minute:.1f}개)"),
        ]
    )
    labs = []
    for lab in figures.labs:
        labs.append(f"<h3>[{escape(lab)}] {escape(CATALOGUE.labs[lab].heading)}</h3>{chart(lab, rates)}")
    heat = "".join(
        f"<h3>[{escape(lab)}] {escape(CATALOGUE.labs[lab].heading)}</h3>"
        f"{heat_map(lab, sorted(rows, key=lambda r: r.name))}"
        for lab in figures.labs
    )
    legend = (
        '<p class="legend"><i class="p"></i>통과<i class="f"></i>실패'
        '<i class="e"></i>채점기 오류<i class="n"></i>채점 안 함 '
        "— 칸에 마우스를 올리면 관찰 내용이 보입니다.</p>"
    )
    where = (
        f"샤드 {figures.shards}개로 나눠 기계마다 채점한 뒤 합쳤습니다(모두 합해 동시 {figures.jobs}개, "
        "기계마다 브로커 하나에 채점마다 임시 vhost)"
        if figures.shards > 1
        else f"동시 {figures.jobs}개, 브로커 하나에 채점마다 임시 vhost"
    )
    part = f"<br>{escape(figures.part)}" if figures.part else ""
    policy = "".join(
        f'<p class="note">{escape(CATALOGUE.labs[lab].away_note)}</p>'
        for lab in figures.labs
        if CATALOGUE.labs[lab].away_note
    )
    return f"""<!DOCTYPE html>
<html lang="ko"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>학급 채점 보고서</title><style>{CSS}</style></head>
<body><main>
<h1>학급 채점 보고서</h1>
<p class="sub">{escape(" · ".join(f"{lab}: {CATALOGUE.labs[lab].heading}" for lab in figures.labs))}
 — {escape(figures.finished)}{part}</p>
<section id="figures"><div class="cards">{cards}</div></section>
<section id="pass-rate"><h2>항목별 통과율</h2>{"".join(labs)}</section>
<section id="heat-map"><h2>학생 × 항목</h2>{legend}{heat}</section>
<section id="observations"><h2>항목별 자주 나온 관찰</h2>{observations(rows, ids, rates)}</section>
<section id="grader-errors"><h2>채점기 오류 (학생 잘못이 아님, 점수 아님)</h2>
{apart(rows, FAULT, "채점기 오류가 없습니다.")}</section>
<section id="refused"><h2>풀 수 없는 제출물</h2>{apart(rows, REFUSED, "모든 제출물을 풀었습니다.")}</section>
<section id="policy"><h2>채점 방법</h2>{policy}
<p>제출물마다 따로 만든 lab root 에서 채점기를 실행했습니다({where}).
 채점기 오류는 한 번 다시 시도한 뒤에도 남은 것이며 점수가 아니므로 통과율과
 평균에서 뺐습니다. 풀 수 없는 제출물은 0점으로 평균에 들어가지만 항목별 통과율에서는 뺐습니다.</p></section>
<footer>{escape(figures.tool)}</footer>
</main></body></html>
"""
