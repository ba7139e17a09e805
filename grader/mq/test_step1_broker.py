"""Step 1: the broker started with mq-up.sh, and its status saved in status.txt."""

from __future__ import annotations

import re

import pytest

from grader.mq import edges
from grader.mq.lab import MqLab, Stage
from grader.mq.records import NodeLimit
from grader.verdict import Check

ANSI = re.compile(r"\x1b\[[0-9;]*m")
WATERMARK_LINE = re.compile(r"Memory high watermark setting:\s*0\.5369 gb")
LIMIT_512MIB = str(512 * 1024 * 1024)  # the computed limit in bytes
COMPUTED = re.compile(r"computed to:\s*([0-9.]+)\s*gb")  # status's own figure of that limit
GB_512MIB = f"{512 * 1024 * 1024 / 1e9:.4f}"  # 0.5369: status prints gb as 10^9 bytes


def _status(req: Check, mq_lab: MqLab, mq_stage: Stage) -> str:
    """status.txt as saved before grading, read tolerantly (edges.STATUS_TEXT)."""
    return ANSI.sub("", req.text(mq_stage.saved / "status.txt", mq_lab.shown("status.txt")))


@pytest.mark.req("M1.1")
def test_M1_1_status_of_rabbit_at_localhost(req: Check, mq_lab: MqLab, mq_stage: Stage) -> None:
    text = _status(req, mq_lab, mq_stage)
    named = re.search(r"(Status of node|Node name:)\s*rabbit@localhost\b", text)
    looks = "RabbitMQ version" in text and "Memory high watermark" in text
    first = text.strip().splitlines()[0][:80] if text.strip() else "(빈 파일)"
    req.expect(
        bool(named) and looks,
        f"{edges.STATUS_WHOLE}: rabbitmqctl status 출력이 아님"
        + ("" if named else " (rabbit@localhost 노드 이름 없음)")
        + ("" if looks else " (RabbitMQ version·Memory high watermark 항목 없음)")
        + f": 첫 줄 {first!r}",
    )


@pytest.mark.req("M1.2")
def test_M1_2_watermark_is_512mib(req: Check, mq_lab: MqLab, mq_stage: Stage) -> None:
    text = _status(req, mq_lab, mq_stage)
    line = next((ln.strip() for ln in text.splitlines() if "high watermark setting" in ln), "")
    req.expect(
        bool(WATERMARK_LINE.search(text)),
        f"{edges.WATERMARK_LINE}: {line or '(없음)'} (기대: 0.5369 gb)",
    )


@pytest.mark.req("M1.3")
def test_M1_3_node_answers_with_512mib(
    req: Check, student_node: NodeLimit, mq_lab: MqLab, mq_stage: Stage
) -> None:
    seen = student_node
    if seen.from_status_txt:  # graded away from the pod: the limit as status.txt shows it
        computed = COMPUTED.search(_status(req, mq_lab, mq_stage))
        req.expect(
            computed is not None and computed.group(1) == GB_512MIB,
            f"{edges.LIVE_NODE} (파드 밖 채점: 살아 있는 노드 대신 제출된 status.txt 로 판정): "
            f"노드가 계산한 메모리 한도 {computed.group(1) + ' gb' if computed else '(computed to 없음)'} "
            f"(기대: {GB_512MIB} gb = 512MiB)",
        )
        return
    req.expect(seen.answers, f"{edges.LIVE_NODE}: rabbit@localhost 가 5672/15672 에서 응답하지 않음")
    req.expect(
        seen.error is None, f"{edges.LIVE_NODE}: rabbitmqctl -n rabbit@localhost 가 실패: {seen.error}"
    )
    req.expect(
        seen.limit == LIMIT_512MIB,
        f"{edges.LIVE_NODE}: 살아 있는 노드의 메모리 한도 {seen.limit} 바이트 "
        f"(기대: {LIMIT_512MIB} = 512MiB)",
    )
