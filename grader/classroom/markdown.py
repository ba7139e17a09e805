"""The Korean scoreboard as Markdown (GitHub's job summary, Gradescope's ``output_format: md``)."""

from __future__ import annotations

import html

from grader.classroom.results import PASSED, IdResult, Results
from grader.labs import CATALOGUE
from grader.machinery.mdtext import code_block, literal

MARK = {"passed": "✓", "failed": "✗", "error": "!"}
TAIL = "스크립트 출력(끝부분):"


def finding(output: str) -> str:
    """A check's Korean text (확인/관찰/힌트 lines, then the script's output tail) as Markdown:
    one paragraph per line, the tail in a code block."""
    head, _, tail = output.partition(TAIL)
    parts = []
    for line in head.strip().splitlines():
        label, colon, rest = line.partition(":")
        if colon and label in ("확인", "관찰", "힌트"):
            parts.append(f"**{label}:**{literal(rest)}")
        elif line.strip():
            parts.append(literal(line.strip()))
    if tail.strip():
        lines = [line.strip().removeprefix("|").removeprefix(" ") for line in tail.splitlines()]
        parts.append(f"{TAIL}\n\n{code_block(chr(10).join(lines).strip(chr(10)), 'text')}")
    return "\n\n".join(parts)


def _failure(t: IdResult) -> list[str]:
    return [
        "<details>",
        f"<summary>{MARK.get(t.outcome, '✗')} {html.escape(t.name)}</summary>",
        "",
        t.output if t.markdown else finding(t.output),
        "",
        "</details>",
        "",
    ]


def scoreboard(results: Results, heading: str = "채점 결과") -> str:
    tests = list(results.tests.values())
    lines = [
        f"## {heading}: {results.passed}/{len(tests)} 통과"
        + ("" if results.all_passed else " — 아직 남았습니다"),
        "",
    ]
    if results.faults or results.errors:
        lines += [
            "> **채점기 오류**(학생 잘못이 아님): 이 결과는 점수가 아닙니다. 다시 돌리거나 "
            "조교에게 알리세요.",
            "",
        ]
        lines += [f"> - {literal(fault)}" for fault in results.faults] + [""]
    for lab in CATALOGUE.names:
        mine = [t for t in tests if t.lab == lab]
        if not mine:
            continue
        ok = sum(t.outcome == PASSED for t in mine)
        lines += [
            f"### [{lab}] {CATALOGUE.labs[lab].heading}: {ok}/{len(mine)}",
            "",
            "| 단계 | 통과 | 남은 항목 |",
            "|---|---|---|",
        ]
        for step, title in CATALOGUE.labs[lab].steps.items():
            in_step = [t for t in mine if t.step == step]
            if not in_step:
                continue
            passed = sum(t.outcome == PASSED for t in in_step)
            left = " ".join(f"{MARK.get(t.outcome, '✗')}{t.id}" for t in in_step if t.outcome != PASSED)
            mark = "✓" if passed == len(in_step) else "✗"
            lines.append(f"| {mark} {step}단계 {title} | {passed}/{len(in_step)} | {left} |")
        lines.append("")
        blocked: dict[str, list[str]] = {}
        for t in mine:
            if t.outcome != PASSED and t.blocked_by:
                blocked.setdefault(t.blocked_by, []).append(t.id)
            elif t.outcome != PASSED:
                lines += _failure(t)
        lines += [
            f"- `{artefact}` 이(가) 없어 {', '.join(ids)} 을(를) 판정하지 못했습니다 "
            f"(`{artefact}` 을(를) 먼저 만드세요)."
            for artefact, ids in blocked.items()
        ]
        lines += [""] if blocked else []
    return "\n".join(lines).rstrip() + "\n"
