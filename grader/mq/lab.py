"""The mq lab as the checks see it: the student's eaimw/mq, a broker, and scenes to run in."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pika.exceptions

from fixtures.claims import ClaimSet
from fixtures.tree import MQ_PLUGINS
from grader.machinery import broker as brokers
from grader.machinery.broker import VHOST_PREFIX, Broker, Vhost
from grader.machinery.partner import Partner, PartnerForks, Spares
from grader.machinery.runner import Process, RunResult
from grader.machinery.sandbox import SHARED, Network, carrying
from grader.machinery.scenarios import Once, ScenarioPool
from grader.machinery.treecopy import CopyPlan
from grader.machinery.watchdog import Watchdog
from grader.mq import amqp
from grader.mq.catalogue import MQ_DIR
from grader.mq.live import HELD_BOUND, Watch
from grader.scenario import reference_walkthrough, timing
from grader.session import Grading, Scripts
from grader.verdict import ScriptsBroke

SCRIPT_TIMEOUT = 20.0  # topology.py, publish.py
STATUS_TIMEOUT = 60.0  # rabbitmqctl status, for the reference walkthrough's status.txt
# The files the lab has the student write come first in a working copy of eaimw/mq.
COPY = CopyPlan.of(first=("topology.py", "publish.py", "consumer.py", "status.txt"))
FIRST_WAVE_WAIT = 2.0  # the most a second-wave scene waits for the first wave to get going


@dataclass(frozen=True)
class Reference:
    """The reference walkthrough, standing in for a student: its scripts, laid out in the lab
    root before the run saves it; and step 1's status.txt, `rabbitmqctl status` of the node
    the run started, written into the saved directory once that node is up (the scripts never
    read it, so they need not wait for it)."""

    scripts: Callable[[Path], None]  # lab root
    status: Callable[[Path, str], None]  # (the saved eaimw/mq, the output of rabbitmqctl status)


@dataclass(frozen=True)
class Stage:
    """What every mq check stands on: a broker, and the student's files as they were."""

    broker: Broker
    saved: Path


def choose_broker(grading: Grading) -> Broker:
    config = grading.config
    if config.broker == "url":
        if not config.amqp_url:
            raise brokers.BrokerUnavailable("--broker url needs --amqp-url")
        return brokers.from_url(config.amqp_url, config.rabbitmq_node, config.management_url)
    if config.broker == "container":
        return brokers.start_container()
    if config.broker in ("auto", "student") and config.student_mode:
        node = brokers.student_node()
        if node is not None:
            return node
        if config.broker == "student":
            raise brokers.BrokerUnavailable(
                "the student's rabbit@localhost does not answer on 5672/15672 "
                "(bash /opt/lab/fixtures/eaimw/mq/mq-up.sh)"
            )
    return _watched_local(grading)


def _watched_local(grading: Grading) -> Broker:
    """A private node for this run, stopped when the run is done with it, or by a watchdog
    should the grader be killed outright (SIGKILL: no teardown of its runs): red team 27 found
    a killed `pytest grader`'s node and its epmd still running, until a run on the same state
    dir stopped them. batch and grade guard their class node alike (classroom/infra.py)."""
    base = grading.rundir.scratch / "broker"
    watchdog = Watchdog(grace=0.0)  # it guards no process group: no grace to give
    watchdog.guard_node(base)  # named before it starts: a node half started is one too
    try:
        broker = brokers.start_local(grading.fixtures.mq_up, base, plugins=MQ_PLUGINS)
    except BaseException:
        watchdog.release_node(base)  # start_local stops a node it could not start
        watchdog.close()
        raise
    stop_node = broker.stop

    def stop() -> None:
        try:
            stop_node()
        finally:
            watchdog.release_node(base)
            watchdog.close()

    broker.stop = stop
    return broker


class MqLab:
    @classmethod
    def bring_up(cls, grading: Grading, wanted: frozenset[str]) -> MqLab:
        """The lab of a run, its broker starting on the pool at once (the longest wait)."""
        reference = None
        if not grading.config.student_mode:
            walkthrough: Any = reference_walkthrough()  # a checkout's: a student build has none
            reference = Reference(lambda root: walkthrough.walk_mq(root, None), walkthrough.write_status)
        lab = cls(grading, reference, scenes=len(wanted))
        lab.pool.define("mq.stage", lab.stage.get)
        lab.pool.start(["mq.stage"])
        return lab

    def __init__(self, grading: Grading, reference: Reference | None, scenes: int = 0) -> None:
        """``scenes``: how many scenes may want a partner (as many are started while a broker
        boots)."""
        self.grading = grading
        self.claims: ClaimSet = grading.fixtures.claims
        self.live = grading.live(MQ_DIR)  # the working copy the scripts see as LAB_ROOT/eaimw/mq
        # Three things made once, each by the first thread that needs it: scenes need the
        # broker, scripts the saved files, state checks both (and a reference run's status.txt).
        self.broker = Once(self._start_broker)
        self.files = Once(self._save_files)
        self.stage = Once(self._set_stage)
        self.watch = Once(self._start_watch)  # live figures of every vhost of this run
        self._reference = reference
        self._scenes = scenes
        self.forks = Once(self._start_forks)  # what forks each scene's claim partner
        self.partners = Spares(self._partner)

    @property
    def pool(self) -> ScenarioPool:
        return self.grading.pool

    def _start_forks(self) -> PartnerForks:
        forks = PartnerForks()
        self.grading.on_close(forks.close)  # its whole group: any partner not stopped yet too
        return forks

    def _partner(self) -> Partner:
        """A claim partner forked from the loaded partner.py; one started on its own when that
        process is gone (killed, say), as every partner was before."""
        try:
            return Partner(forks=self.forks.get())
        except (RuntimeError, OSError):
            return Partner()

    def _start_broker(self) -> Broker:
        started = time.monotonic()
        self.grading.on_close(self.partners.close)
        booted = threading.Event()
        threading.Thread(
            target=self.partners.fill_until, args=(self._scenes, booted), daemon=True, name="mq-partners"
        ).start()
        try:
            broker = choose_broker(self.grading)
        finally:
            booted.set()
        self.grading.on_close(broker.stop)
        self.grading.on_close(broker.delete_our_vhosts)
        broker.delete_stale_vhosts()
        timing("mq.broker", started)
        # The watch boots its Erlang VM while the scenarios start (its fault, if any, is
        # raised where a scenario asks for it).
        threading.Thread(target=self._warm_watch, daemon=True, name="mq-watch-start").start()
        return broker

    def _save_files(self) -> Path:
        """The student's eaimw/mq saved, its working copy made (a reference run lays out the
        reference's scripts first); the saved directory."""
        if self._reference is not None:
            self._reference.scripts(self.grading.lab_root)
        return self.grading.workspace(MQ_DIR, COPY).saved

    def _set_stage(self) -> Stage:
        started = time.monotonic()
        broker, saved = self.broker.get(), self.files.get()
        if self._reference is not None and broker.ctl is not None:
            self._reference.status(saved, broker.ctl(["status"], STATUS_TIMEOUT))
        timing("mq.stage", started)
        return Stage(broker, saved)

    def _start_watch(self) -> Watch:
        started = time.monotonic()
        watch = Watch(
            self.broker.get(),
            f"{VHOST_PREFIX}{os.getpid()}-",
            self.grading.own_dir("watch"),
            self.grading.own_dir("erlang"),
        )
        self.grading.on_close(watch.close)
        timing("mq.watch", started)
        return watch

    def _warm_watch(self) -> None:
        with contextlib.suppress(Exception):
            self.watch.get()

    def student_node(self) -> Broker | None:
        """The node M1.3 judges: the student's rabbit@localhost in student mode, or the node an
        operator named with --broker url; in a reference run, the one mq-up.sh started."""
        broker = self.broker.get()
        config = self.grading.config
        if config.broker == "url" or not config.student_mode:
            return broker
        return brokers.student_node()

    def shown(self, name: str = "") -> str:
        return str(self.grading.scripts_root / MQ_DIR / name).rstrip("/")

    @contextlib.contextmanager
    def scene(self, purpose: str, partner: bool = True) -> Iterator[Scene]:
        """A temporary vhost with a user of its own, a box for the scene's scripts, a partner
        process of its own and a fresh EAI_MQ_DB path. The vhost is under the watch's guard
        (live.py) before any script starts: one that holds too much is deleted, and the scene
        is the scripts' FAIL."""
        broker = self.broker.get()
        # The guard lives in the watch; a broker rabbitmqctl cannot reach (--broker url without
        # --rabbitmq-node) is somebody else's to guard.
        watch = self.watch.get() if broker.ctl is not None else None
        self.pool.after_first_wave(FIRST_WAVE_WAIT)
        stub = self.partners.take() if partner else None
        try:
            with (
                broker.vhost() as vhost,
                self.grading.scripts(purpose, network=_reach(broker, stub)) as box,
            ):
                db = box.scratch_dir() / "processed.db"
                scene = Scene(self, broker, vhost, stub, db, box)
                try:
                    try:
                        yield scene
                    except Exception as exc:  # what the grader set up refused, or was taken away?
                        _judge(scene, watch, exc)
                        raise
                    _judge(scene, watch, None)
                finally:
                    amqp.let_go(scene.url)  # before its vhost goes
        finally:
            if stub is not None:
                stub.stop()


def _reach(broker: Broker, stub: Partner | None) -> Network:
    """What a scene's scripts reach: a network of their own carrying only the scene's broker
    and its claim partner (a script cannot take the node's connections nor its epmd, nor reach
    other grades' partners); the machine's, where the broker is not on this machine's loopback."""
    if broker.host not in ("127.0.0.1", "localhost"):
        return SHARED
    ports = [broker.amqp_port]
    if stub is not None:
        ports.append(urllib.parse.urlparse(stub.url).port or 80)
    return carrying(*ports, amqp=broker.amqp_port)  # what they tell the broker is read too


def _judge(scene: Scene, watch: Watch | None, exc: Exception | None) -> None:
    """Whose doing a scene's trouble was: the scripts' (ScriptsBroke: they held more than the
    guard allows, here or in another scene of the grade while the node's alarm blocked this one,
    or changed the topology the grader declared), the node's (BrokerAlarm: another grade's load
    blocked every publisher, no verdict), or nobody's known (returns)."""
    broker, vhost = scene.broker, scene.vhost
    if watch is not None and (held := watch.flooded(vhost.name)) is not None:
        why = (
            f"스크립트가 브로커에 메시지·선언을 {held / (1 << 20):.1f} MiB 쌓아 둠"
            f"(한 장면의 한도 {HELD_BOUND >> 20} MiB)이라 채점기가 이 장면의 vhost를 지움;"
            " 전달받고 ack하지 않은 메시지도, 선언한 교환기·바인딩과 그 인자도 브로커의 메모리를 차지함"
            "(prefetch로 받는 수를 제한하고, 필요한 것만 선언할 것)"
        )
        raise ScriptsBroke(f"{MQ_DIR}/ 의 스크립트", why) from exc
    if alarms := broker.alarms():
        if watch is not None and (taken := watch.taken()):  # the grade's own scripts set it off
            most = max(taken.values()) / (1 << 20)
            why = (
                f"다른 장면의 스크립트가 브로커에 메시지를 쌓아 두어(최대 {most:.1f} MiB)"
                f" 브로커가 메모리 경보({', '.join(alarms)})로 모든 발행을 막음"
            )
            raise ScriptsBroke(f"{MQ_DIR}/ 의 스크립트", why) from exc
        raise _alarmed(broker, alarms) from exc
    if isinstance(exc, pika.exceptions.AMQPError) and (changed := _changed(scene)):
        why = "스크립트가 채점기가 선언한 토폴로지를 바꿈(" + ", ".join(changed) + ")"
        raise ScriptsBroke(f"{MQ_DIR}/ 의 스크립트", why) from exc


def _changed(scene: Scene) -> list[str]:
    """What the scene's scripts changed of the topology the grader declared there: gone (the
    listings), or there with other properties (the broker refuses the same declarations)."""
    broker = scene.broker
    changed = amqp.changed_topology(broker.api, broker.q(scene.vhost.name))
    if not changed:
        refusals = (amqp.refused_again(scene.url, *declared) for declared in dict.fromkeys(scene.declared))
        changed = [f"브로커: {refusal}" for refusal in refusals if refusal is not None][:1]
    return changed


def _alarmed(broker: Broker, alarms: list[str]) -> brokers.BrokerAlarm:
    return brokers.BrokerAlarm(f"{broker.label}: alarm in effect ({', '.join(alarms)})")


@dataclass
class Scene:
    lab: MqLab
    broker: Broker
    vhost: Vhost
    partner: Partner | None
    db: Path
    box: Scripts
    barriers: int = 0  # how many barrier claims the scene has published (each its own claim)
    # each declare_topology the grader made in the scene (shared by dataclasses.replace copies)
    declared: list[tuple[bool, str]] = dataclasses.field(default_factory=list)

    def declare(self, *, bind_claim: bool = True, claim_key: str = amqp.CLAIM_KEY) -> None:
        """Lay out the lab's topology in the scene's vhost (amqp.declare_topology), remembered:
        a script that later takes it apart is told by the broker refusing it again."""
        self.declared.append((bind_claim, claim_key))
        amqp.declare_topology(self.url, bind_claim=bind_claim, claim_key=claim_key)

    @property
    def url(self) -> str:
        """How the grader reaches the scene's vhost (as the broker's administrator)."""
        return self.broker.amqp_url(self.vhost.name)

    def env(self) -> dict[str, str]:
        """The scene's scripts connect as the vhost's own user, which reaches nothing else."""
        return {"EAI_AMQP_URL": self.vhost.script_url, "EAI_MQ_DB": str(self.db)}

    def start(self, script: str, args: Sequence[str] = ()) -> Process:
        self.lab.pool.under_way()  # in a first-wave scenario: the second wave may go now
        return self.box.start(
            [self.box.python, str(self.lab.live / script), *args], cwd=self.lab.live, env=self.env()
        )

    def run(self, script: str, args: Sequence[str] = (), timeout: float = SCRIPT_TIMEOUT) -> RunResult:
        return self.start(script, args).wait(timeout)

    def consumer(self, seconds: float, *extra: str, claim_url: str | None = None) -> Process:
        assert claim_url is not None or self.partner is not None
        url = claim_url or (self.partner.url if self.partner else "")
        return self.start("consumer.py", ["--claim", url, "--max-seconds", f"{seconds:g}", *extra])
