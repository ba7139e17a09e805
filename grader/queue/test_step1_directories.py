"""Step 1: the queue directories, and every fixture message copied into them."""

from __future__ import annotations

from collections import Counter

import pytest

from grader.queue.lab import QueueLab
from grader.queue.queuedir import DIRS, listing, special_entries
from grader.verdict import Check


@pytest.mark.req("Q1.1")
def test_Q1_1_four_directories_exist(req: Check, queue_lab: QueueLab) -> None:
    req.needs(queue_lab.saved, queue_lab.shown())
    problems = []
    for d in DIRS:
        path = queue_lab.saved / d
        if not path.exists():
            problems.append(f"{queue_lab.shown(d)} 없음")
        elif not path.is_dir():
            problems.append(f"{queue_lab.shown(d)} 이(가) 디렉터리가 아님")
    req.expect(not problems, "; ".join(problems))


@pytest.mark.req("Q1.2")
def test_Q1_2_every_fixture_file_copied(req: Check, queue_lab: QueueLab) -> None:
    req.needs(queue_lab.saved, queue_lab.shown())
    found = listing(queue_lab.saved)
    where = Counter(name for names in found.values() for name in names)
    expected = queue_lab.expected.names
    lost = sorted(expected - where.keys())
    invented = sorted(where.keys() - expected)
    twice = sorted(name for name, n in where.items() if n > 1)
    problems = []
    if lost:
        problems.append(f"없어진 파일 {len(lost)}개({', '.join(lost[:5])})")
    if invented:
        problems.append(f"픽스처에 없는 파일 {len(invented)}개({', '.join(invented[:5])})")
    if twice:
        problems.append(f"두 디렉터리에 동시에 있는 파일 {len(twice)}개({', '.join(twice[:5])})")
    special = special_entries(queue_lab.saved)
    if special:
        problems.append(f"메시지 파일이 아닌 특수 파일 {len(special)}개({', '.join(special[:5])})")
    req.expect(not problems, "; ".join(problems) + f" — 픽스처는 {len(expected)}개")
