"""Step 7: basic_qos bounds the unacked messages, even in front of a slow claim system."""

from __future__ import annotations

import pytest

from grader.mq.records import PrefetchRun
from grader.verdict import Check


def _bounded(req: Check, seen: PrefetchRun, how: str) -> None:
    __tracebackhide__ = True
    samples = [n for n in seen.samples if n >= 0]
    if not samples:
        raise RuntimeError("no live unacked sample of claim.in could be taken")
    settings = ", ".join(f"ack_required={a}, prefetch_count={p}" for _, a, p in seen.consumers)
    top = max(samples)
    req.expect(
        top <= seen.prefetch,
        f"{how}: 느린 청구 시스템 앞에서 unacked 가 최대 {top} (한도 {seen.prefetch}; "
        f"대기 {seen.published}건; 소비자 설정: {settings or '없음'})",
        run=seen.run,
    )
    req.expect(
        top == seen.prefetch,
        f"{how}: unacked 가 {top} 에서 멈춤 (기대: {seen.prefetch} 에 닿음; 소비자 설정: "
        f"{settings or '없음'})",
        run=seen.run,
    )


@pytest.mark.req("M7.1")
def test_M7_1_default_prefetch_5(req: Check, prefetch_default: PrefetchRun) -> None:
    _bounded(req, prefetch_default, "--prefetch 없이")


@pytest.mark.req("M7.2")
def test_M7_2_prefetch_2(req: Check, prefetch_two: PrefetchRun) -> None:
    _bounded(req, prefetch_two, "--prefetch 2")
