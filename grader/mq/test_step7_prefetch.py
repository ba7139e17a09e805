"""Step 7: basic_qos bounds the unacked messages, even in front of a slow claim system."""

from __future__ import annotations

import pytest

from grader.machinery.partitions import Partition
from grader.mq import edges
from grader.mq.records import PrefetchRun
from grader.mq.scenarios import TAKE_WAIT
from grader.verdict import Check


def _bounded(req: Check, edge: Partition, seen: PrefetchRun) -> None:
    __tracebackhide__ = True
    req.expect(
        seen.took,
        f"{edge}: consumer.py 가 claim.in 에서 메시지를 하나도 가져가지 않은 채 "
        + (f"끝남({seen.run.describe()})" if seen.ended_by_itself else f"{TAKE_WAIT:g}초가 지남"),
        run=seen.run,
    )
    if not seen.unacked:
        raise RuntimeError("the live watch saw no state of claim.in after the consumer started")
    top = max(seen.unacked)
    req.expect(
        top <= seen.prefetch,
        f"{edge}: 느린 청구 시스템 앞에서 unacked 가 최대 {top} (한도 {seen.prefetch}; "
        f"대기 {seen.published}건; 소비자 설정: {seen.settings})",
        run=seen.run,
    )
    req.expect(
        top == seen.prefetch,
        f"{edge}: unacked 가 {top} 에서 멈춤 (기대: {seen.prefetch} 에 닿음; 소비자 설정: {seen.settings})",
        run=seen.run,
    )


@pytest.mark.req("M7.1")
def test_M7_1_default_prefetch_5(req: Check, prefetch_default: PrefetchRun) -> None:
    _bounded(req, edges.PREFETCH_DEFAULT, prefetch_default)


@pytest.mark.req("M7.2")
def test_M7_2_prefetch_2(req: Check, prefetch_two: PrefetchRun) -> None:
    _bounded(req, edges.PREFETCH_TWO, prefetch_two)
