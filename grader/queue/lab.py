"""The queue lab as the checks see it: the student's q/ (live and as saved) and its scripts."""

from __future__ import annotations

import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path

from fixtures.queue_messages import QueueSet
from grader.machinery.runner import Process, RunResult
from grader.session import Grading

CONSUME_TIMEOUT = 30.0
BIG_CONSUME_TIMEOUT = 60.0
SHELL_TIMEOUT = 10.0


@dataclass
class QueueLab:
    grading: Grading
    expected: QueueSet  # the fixture inbox: where every expected number comes from
    live: Path  # LAB_ROOT/q: behaviour checks run here (scripts hard-code /root/q)
    saved: Path  # the pristine copy taken before any check ran: state checks read it
    exclusive: threading.Lock = field(default_factory=threading.Lock)

    def shown(self, name: str = "") -> str:
        """How the student knows the path: /root/q/NAME."""
        return str(self.grading.lab_root / "q" / name).rstrip("/")

    def start_consume(self) -> Process:
        return self.grading.start([sys.executable, str(self.live / "consume.py")], cwd=self.live)

    def consume(self, timeout: float = CONSUME_TIMEOUT) -> RunResult:
        return self.start_consume().wait(timeout)

    def shell(self, script: str, *args: str) -> RunResult:
        return self.grading.run(
            ["bash", str(self.live / script), *args], cwd=self.live, timeout=SHELL_TIMEOUT
        )
