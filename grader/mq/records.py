"""What the mq scenarios saw: one record type per scenario, read by the checks."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fixtures.claims import Claim
from grader.machinery.partitions import Partition
from grader.machinery.runner import RunResult
from grader.mq import amqp
from grader.mq.live import Figures


@dataclass(frozen=True)
class NodeLimit:
    """M1.3: the node that is judged, and its live memory limit."""

    answers: bool
    limit: str | None  # `vm_memory_monitor:get_memory_limit()` as printed; None when unread
    error: str | None  # why rabbitmqctl could not read it (a student FAIL: the node misbehaves)
    from_status_txt: bool = False  # graded away from the pod: what status.txt shows


@dataclass(frozen=True)
class TopologyRuns:
    first: RunResult  # in an empty vhost
    second: RunResult  # with everything declared and claims waiting
    exchanges: dict[str, dict[str, Any]]  # after both runs: name -> management API view
    queues: dict[str, dict[str, Any]]
    bindings: list[tuple[str, str, str]]  # (source exchange, destination queue, routing key)
    waiting: dict[str, int]  # queue -> claims put there before the second run
    left: dict[str, int | None]  # queue -> ready after the second run (None: queue gone)
    # (source exchange, destination exchange, routing key): exchange_bind's
    exchange_bindings: list[tuple[str, str, str]] = field(default_factory=list)


@dataclass(frozen=True)
class Published:
    """One publish.py run of one claim file, and what reached claim.in."""

    claim: Claim
    data: bytes  # the file's bytes
    run: RunResult
    messages: list[amqp.Message]


@dataclass(frozen=True)
class PublishRuns:
    runs: list[tuple[Partition, Published]]  # (partition, run): every class of claim file


@dataclass(frozen=True)
class RefusedPublish:
    runs: list[tuple[Partition, RunResult]]  # (partition, run)
    stage_ok: bool  # the broker really refused (checked with the grader's own publisher)


@dataclass(frozen=True)
class Repeat:
    """Claims a consumer accepted on their retry (a 503 first), published again to it once it
    had decided about every claim of its batch (M8.1), and how things stood then."""

    claims: tuple[Claim, ...]
    calls_before: tuple[int, ...]  # POSTs of each before the repeat
    dead_before: tuple[str, ...]  # the message_ids claim.dead held then
    through: bool  # the barrier's claim behind them was POSTed and acked


@dataclass(frozen=True)
class ConsumerRun:
    """One consumer.py run against the partner, and where the claims ended."""

    seconds: float  # --max-seconds given
    published: list[Claim]
    run: RunResult
    stats: dict[str, Any]  # the partner's /_stats at the end
    left: list[amqp.Message]  # what claim.in still holds once it ended
    dead: list[amqp.Message]  # what claim.dead holds
    # How long it ran after its clock was known to have started: from when it was first seen
    # at work, or from its start when it never was (a run the grader stopped: from its start).
    ended_after: float
    counted_from: str
    grace: float  # what it was allowed beyond --max-seconds, from then
    held_when_stopped: int  # requests the partner held when the grader had to stop it
    stopped: bool  # the grader stopped it once it had decided about every claim
    repeat: Repeat | None = None  # accepted on their retry, then published again (M8.1)
    # POSTs whose claim (by guid) is none of this run's batch, barriers or repeats: a body
    # altered on its way, or calls made up (red team 31: extra POSTs under another guid went
    # uncounted). Read where the batch is all the scene published (M4.1's scenes).
    strangers: tuple[str | None, ...] = ()

    @property
    def ready(self) -> int:
        """Claims of this run left in claim.in (a barrier's extra claim is not counted)."""
        return sum(guid in {c.guid for c in self.published} for guid in self.left_guids())

    def crashed(self) -> bool:
        """It ended by itself with an error (an overrun, or a stop by the grader, is no crash)."""
        return not self.stopped and not self.run.timed_out and self.run.returncode != 0

    def calls(self, claim: Claim) -> int:
        return int(self.stats["by_guid"].get(claim.guid, 0))

    def bodies(self, claim: Claim) -> list[str]:
        return [c["body"] for c in self.stats["calls"] if c["guid"] == claim.guid]

    def dead_guids(self) -> list[str]:
        return [str(m.properties.message_id) for m in self.dead]

    def left_guids(self) -> list[str]:
        return [str(m.properties.message_id) for m in self.left]


@dataclass(frozen=True)
class Crashes:
    """M4.3/M4.4: consumers SIGKILLed at the points where the lab promises no loss."""

    published: int  # claims of the first phase
    held: bool  # the partner held the first consumer's request
    during: Figures | None  # while it was held
    after: Figures | None  # once the SIGKILLed consumer's messages were back
    accepted: int  # 201s the partner sent in the first phase (none: it drops the request)
    first: RunResult
    # The second phase: a new consumer (its own fresh EAI_MQ_DB) stopped (SIGSTOP) with a 201
    # on its way, then SIGKILLed.
    fresh: int  # claims added for it
    second_held: bool
    answered_201: bool  # the partner sent the 201 to the stopped consumer
    answered_instead: tuple[int, ...]  # what the held requests got instead, when no 201
    after_second: Figures | None
    second: RunResult
    # Claims each consumer took off claim.in before its kill, by its own word read on the way
    # to the broker: acked, or dead-lettered on their first delivery (None: not carried by the
    # grader, host mode). No 201 had reached either consumer.
    taken_first: int | None = None
    taken_second: int | None = None


@dataclass(frozen=True)
class PrefetchRun:
    prefetch: int
    published: int
    took: bool  # the consumer was seen taking messages from claim.in
    ended_by_itself: bool  # it had ended before the grader stopped it
    unacked: list[int]  # claim.in's unacked at every change from then until it was stopped
    settings: str  # claim.in's consumers then (ack_required, prefetch_count)
    run: RunResult


@dataclass(frozen=True)
class DedupRuns:
    claim: Claim  # processed, then published again to the same process (M8.1)
    fresh: Claim  # processed with its record held back, the process killed right after its ack
    first: RunResult  # that process, SIGKILLed
    calls_after_success: int  # POSTs of ``claim`` once it had succeeded (one, when all is well)
    calls_after_repeat: int  # ... once it was published again, same process
    resent: Claim  # ``claim`` under a new message_id, published beside the repeat: no duplicate
    resent_calls: int  # its POSTs (one, when all is well)
    repeat: Figures
    ended_before_repeat: bool  # it had ended by itself (long before its --max-seconds) by then
    fresh_ack_seen: bool  # the kill came right after ``fresh`` was acked (else: it never was)
    fresh_waited: bool  # it was seen waiting at the held record (and let go on then)
    fresh_ended_early: bool  # it ended by itself before its ack was seen
    fresh_unrecorded_at_ack: bool  # it acked while EAI_MQ_DB was held and named the claim not
    fresh_calls_before_kill: int  # POSTs of ``fresh`` before the kill
    restart: ConsumerRun  # both published again to a new process on the same EAI_MQ_DB
    db_exists: bool
    db_is_sqlite: bool
    db_names_it: bool  # a table of it holds the message_id


@dataclass(frozen=True)
class RecordOnSuccess:
    busy: Claim  # dead after two 503s, then accepted
    no_docs: Claim  # dead after a 422, then sent again with documents
    first: ConsumerRun  # also met ``held`` again, redelivered
    second: ConsumerRun
    held: Claim  # its call held unanswered when its consumer was SIGKILLed
    held_then_killed: bool  # the call was held, and the claim back in claim.in after the kill
    held_calls: int  # calls of it before ``first``


@dataclass(frozen=True)
class KilledAtItsAck:
    """M8.2: "even when it dies between its record and its ack, the record filters the same
    message when it comes again" (the lab's own words): SIGKILLed as its ack of a claim left
    it, the ack kept from the broker, so the claim comes back flagged redelivered to a new
    consumer on the same EAI_MQ_DB."""

    claim: Claim
    killed: bool  # stopped and killed at its ack of the claim, which never reached the broker
    # that consumer; None when its connection was not carried by the grader (host mode, say):
    # no ack to stop at, nothing run, nothing judged
    first: RunResult | None
    calls_before: int  # POSTs of the claim before the kill
    restart: ConsumerRun | None  # the new consumer, once the claim was back in claim.in (else none)
