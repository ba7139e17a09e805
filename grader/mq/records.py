"""What the mq scenarios saw: one record type per scenario, read by the checks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fixtures.claims import Claim
from grader.machinery.runner import RunResult
from grader.mq import amqp


@dataclass(frozen=True)
class TopologyRuns:
    runs: tuple[RunResult, RunResult]
    exchanges: dict[str, dict[str, Any]]  # name -> management API view (type, durable, ...)
    queues: dict[str, dict[str, Any]]
    bindings: list[tuple[str, str, str]]  # (source exchange, destination queue, routing key)


@dataclass(frozen=True)
class PublishRun:
    claim: Claim
    run: RunResult
    messages: list[amqp.Message]  # what reached claim.in


@dataclass(frozen=True)
class RefusedPublish:
    run: RunResult
    stage_ok: bool  # the broker really refused (checked with the grader's own publisher)


@dataclass(frozen=True)
class ConsumerRun:
    """One consumer.py run against the partner, and where the claims ended."""

    seconds: float  # --max-seconds given
    published: list[Claim]
    run: RunResult
    stats: dict[str, Any]  # the partner's /_stats at the end
    ready: int  # left in claim.in
    dead: list[amqp.Message]  # what claim.dead holds

    def calls(self, claim: Claim) -> int:
        return int(self.stats["by_guid"].get(claim.guid, 0))

    def bodies(self, claim: Claim) -> list[str]:
        return [c["body"] for c in self.stats["calls"] if c["guid"] == claim.guid]

    def dead_guids(self) -> list[str]:
        return [str(m.properties.message_id) for m in self.dead]


@dataclass(frozen=True)
class HangRun:
    consumed: ConsumerRun
    timeout_given: float


@dataclass(frozen=True)
class QueueCounts:
    """claim.in's ready and unacked, and claim.dead's ready, at one moment (rabbitmqctl)."""

    ready: int
    unacked: int
    dead: int

    @property
    def kept(self) -> int:
        """Messages the broker still holds: none of them was acked."""
        return self.ready + self.unacked + self.dead


@dataclass(frozen=True)
class KillRun:
    published: int
    held: bool  # the partner held a request when the consumer was killed
    # While the partner held the request: a call that timed out meanwhile may have been
    # dead-lettered, which is no ack. None without rabbitmqctl (unacked cannot be read).
    during: QueueCounts | None
    after_ready: int
    after_dead: int
    accepted: int  # 201s the partner sent
    run: RunResult


@dataclass(frozen=True)
class PrefetchRun:
    prefetch: int
    samples: list[int]  # live unacked of claim.in
    consumers: list[tuple[str, bool, int]]  # (queue, ack_required, prefetch_count)
    run: RunResult
    published: int


@dataclass(frozen=True)
class DedupRuns:
    claim: Claim
    first: RunResult
    calls_after_first: int
    calls_after_same_process_repeat: int
    # claim.in (ready + unacked) after the repeat inside the same process: a duplicate the
    # consumer holds without acking is unacked, not ready, until it ends
    ready_after_repeat: int
    dead_after_repeat: int  # claim.dead then: a duplicate rejected is not acked either
    second: RunResult
    calls_after_restart: int
    ready_after_restart: int
    dead: int
    db_exists: bool
    db_is_sqlite: bool


@dataclass(frozen=True)
class RecordOnSuccess:
    claim: Claim
    first: ConsumerRun
    second: ConsumerRun
