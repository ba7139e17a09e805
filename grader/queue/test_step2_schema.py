"""Step 2: schema.csv describes the valid messages' fields, types and roles."""

from __future__ import annotations

import pytest

from fixtures.queue_messages import FIELD_KINDS, IDEMPOTENCY_KEY, SEQUENCE_FIELD
from grader.machinery.textfile import NotParsed, csv_rows
from grader.queue import types
from grader.queue.lab import QueueLab
from grader.verdict import Check

HEADER = "field,type,role"
ROLES = {IDEMPOTENCY_KEY: "idempotency-key", SEQUENCE_FIELD: "sequence"}


def _rows(queue_lab: QueueLab, req: Check) -> tuple[str, list[dict[str, str]]]:
    shown = queue_lab.shown("schema.csv")
    text = req.text(queue_lab.saved / "schema.csv", shown)
    lines = text.splitlines()
    try:
        header_cells = (csv_rows(lines[0]) or [[]])[0] if lines else []  # a blank line: no row
        reader = csv_rows("\n".join(lines[1:]))
    except NotParsed as exc:
        req.fail(f"{shown}: {exc.reason}")
    header = ",".join(cell.strip() for cell in header_cells)  # quoted cells are fine too
    rows = [
        {
            "field": r[0].strip(),
            "type": (r[1] if len(r) > 1 else "").strip(),
            "role": (r[2] if len(r) > 2 else "").strip(),
        }
        for r in reader
        if any(cell.strip() for cell in r)
    ]
    return header, rows


@pytest.mark.req("Q2.1")
def test_Q2_1_header(req: Check, queue_lab: QueueLab) -> None:
    header, _ = _rows(queue_lab, req)
    req.expect(header == HEADER, f"첫 줄이 {header!r} (기대: {HEADER!r})")


@pytest.mark.req("Q2.2")
def test_Q2_2_fields_of_the_valid_messages(req: Check, queue_lab: QueueLab) -> None:
    _, rows = _rows(queue_lab, req)
    listed = {r["field"] for r in rows}
    expected = queue_lab.expected.fields
    missing, extra = sorted(expected - listed), sorted(listed - expected)
    req.expect(
        not missing and not extra,
        f"빠진 필드: {', '.join(missing) or '없음'}; 메시지에 없는 필드: {', '.join(extra) or '없음'}",
    )


@pytest.mark.req("Q2.3")
def test_Q2_3_roles(req: Check, queue_lab: QueueLab) -> None:
    _, rows = _rows(queue_lab, req)
    wrong = []
    for field, role in ROLES.items():
        has = [r["role"].lower() for r in rows if r["field"] == field]
        if has != [role]:
            wrong.append(f"{field} 의 role 이 {has[0] if has else '(행 없음)'!r} (기대: {role})")
        others = [r["field"] for r in rows if r["role"].lower() == role and r["field"] != field]
        if others:
            wrong.append(f"{', '.join(others)} 에도 {role} 가 있음")
    req.expect(not wrong, "; ".join(wrong))


@pytest.mark.req("Q2.4")
def test_Q2_4_types_fit_the_values(req: Check, queue_lab: QueueLab) -> None:
    _, rows = _rows(queue_lab, req)
    wrong = [
        f"{r['field']}: {r['type'] or '(빈칸)'} (값은 {FIELD_KINDS[r['field']]})"
        for r in rows
        if r["field"] in FIELD_KINDS and not types.plausible(r["type"], FIELD_KINDS[r["field"]])
    ]
    req.expect(not wrong, "값과 맞지 않는 type: " + "; ".join(wrong))
