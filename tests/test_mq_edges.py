"""The mq lab's edge map agrees with its code, and the pure parts the scenarios lean on work.

The live watch runs on the self-tests' real node; its output format is also read from text,
and the record database is a real SQLite file.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import socket
import sqlite3
import subprocess
import time
from contextlib import closing, suppress
from pathlib import Path

import pika
import pika.exceptions
import pytest
from pika.adapters.blocking_connection import BlockingChannel

from fixtures.claims import Outcome, claim_set
from fixtures.tree import FixtureTree
from grader.machinery import erlang
from grader.machinery.broker import VHOST_PREFIX
from grader.mq import amqp, drive, edgemap, edges, live
from grader.mq import scenarios as scenarios_module
from grader.mq.catalogue import MQ
from grader.mq.live import HELD_BOUND, HELD_SMALL
from grader.mq.scenarios import scenarios
from tests.conftest import SharedBroker, private_node
from tests.waiting import SAFETY, wait_until

MQ_DIR = Path(edges.__file__).resolve().parent
CODE = "\n".join(p.read_text() for p in [MQ_DIR / "scenarios.py", *sorted(MQ_DIR.glob("test_step*.py"))])


def test_the_published_map_holds_every_id_in_the_catalogues_order() -> None:
    published = edgemap.render()
    assert re.findall(r"^### (M\S+)$", published, re.M) == [r.id for r in MQ.requirements]
    assert all(f"**{e.key}**" in published for e in edges.EDGES)
    assert all(f"### {made.name}" in published for made in edges.MAP.inputs)


def test_every_id_has_edges_and_every_edge_a_known_id_and_scenario() -> None:
    ids = {r.id for r in MQ.requirements}
    assert not [rid for rid in sorted(ids) if not edges.of(rid)]
    for edge in edges.EDGES:
        judged = edges.MAP.judged_by(edge)
        assert judged and {j.rid for j in judged} <= ids, edge.key
        assert all(j.scenario is None or j.scenario in scenarios.names for j in judged), edge.key
        assert edge in (getattr(edges, edge.key, None), getattr(scenarios_module, edge.key, None))
    assert len({e.key for e in edges.EDGES}) == len(edges.EDGES)


def test_every_edge_is_named_by_the_code_that_covers_it() -> None:
    used = set(re.findall(r"\b(?:edges|scenarios)\.([A-Z][A-Z_0-9]*)\b", CODE))
    assert not {e.key for e in edges.EDGES} - used
    assert used <= {e.key for e in edges.EDGES}


def test_a_fail_names_its_edge_in_korean() -> None:
    assert str(edges.KILL_HELD) == f"[경우: {edges.KILL_HELD.shown}]"
    assert all(re.search("[가-힣]", e.shown) or e.shown.isascii() for e in edges.EDGES)


def test_claim_sets_fix_the_classes_and_let_the_seed_vary_values_and_order() -> None:
    sets = [claim_set(random.Random(seed), 3, 2, 2, shuffled=True, busy_once=1) for seed in range(20)]
    for claims in sets:
        assert [len(claims.of(o)) for o in Outcome] == [3, 2, 2, 1]
        assert all(c.body["docs"] == [] for c in claims.of(Outcome.NO_DOCS))
        assert all(str(c.body["claimId"]).startswith("BUSY") for c in claims.of(Outcome.BUSY))
        # a claim met by a 503 only when the partner is told so: on its own the partner takes it
        assert all(
            c.body["docs"] and not str(c.body["claimId"]).startswith("BUSY")
            for c in claims.of(Outcome.BUSY_ONCE)
        )
        assert all(not c.data.isascii() and c.data.endswith(b"\n") for c in claims.files)  # Korean inside
    assert len({tuple(c.outcome for c in s.files) for s in sets}) > 1  # the order varies
    # ...but a good claim always opens and closes the queue: a consumer dying on a rejection
    # or a busy answer leaves one behind it under every seed
    assert all(s.files[0].outcome is s.files[-1].outcome is Outcome.ACCEPTED for s in sets)


def test_other_bytes_and_documents_added_keep_the_claim() -> None:
    claim = claim_set(random.Random(1), 0, 1, 0).files[0]
    assert claim.compact != claim.data and not claim.compact.endswith(b"\n")
    fixed = claim.with_docs(random.Random(2))
    assert fixed.guid == claim.guid and fixed.body["docs"] and fixed.outcome is Outcome.ACCEPTED


def QueueFiguresOf(ready: int) -> live.QueueFigures:
    return live.QueueFigures(ready, 0, 0, ())


WATCH_LINES = [
    "s 1 1000 lab-grader-9-1-a claim.in 24 0 0 -",
    "s 1 1000 lab-grader-9-1-a claim.dead 0 0 0 -",
    "e 1 1000",
    "h 2 1100",
    "s 3 1150 lab-grader-9-1-a claim.in 19 5 1 true:5",
    "s 3 1150 lab-grader-9-2-b claim.in 1 0 0 -",
    "e 3 1150",
    "h 4 1250",
    "s 5 1300 lab-grader-9-1-a claim.in 19 4 1 true:5,false:0",
    "s 5 1300 lab-grader-9-1-a claim.dead 1 0 0 -",
    "e 5 1300",
    "s 6 1400 lab-grader-9-1-a claim.in -",
    "e 6 1400",
    "noise that is not a line of the watch",
]


def test_the_watch_output_is_read_per_vhost_and_per_look() -> None:
    lines = live.Lines()
    for line in WATCH_LINES:
        lines.feed(line)
    assert lines.looks == [1.0, 1.1, 1.15, 1.25, 1.3, 1.4]
    states = lines.history("lab-grader-9-1-a")
    assert [s.at for s in states] == [1.0, 1.15, 1.3, 1.4]  # one state per look that changed it
    assert (states[0].ready, states[0].dead_ready, states[0].kept) == (24, 0, 24)
    assert (states[1].ready, states[1].unacked, states[1].consumers) == (19, 5, 1)
    assert states[2].kept == 19 + 4 + 1 and states[2].dead_ready == 1
    assert states[2].settings() == "ack_required=True, prefetch_count=5; ack_required=False, prefetch_count=0"
    assert states[0].settings() == "없음" and states[3].claim is None and states[3].in_claim == 0
    # From a moment on: the first look at or after it (the state then in force), then changes.
    from_heartbeat = lines.seen_from("lab-grader-9-1-a", 1.2)
    assert [(s.at, s.unacked) for s in from_heartbeat] == [(1.25, 5), (1.3, 4), (1.4, 0)]
    assert [s.ready for s in lines.seen_from("lab-grader-9-2-b", 1.0)] == [0, 1]  # not there yet, then 1
    assert lines.seen_from("lab-grader-9-1-a", 1.5) == []  # no look after it yet


@pytest.mark.parametrize("first", ["another vhost's", "claim.in's"])
def test_a_look_counts_once_all_of_it_is_read(first: str) -> None:
    """The lines of one look come one by one, and whoever waits wakes between them. A look
    counted at its first line showed a queue whose line had not come yet as it was before,
    stamped as that look: M8.2 read a fresh claim, delivered and held unacked by a correct
    consumer, as gone from claim.in, and failed it for acking before its record (trace of a
    class batch, 2026-12-06)."""
    lines = live.Lines()
    for line in ("s 1 1000 v claim.in 0 0 1 true:5", "s 1 1000 v claim.dead 0 0 0 -", "e 1 1000"):
        lines.feed(line)
    look = {
        "another vhost's": ["s 2 1050 w claim.in 3 0 0 -", "s 2 1050 v claim.in 0 1 1 true:5"],
        "claim.in's": ["s 2 1050 v claim.in 0 0 1 true:5", "s 2 1050 v claim.dead 1 0 0 -"],
    }[first]
    lines.feed(look[0])
    assert lines.seen_from("v", 1.01) == []  # nothing of the look is known until it is read whole
    lines.feed(look[1])
    assert lines.seen_from("v", 1.01) == [] and lines.looks == [1.0]
    lines.feed("e 2 1050")
    (state,) = lines.seen_from("v", 1.01)
    expected = {
        "another vhost's": (1, 0),  # held unacked, never "gone from claim.in"
        "claim.in's": (0, 1),  # gone from claim.in to claim.dead, never "acked"
    }[first]
    assert state.at == 1.05 and (state.in_claim, state.dead_ready) == expected
    # A look whose end never came (the watch cut off mid-look) is taken as it is at the next.
    lines.feed("s 3 1100 v claim.in 0 0 0 -")
    lines.feed("h 4 1150")
    assert lines.looks == [1.0, 1.05, 1.1, 1.15] and lines.seen_from("v", 1.06)[0].consumers == 0


def test_a_look_a_busy_queue_did_not_answer_changes_nothing() -> None:
    """Under load a queue process may not answer the watch's look ("?"): that is no news, never
    a queue that vanished (which would read as empty and end waits early)."""
    lines = live.Lines()
    for line in (
        "s 1 1000 v claim.in 24 0 0 -",
        "e 1 1000",
        "s 2 1050 v claim.in ?",
        "e 2 1050",
        "s 3 1100 v claim.in 22 2 1 true:2",
        "e 3 1100",
    ):
        lines.feed(line)
    states = lines.seen_from("v", 1.04)
    assert [(s.at, s.ready, s.unacked) for s in states] == [(1.05, 24, 0), (1.1, 22, 2)]
    assert all(s.claim is not None for s in states)
    # ... but a look that must tell the state at its moment (M8.2: acked yet?) knows it did not
    assert [s.claim_known for s in states] == [False, True]
    assert [s.claim_known for s in lines.seen_from("v", 0.9)] == [True, False, True]
    # claim.dead too (M8.2: gone from claim.in, but to claim.dead?), each queue on its own
    for line in (
        "s 4 1200 v claim.dead 0 0 0 -",
        "e 4 1200",
        "s 5 1250 v claim.dead ?",
        "e 5 1250",
        "s 6 1300 v claim.in 21 2 1 true:2",
        "e 6 1300",
        "s 7 1350 v claim.dead 1 0 0 -",
        "e 7 1350",
    ):
        lines.feed(line)
    later = lines.seen_from("v", 1.2)
    assert [(s.dead_known, s.claim_known, s.dead_ready) for s in later] == [
        (True, True, 0),
        (False, True, 0),
        (False, True, 0),
        (True, True, 1),
    ]


def _db(tmp_path: Path, *statements: str) -> Path:
    path = tmp_path / "processed.db"
    with closing(sqlite3.connect(path)) as conn:
        for statement in statements:
            conn.execute(statement)
        conn.commit()
    return path


@pytest.mark.parametrize(
    "statements",
    [
        ("CREATE TABLE processed (message_id TEXT PRIMARY KEY)", "INSERT INTO processed VALUES ('g-1')"),
        ("CREATE TABLE kv (k TEXT, v TEXT)", """INSERT INTO kv VALUES ('processed', '["g-0", "g-1"]')"""),
        ('CREATE TABLE "my table" ("id" BLOB)', "INSERT INTO \"my table\" VALUES (CAST('g-1' AS BLOB))"),
    ],
    ids=["column", "json-list", "blob-quoted"],
)
def test_the_record_is_found_in_any_shape(tmp_path: Path, statements: tuple[str, ...]) -> None:
    path = _db(tmp_path, *statements)
    assert drive.is_sqlite(path) and drive.names(path, "g-1")


def test_an_empty_record_or_another_file_names_nothing(tmp_path: Path) -> None:
    assert not drive.names(_db(tmp_path, "CREATE TABLE processed (message_id TEXT)"), "g-1")
    other = tmp_path / "not.db"
    other.write_text("g-1\n")
    assert not drive.is_sqlite(other) and not drive.names(other, "g-1")
    assert not drive.is_sqlite(tmp_path / "missing.db")


def test_the_graders_publishes_and_looks_in_a_scene_share_one_connection(shared_broker: SharedBroker) -> None:
    """A connection costs the node ~4.6 ms of CPU and the grader ~2 ms; a scene opened one for
    each publish, look and drain (an mq grade: ~100). Now one is kept in the scene's thread
    until the scene lets it go; a channel the broker closes (a look at a queue that is not
    there, a refused declaration) is opened again on it, and a connection the broker closed
    (its vhost deleted) is replaced at the next use. A consumer never sits on it: ``channel``
    is a connection of its own, closed with its block."""
    broker = shared_broker.broker
    batch = list(claim_set(random.Random(5), 3, 0, 0).files)
    with broker.vhost() as vhost:
        url = broker.amqp_url(vhost.name)
        amqp.declare_topology(url)
        amqp.publish(url, *batch)
        kept = amqp._kept_connections()[url][0]
        assert amqp.ready(url, amqp.CLAIM_QUEUE) == 3
        assert amqp.ready(url, "not-there") is None  # the broker closed the channel (404)
        assert amqp.ready(url, amqp.CLAIM_QUEUE) == 3
        assert amqp.refused_again(url, True, "another-key") is None  # a binding more is no refusal
        with broker.vhost() as second:  # claim.in there as a stream: the same declaration is refused
            other = broker.amqp_url(second.name)
            with amqp.channel(other) as ch:
                ch.queue_declare(amqp.CLAIM_QUEUE, durable=True, arguments={"x-queue-type": "stream"})
            assert "PRECONDITION_FAILED" in (amqp.refused_again(other, True, amqp.CLAIM_KEY) or "")
            amqp.let_go(other)
        assert amqp.put(url, amqp.DEAD_QUEUE, batch[0]) == 1
        assert [m.body for m in amqp.drain(url, amqp.DEAD_QUEUE)] == [batch[0].data]
        assert amqp._kept_connections()[url][0] is kept and kept.is_open
        with amqp.channel(url) as ch:  # a consumer on a connection of its own ...
            ch.basic_qos(prefetch_count=1)
            ch.basic_consume(amqp.CLAIM_QUEUE, lambda *_: None)
            wait_until(lambda: amqp.ready(url, amqp.CLAIM_QUEUE) == 2, "the consumer took one")
        wait_until(lambda: amqp.ready(url, amqp.CLAIM_QUEUE) == 3, "back")  # ... ends with its block
        amqp.let_go(url)
        assert kept.is_closed and url not in amqp._kept_connections()
        amqp.publish(url, batch[0])  # the next use opens another
        replaced = amqp._kept_connections()[url][0]
        assert replaced is not kept and amqp.ready(url, amqp.CLAIM_QUEUE) == 4
    # The vhost is gone, and the broker closed the kept connection: the next use says so as a
    # fresh connection would (an AMQP error), and keeps nothing.
    with pytest.raises(pika.exceptions.AMQPError):
        amqp.publish(url, batch[0])
    assert url not in amqp._kept_connections()


@pytest.mark.parametrize("cookie", ["node's", "wrong"])
def test_the_live_watch_sees_every_change_on_a_real_node(
    shared_broker: SharedBroker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cookie: str
) -> None:
    """Through a bare Erlang VM with the node's cookie; through rabbitmqctl when the node
    refuses the cookie (or there is none)."""
    broker = shared_broker.broker
    batch = list(claim_set(random.Random(3), 3, 0, 0).files)
    if cookie == "wrong":
        monkeypatch.setattr(erlang, "node_cookie", lambda: b"NOT-THE-COOKIE")
    elif shutil.which("erl") is None or erlang.node_cookie() is None:
        pytest.skip("no erl or no readable cookie of user rabbitmq here")
    with broker.vhost() as test_vhost, broker.vhost() as other_vhost:
        name, other = test_vhost.name, other_vhost.name
        url = broker.amqp_url(name)
        (tmp_path / "cwd").mkdir()  # watched: this process's vhosts
        whole = live.Watch(broker, f"{VHOST_PREFIX}{os.getpid()}-", tmp_path / "cwd", tmp_path / "home")
        assert whole.how == ("erl" if cookie == "node's" else "rabbitmqctl")
        watch = whole.vhost(name)
        try:
            assert watch.now().claim is None  # nothing declared yet
            amqp.declare_topology(url)
            amqp.declare_topology(broker.amqp_url(other))
            amqp.publish(url, *batch)
            assert watch.when(lambda f: f.ready == 3, timeout=10)
            with amqp.channel(url) as ch:
                ch.basic_qos(prefetch_count=2)
                ch.basic_consume(amqp.CLAIM_QUEUE, lambda *_: None)
                held = watch.when(lambda f: f.unacked == 2, timeout=10)
                assert held and held.ready == 1 and held.consumers == 1
                assert held.settings() == "ack_required=True, prefetch_count=2"
            back = watch.when(lambda f: f.unacked == 0 and f.consumers == 0, timeout=10)
            assert back and back.ready == 3 and back.kept == 3
            amqp.put(url, amqp.DEAD_QUEUE, batch[0])
            assert watch.when(lambda f: f.dead_ready == 1 and f.kept == 4, timeout=10)
            assert watch.when(lambda f: f.ready == 99, timeout=0.5) is None  # by the watch's clock
            assert [s.unacked for s in watch.history()].count(2) >= 1
            assert whole.vhost(other).now().claim == live.QueueFigures(0, 0, 0, ())  # watched too
        finally:
            whole.close()
    assert not whole.running()


def test_a_script_cannot_take_the_nodes_epmd_from_the_grader(
    fixture_tree: FixtureTree, tmp_path: Path
) -> None:
    """Scripts share the loopback with a private node's epmd. Asked to stop, or to drop the
    node's name, it refuses while the node runs (no relaxed command check); and an epmd that
    answers nobody (thousands of idle connections to it: red team 8 killed it outright) keeps
    none of the grader's Erlang VMs from the node: the watch, its guard and rabbitmqctl go
    straight to the node's distribution port."""
    if shutil.which("erl") is None or erlang.node_cookie() is None:
        pytest.skip("no erl or no readable cookie of user rabbitmq here")
    with private_node(fixture_tree.mq_up) as (broker, _):
        epmd = int(broker.mq_up_env["MQ_EPMD_PORT"])

        def names() -> subprocess.CompletedProcess[str]:
            argv = ["epmd", "-port", str(epmd), "-names"]
            return subprocess.run(argv, capture_output=True, text=True, timeout=SAFETY, check=False)

        for request in (b"k", b"srabbit"):  # KILL_REQ; STOP_REQ of the node's name
            with socket.create_connection(("127.0.0.1", epmd), timeout=5) as asking:
                asking.sendall(len(request).to_bytes(2, "big") + request)
                with suppress(OSError):
                    assert asking.recv(16) not in (b"OK", b"STOPPED"), request
        assert "name rabbit at port" in names().stdout
        held = []
        try:
            for _ in range(3000):
                with suppress(OSError):
                    held.append(socket.create_connection(("127.0.0.1", epmd), timeout=5))
            assert "name rabbit at port" not in names().stdout  # the flood holds: epmd answers nobody
            (tmp_path / "cwd").mkdir()
            watch = live.Watch(broker, f"{VHOST_PREFIX}{os.getpid()}-", tmp_path / "cwd", tmp_path / "home")
            try:
                assert (watch.how, watch.guarding) == ("erl", True)
            finally:
                watch.close()
            assert broker.ctl is not None
            assert broker.ctl(["eval", "1 + 1."], 60).strip() == "2"
        finally:
            for each in held:
                each.close()


def _hold_until_taken(taker: pika.BlockingConnection, channel: BlockingChannel, url: str, kind: str) -> None:
    """Messages in a queue of ``kind``, taken and never acked where they can be."""
    channel.queue_declare("hoard", durable=kind != "classic", arguments={"x-queue-type": kind})
    if kind != "stream":
        channel.basic_qos(prefetch_count=0)
        channel.basic_consume("hoard", lambda *delivered: None)  # never acked
    giver = pika.BlockingConnection(pika.URLParameters(url)).channel()
    giver.confirm_delivery()
    for _ in range((HELD_BOUND >> 20) * 4):
        giver.basic_publish("", "hoard", b"x" * (1 << 20))
        taker.process_data_events(0)


def _declare_until_taken(channel: BlockingChannel, kind: str) -> None:
    """Exchanges, or bindings between two, each with 120 KiB of arguments (a frame holds 128);
    or topic bindings whose keys are 127 words (a path in the exchange's trie)."""
    big = {"pad": "x" * (120 << 10)}
    if kind == "bindings":
        channel.exchange_declare("from", "direct")
        channel.exchange_declare("to", "headers")
    if kind == "topic":
        channel.exchange_declare("t", "topic")
        channel.queue_declare("q", exclusive=True)
    for i in range(HELD_BOUND // (120 << 10) * 4):
        if kind == "exchanges":
            channel.exchange_declare(f"x{i}", "headers", arguments=big)
        elif kind == "bindings":
            channel.exchange_bind("to", "from", routing_key=f"k{i}", arguments=big)
        else:
            channel.queue_bind("q", "t", routing_key=".".join([format(i, "x")] + ["a"] * 126))  # 255 bytes


@pytest.mark.parametrize("kind", ["classic", "quorum", "stream", "exchanges", "bindings", "topic"])
def test_the_watch_deletes_a_vhost_that_holds_too_much(
    shared_broker: SharedBroker, tmp_path: Path, kind: str
) -> None:
    """The guard: a vhost whose queues hold more than HELD_BOUND is deleted, its script's
    connections with it, and the watch says so; a vhost with a scene's worth of claims beside
    it is left as it is. Held in messages a consumer takes and never acks (prefetch 0: no queue
    bound counts them) from a classic queue or a quorum queue (whose log ra keeps, out of the
    queue's process), or in a stream (on disk, where a retention of whole segments bounds
    nothing); or in what it declared (exchanges, bindings: in the node's tables, each with
    arguments up to a frame, as many as a script likes)."""
    broker = shared_broker.broker
    with broker.vhost() as hoard, broker.vhost() as modest:
        (tmp_path / "cwd").mkdir()
        whole = live.Watch(broker, f"{VHOST_PREFIX}{os.getpid()}-", tmp_path / "cwd", tmp_path / "home")
        try:
            # Only a watch from a bare VM guards (through rabbitmqctl it would outlive its run)
            assert (whole.how, whole.guarding) == ("erl", True), whole.tail()
            url = broker.amqp_url(modest.name)
            amqp.declare_topology(url)
            amqp.publish(url, *claim_set(random.Random(5), 3, 0, 0).files)
            assert whole.vhost(modest.name).when(lambda f: f.ready == 3, timeout=10)
            taker = pika.BlockingConnection(pika.URLParameters(hoard.script_url))
            channel = taker.channel()
            with pytest.raises(pika.exceptions.AMQPError):  # the vhost goes, and its connections
                if kind in ("exchanges", "bindings", "topic"):
                    _declare_until_taken(channel, kind)
                else:
                    _hold_until_taken(taker, channel, hoard.script_url, kind)
                deadline = time.monotonic() + SAFETY  # a bound on a hang, not a race
                while time.monotonic() < deadline:
                    taker.process_data_events(0.1)
            held = whole.flooded(hoard.name)
            assert held is not None and held > HELD_SMALL
            wait_until(lambda: broker.api("GET", f"vhosts/{broker.q(hoard.name)}") is None, "the vhost gone")
            assert whole.vhost(hoard.name).when(lambda f: True, timeout=10) is None
            assert whole.flooded(modest.name) is None
            assert whole.vhost(modest.name).now().ready == 3
        finally:
            whole.close()


def test_a_changed_topology_is_told_only_from_listings_that_answered(shared_broker: SharedBroker) -> None:
    """The scripts are blamed for a changed topology only on what the node's listings show: a
    queue gone is named; a vhost that no longer answers (gone) names nothing."""
    broker = shared_broker.broker
    with broker.vhost() as vhost:
        url, name = broker.amqp_url(vhost.name), broker.q(vhost.name)
        amqp.declare_topology(url)
        assert amqp.changed_topology(broker.api, name) == []
        broker.api("DELETE", f"queues/{name}/{amqp.CLAIM_QUEUE}")
        assert amqp.changed_topology(broker.api, name) == [
            f"큐 {amqp.CLAIM_QUEUE} 가 없음",
            f"바인딩 {amqp.CLAIM_EXCHANGE} -[{amqp.CLAIM_KEY}]-> {amqp.CLAIM_QUEUE} 가 없음",
        ]
    assert amqp.changed_topology(broker.api, name) == []  # the vhost is gone: nothing to tell


def test_a_flooded_line_is_read() -> None:
    lines = live.Lines()
    for line in (
        "h 1 1000",
        "g 1010",
        "f 1010 lab-grader-1-2-x 17825792",
        "f 1030 v x",
        "h 2 1060",
        "f 1070 v",
    ):
        lines.feed(line)
    assert lines.flooded == {"lab-grader-1-2-x": 17825792}
    assert lines.looks == [1.0, 1.06]  # the guard's lines are no looks
    assert lines.guarded == 1.07
