"""The claim partner stub and the broker harness, on a real node and a real partner process."""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import os
import pwd
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pika
import pika.exceptions
import pytest
import requests

from fixtures.claims import Outcome, golden_claims
from fixtures.tree import MQ_PLUGINS, FixtureTree
from grader.machinery import broker as broker_module
from grader.machinery import partner as partner_machinery
from grader.machinery import proctable
from grader.machinery.broker import BUSY_WAIT, QUEUE_BOUNDS, USER_LIMITS, VHOST_LIMITS, free_port, start_local
from grader.machinery.nodes import stop_leftover_nodes
from grader.machinery.partner import Partner, PartnerForks, Spares
from grader.machinery.rundir import RunDir, unmount
from solutions.walkthrough import walk_mq
from tests.conftest import SharedBroker, node_errors, private_node
from tests.grading import REPO, grade, still_running
from tests.hold import Hold
from tests.waiting import SAFETY, wait_until


@pytest.fixture(params=["started", "forked"])
def a_partner(request: pytest.FixtureRequest) -> Iterator[Partner]:
    """A partner as ``partner.py claim`` started on its own, and as forked by PartnerForks
    (what a grade's scenes take): both the same code, both answering the same way."""
    if request.param == "started":
        yield Partner()
        return
    forks = PartnerForks()
    try:
        yield Partner(forks=forks)
    finally:
        forks.close()


def test_partner_answers_counts_and_obeys(a_partner: Partner) -> None:
    partner = a_partner
    claims = golden_claims()
    post = f"{partner.url}/v1/claims"
    expected = {Outcome.ACCEPTED: 201, Outcome.NO_DOCS: 422, Outcome.BUSY: 503}
    for claim in claims.files:
        assert requests.post(post, data=claim.data, timeout=5).status_code == expected[claim.outcome]
    busy = claims.of(Outcome.BUSY)[0]
    partner.control(accept_busy=True)
    assert requests.post(post, data=busy.data, timeout=5).status_code == 201
    assert partner.calls(busy.guid) == 2
    # busy_once: the next call of that claim is a 503 (a transient failure), the one after it
    # is answered by the rules again; other claims are not touched.
    good, other = claims.of(Outcome.ACCEPTED)[:2]
    partner.control(busy_once=[good.guid])
    assert requests.post(post, data=other.data, timeout=5).status_code == 201
    assert requests.post(post, data=good.data, timeout=5).status_code == 503
    assert requests.post(post, data=good.data, timeout=5).status_code == 201
    assert partner.stats()["by_status"] == {"201": 7, "422": 1, "503": 2}
    partner.control(mode="hang")
    with pytest.raises(requests.Timeout):
        requests.post(post, data=busy.data, timeout=0.5)
    partner.control(mode="drop")
    with pytest.raises(requests.ConnectionError):
        requests.post(post, data=busy.data, timeout=5)
    partner.control(mode="normal", reset=True)
    assert partner.stats()["by_guid"] == {}
    # A script knows the partner's address, not its token: it may POST claims, nothing else.
    assert requests.get(f"{partner.url}/_stats", timeout=5).status_code == 403
    assert requests.post(f"{partner.url}/_control", json={"reset": True}, timeout=5).status_code == 403
    partner.stop()


def test_what_a_partner_keeps_is_bounded_whoever_calls_it() -> None:
    """A script may POST anything to its partner, a process of the grader's (red team 6: 20
    bodies of 100 MiB grew one to 1.9 GiB, and reading its statistics timed out, a harness
    error). A body over MAX_BODY is answered 413 unread; bodies are kept up to KEPT_BODIES in
    all, later ones as ""; calls are listed up to LISTED_CALLS, later ones only counted."""
    partner_module = _partner_module()
    partner = Partner()
    post = f"{partner.url}/v1/claims"
    try:
        big = requests.post(post, data=b"x" * (partner_module.MAX_BODY + 1), timeout=30)
        assert big.status_code == 413
        good = golden_claims().of(Outcome.ACCEPTED)[0]
        assert requests.post(post, data=good.data, timeout=5).status_code == 201
        stats = partner.stats(bodies=True)
        assert [c["status"] for c in stats["calls"]] == [413, 201]
        assert stats["calls"][0]["body"] == "" and stats["calls"][1]["body"] == good.data.decode()
        # A grader waiting on the statistics asks for them without the bodies (red team 25:
        # 16 MiB of U+FFFD made each answer ~100 MB, and a grader asking at every change grew
        # to 1.45 GB): the same calls, none of the bodies.
        bare = partner.stats()
        assert [c["status"] for c in bare["calls"]] == [413, 201]
        assert not any("body" in c for c in bare["calls"])
        assert len(partner._http.get(f"{partner.url}/_stats?bodies=0", timeout=5).content) < 1000
        # A lone surrogate in a claim's guid (legal JSON escape) once broke every later
        # /_stats (red team 16): the answers are ASCII JSON.
        lone = b'{"guid": "\\ud800", "claimId": "C1", "docs": ["a"]}'
        assert requests.post(post, data=lone, timeout=5).status_code == 201
        assert partner.stats()["by_guid"]["\ud800"] == 1
    finally:
        partner.stop()
    system = partner_module.ClaimSystem()  # the same bookkeeping, without a million requests
    body = "y" * (partner_module.KEPT_BODIES // 3)
    for _ in range(4):
        system.arrive("g", body)
    assert [len(c["body"]) for c in system.calls] == [len(body)] * 3 + [0]
    for _ in range(partner_module.LISTED_CALLS):
        system.arrive("g", "{}")
    stats = system.stats()
    assert len(stats["calls"]) == partner_module.LISTED_CALLS
    assert stats["calls_not_listed"] == 4 and stats["by_guid"]["g"] == partner_module.LISTED_CALLS + 4
    # Distinct guids too, each of bounded length (red team 16: 600 guids of 1 MB each grew a
    # partner to 4 GB).
    for n in range(partner_module.COUNTED_GUIDS + 3):
        system.arrive(f"{n}-" + "z" * 1000, "{}")
    stats = system.stats()
    assert len(stats["by_guid"]) == partner_module.COUNTED_GUIDS and stats["guids_not_counted"] == 4
    assert max(len(guid) for guid in stats["by_guid"]) == partner_module.GUID_KEPT


def test_a_grader_waiting_on_a_partner_asks_again_only_when_something_changed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """GET /_stats?since=V answers once the statistics change, or after its wait: a grader's
    wait_for asks again on each change, not twenty times a second (that polling cost the grader
    and each partner ~30 ms of CPU for every second a scene waited). A connection that only
    asked is no change: else each answer would be one, and the waiter would ask again at once,
    for ever (seen: 4x the CPU of the polling)."""
    partner = Partner()
    try:
        version = partner.stats()["version"]
        for _ in range(3):  # nothing happens: each ask ends with its wait, at the same version
            assert partner.stats(version, 0.05)["version"] == version
        claim = golden_claims().of(Outcome.ACCEPTED)[0]
        answers: list[dict[str, Any]] = []
        asking = threading.Thread(target=lambda: answers.append(partner.stats(version, 5.0)))
        asking.start()
        assert requests.post(f"{partner.url}/v1/claims", data=claim.data, timeout=5).status_code == 201
        asking.join()
        assert answers[0]["by_guid"] == {claim.guid: 1} and answers[0]["version"] > version
        asked = partner._http.get(f"{partner.url}/_stats?since={version}&wait=nan", timeout=5)
        assert asked.status_code == 400  # a wait that is no number is refused, not waited
    finally:
        partner.stop()
    # The change itself ends the wait (a wait of an hour: only the claim can end it; a
    # pytest-timeout FAIL if it does not).
    partner_module = _partner_module()
    monkeypatch.setattr(partner_module, "LONGEST_WAIT", 3600.0)
    system = partner_module.ClaimSystem()
    before = system.stats()["version"]
    woken: list[dict[str, Any]] = []
    waiting = threading.Thread(target=lambda: woken.append(system.stats(before, 3600.0)))
    waiting.start()
    system.arrive("a-guid", "{}")
    waiting.join()
    assert woken[0]["by_guid"] == {"a-guid": 1}


def test_a_wait_on_a_partner_ends_once_what_it_waits_on_has_ended() -> None:
    """A scene waits up to HELD_WAIT (30 s) for a consumer's request to reach the partner; a
    consumer that has ended (crashed at its start, killed by a Ctrl-C's teardown) sends none:
    the wait ends then and says it never came. A condition that holds still wins (an hour's
    timeout: only ``until`` can end the first wait; a pytest-timeout FAIL if it does not)."""
    partner = Partner()
    try:
        assert not partner.wait_for(lambda s: s["in_flight"] >= 1, 3600.0, until=lambda: True)
        claim = golden_claims().of(Outcome.ACCEPTED)[0]
        assert requests.post(f"{partner.url}/v1/claims", data=claim.data, timeout=5).status_code == 201
        assert partner.wait_for(lambda s: s["by_guid"].get(claim.guid) == 1, 3600.0, until=lambda: True)
    finally:
        partner.stop()


def _partner_module() -> Any:
    """fixtures/files/partner.py, a script of the lab's fixture tree, imported as a module."""
    spec = importlib.util.spec_from_file_location("lab_partner", REPO / "fixtures" / "files" / "partner.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("how", ["started", "forked"])
def test_a_partner_ends_with_the_grader_that_started_it_even_sigkilled(how: str) -> None:
    """Class grading stops a hung grader with SIGKILL: nothing of it may keep running. Its
    partners run in sessions of their own (killed with their group at the grader's end), so
    they watch the pipe the grader holds instead, and go once it is closed (forked ones: the
    process that forks them reads that pipe and kills them at its end, and the kernel kills
    them when it goes)."""
    code = (
        "import sys, time\n"
        "from grader.machinery.partner import Partner, PartnerForks\n"
        f"partner = Partner(forks=PartnerForks()) if {how == 'forked'} else Partner()\n"
        "print(partner.url, flush=True)\n"
        "time.sleep(600)\n"
    )
    grader = subprocess.Popen([sys.executable, "-c", code], cwd=REPO, stdout=subprocess.PIPE, text=True)
    try:
        assert grader.stdout is not None
        url = grader.stdout.readline().strip()
        assert requests.post(f"{url}/v1/claims", data=golden_claims().files[0].data, timeout=5).ok
        ours = [p for p in proctable.descendants(grader.pid) if "partner" in proctable.cmdline(p)]
        partners = [info for p in ours if (info := proctable.info(p)) is not None]
        assert len(partners) == (2 if how == "forked" else 1)
        grader.kill()
        grader.wait()
        wait_until(lambda: not any(still_running(p) for p in partners), "a partner outlived its grader")
    finally:
        grader.kill()


def test_a_forked_partner_is_its_own_process_and_stops_alone() -> None:
    """Each scene's partner is a process of its own (forked, not a thread of a shared one):
    what one scene does to its partner (a hang, a kill) is nothing to another's. A stopped
    one no longer answers, and is reaped; once the forking process is gone, asking it for a
    partner is an error the lab answers with a partner started on its own."""
    forks = PartnerForks()
    try:
        first, second = Partner(forks=forks), Partner(forks=forks)
        assert first.url != second.url
        first.control(mode="hang")
        claim = golden_claims().of(Outcome.ACCEPTED)[0]
        assert requests.post(f"{second.url}/v1/claims", data=claim.data, timeout=5).status_code == 201
        assert second.calls(claim.guid) == 1 and first.stats()["by_guid"] == {}
        pids = [p for p in proctable.descendants(os.getpid()) if "partner_forks" in proctable.cmdline(p)]
        assert len(pids) == 3  # the forking process and its two partners
        first.stop()
        with pytest.raises(requests.ConnectionError):
            requests.get(f"{first.url}/_stats", timeout=5)
        left = [p for p in proctable.descendants(os.getpid()) if "partner_forks" in proctable.cmdline(p)]
        assert len(left) == 2  # killed and reaped: no zombie
        assert requests.post(f"{second.url}/v1/claims", data=claim.data, timeout=5).status_code == 201
    finally:
        forks.close()
    assert not [p for p in proctable.descendants(os.getpid()) if "partner_forks" in proctable.cmdline(p)]
    with pytest.raises(RuntimeError):
        Partner(forks=forks)


def test_a_forking_process_that_does_not_answer_is_given_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stuck partner_forks.py (stopped here: it never answers, at any speed) is no hang: the
    request fails after ANSWER_WAIT, the process and its partners are killed, and a later
    request fails at once (the lab then starts a partner on its own)."""
    forks = PartnerForks()
    try:
        first = Partner(forks=forks)
        monkeypatch.setattr(partner_machinery, "ANSWER_WAIT", 0.5)  # its start took its time
        pids = [p for p in proctable.descendants(os.getpid()) if "partner_forks" in proctable.cmdline(p)]
        stuck = next(p for p in pids if (info := proctable.info(p)) and info.ppid == os.getpid())
        os.kill(stuck, signal.SIGSTOP)
        with pytest.raises(RuntimeError, match="did not answer"):
            Partner(forks=forks)
        wait_until(lambda: not any(p in proctable.descendants(os.getpid()) for p in pids), "all killed")
        with pytest.raises(requests.ConnectionError):
            first.stats()
        with pytest.raises(RuntimeError):
            Partner(forks=forks)
    finally:
        forks.close()


def test_spare_partners_are_fresh_handed_out_once_and_stopped_unused() -> None:
    started: list[Partner] = []

    def start() -> Partner:
        started.append(Partner())
        return started[-1]

    spares = Spares(start)
    booted = threading.Event()
    spares.fill_until(3, booted)
    assert len(started) == 3
    first = spares.take()
    assert first is started[0]
    requests.post(f"{first.url}/v1/claims", data=golden_claims().files[0].data, timeout=5)
    second = spares.take()
    assert second is started[1] and second.url != first.url
    assert second.stats()["calls"] == []  # its own process: nothing another scene did
    spares.take()
    fourth = spares.take()  # none left: started now
    assert fourth is started[3] and len(started) == 4
    booted.set()
    spares.fill_until(3, booted)  # the broker is up: no more spares
    assert len(started) == 4
    spares.fill_until(1, threading.Event())
    leftover = started[4]
    spares.close()
    with pytest.raises(requests.ConnectionError):
        leftover.stats()
    for partner in started[:4]:
        partner.stop()


def test_a_private_node_spins_before_its_schedulers_sleep(shared_broker: SharedBroker) -> None:
    """BUSY_WAIT reaches the node mq-up.sh started (through the server's own variable)."""
    base = Path(shared_broker.broker.mq_up_env["MQ_BASE"])
    pid = int((base / "node.pid").read_text())
    argv = Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
    for flag in ("-sbwt", "-sbwtdcpu", "-sbwtdio"):
        assert argv[argv.index(flag) + 1] == BUSY_WAIT, argv


def test_rabbitmqctl_wait_gives_up_on_a_pid_file_being_written() -> None:
    """Why mq-up.sh waits for the pid file to hold a pid before `rabbitmqctl wait`: a node
    truncates its pid file before writing it, and the CLI that reads it then gives up at once
    (seen in CI: a Gradescope run could not start its node, garbage_in_pid_file). "At once":
    it ends at all, long before its own --timeout of an hour (our limit is a safety net)."""
    # The CLI runs as user rabbitmq (Debian's wrapper): a directory it can read, unlike tmp_path.
    base = Path(tempfile.mkdtemp(prefix="lab-grader-selftest-", dir="/var/tmp"))
    # The CLI starts an epmd daemon: on a port of its own, found by its environment and killed.
    mark = f"pid-file-probe-{os.getpid()}-{time.monotonic_ns()}"
    env = os.environ | {"ERL_EPMD_PORT": str(free_port()), "ERL_EPMD_ADDRESS": "127.0.0.1", "LAB_PROBE": mark}
    try:
        base.chmod(0o755)
        pid_file = base / "node.pid"
        pid_file.write_text("")
        pid_file.chmod(0o644)
        try:
            run = subprocess.run(
                ["rabbitmqctl", "-n", "nobody@localhost", "wait", "--timeout", "3600", str(pid_file)],
                capture_output=True,
                text=True,
                timeout=SAFETY,
                env=env,
                check=False,
            )
        except subprocess.TimeoutExpired:
            pytest.fail("rabbitmqctl wait waited for a pid in the empty pid file")
        assert run.returncode != 0 and "garbage_in_pid_file" in run.stdout + run.stderr, run
    finally:
        proctable.kill_all(proctable.carrying("LAB_PROBE", mark))
        shutil.rmtree(base, ignore_errors=True)


def test_mq_up_is_idempotent_and_sets_the_watermark(
    shared_broker: SharedBroker, fixture_tree: FixtureTree
) -> None:
    broker = shared_broker.broker
    again = subprocess.run(
        ["bash", str(fixture_tree.mq_up)],
        capture_output=True,
        text=True,
        env=os.environ | broker.mq_up_env,
        timeout=60,
        check=False,
    )
    assert again.returncode == 0 and "already answers" in again.stdout, again.stderr
    assert broker.ctl is not None
    assert "Memory high watermark setting: 0.5369 gb" in broker.ctl(["status"], 60)


def test_vhosts_are_temporary(shared_broker: SharedBroker) -> None:
    broker = shared_broker.broker
    # Faults name the broker's methods: their text never holds a password (red team 11: an
    # interrupted batch wrote the class node's administrator password into results.json).
    assert broker.password not in repr(broker) and broker.password not in str(broker.delete_our_vhosts)
    with broker.vhost() as vhost:
        assert vhost.script_url not in repr(vhost)
        assert vhost.name in broker.our_vhosts()
        users = [u["name"] for u in broker.api("GET", "users")]
        assert any(vhost.script_url.startswith(f"amqp://{u}:") for u in users)
    assert vhost.name not in broker.our_vhosts()
    assert not [u for u in broker.api("GET", "users") if vhost.script_url.startswith(f"amqp://{u['name']}:")]


@pytest.mark.slow  # a node of its own
def test_a_port_taken_before_the_node_binds_it_costs_one_more_attempt(
    fixture_tree: FixtureTree, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ports are chosen free, and another process may take one before the node binds it (a
    CI's reference grade failed so while another grader started its node): the start is tried
    again on other ports."""
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        taken = held.getsockname()[1]
        chosen = iter([taken])
        real = broker_module.free_port
        monkeypatch.setattr(broker_module, "free_port", lambda: next(chosen, None) or real())
        base = Path(tempfile.mkdtemp(prefix="lab-grader-selftest-", dir="/var/tmp"))
        base.chmod(0o755)
        try:
            node = start_local(fixture_tree.mq_up, base / "node", plugins=MQ_PLUGINS)
            try:
                assert node.amqp_port != taken and node.problem() is None
            finally:
                node.stop()
        finally:
            shutil.rmtree(base, ignore_errors=True)


@pytest.mark.slow  # a node of its own
def test_a_resource_alarm_is_seen(fixture_tree: FixtureTree) -> None:
    """A node in memory alarm blocks every publisher of every vhost: the grader sees the alarm
    (a scene that ends under one is a harness fault, never a verdict), and sees it gone."""
    with private_node(fixture_tree.mq_up) as (broker, _):
        assert broker.ctl is not None and broker.alarms() == []
        broker.ctl(["set_vm_memory_high_watermark", "absolute", "1000000"], 60)
        wait_until(lambda: broker.alarms() == ["memory"], "the memory alarm")
        broker.ctl(["set_vm_memory_high_watermark", "absolute", "512MiB"], 60)
        wait_until(lambda: broker.alarms() == [], "the alarm cleared")


def test_a_private_nodes_data_is_its_own(shared_broker: SharedBroker) -> None:
    """Its users' password hashes and every scene's messages: no user but the node's enters."""
    base = Path(shared_broker.broker.mq_up_env["MQ_BASE"])
    st = base.stat()
    assert stat.S_IMODE(st.st_mode) == 0o700 and st.st_uid == pwd.getpwnam("rabbitmq").pw_uid


def test_a_scene_vhost_cannot_take_the_nodes_memory(shared_broker: SharedBroker) -> None:
    """A class shares one node, which blocks every publisher once its memory alarm goes off:
    what a scene's script may put there is bounded (12 confirmed 1 MiB messages into a queue
    of its own leave at most 8 MiB of them; queues beyond the vhost's limit are refused), and
    the script's user cannot lift the bounds."""
    with shared_broker.broker.vhost() as vhost:
        connection = pika.BlockingConnection(pika.URLParameters(vhost.script_url))
        try:
            channel = connection.channel()
            channel.confirm_delivery()
            channel.queue_declare("hog", arguments={"x-max-priority": 10})
            for _ in range(12):  # past the queue's bound, short of the guard's (live.HELD_BOUND)
                channel.basic_publish("", "hog", b"x" * (1 << 20))
            held = channel.queue_declare("hog", passive=True).method.message_count
            assert held <= QUEUE_BOUNDS["max-length-bytes"] >> 20
            for n in range(VHOST_LIMITS["max-queues"] - 1):
                channel.queue_declare(f"q{n}")
            with pytest.raises(pika.exceptions.ChannelClosedByBroker):
                channel.queue_declare("one-too-many")
        finally:
            with contextlib.suppress(pika.exceptions.AMQPError):
                connection.close()
        # Channels: at most USER_LIMITS' for the scene's user, over all its connections.
        connections = [pika.BlockingConnection(pika.URLParameters(vhost.script_url)) for _ in range(2)]
        opened = 0
        try:
            with pytest.raises(pika.exceptions.AMQPError):
                for n in range(USER_LIMITS["max-channels"] + 1):
                    connections[n % 2].channel()
                    opened += 1
            assert opened == USER_LIMITS["max-channels"]
        finally:
            for each in connections:
                with contextlib.suppress(pika.exceptions.AMQPError):
                    each.close()
        # Connections: at most USER_LIMITS' for the scene's user; the grader's own still come.
        held = []
        try:
            # (the node counts a user's connections a moment after it takes them: a burst may
            # get a few past the cap before the refusals begin)
            with pytest.raises(pika.exceptions.AMQPError):
                for _ in range(USER_LIMITS["max-connections"] + 32):
                    held.append(pika.BlockingConnection(pika.URLParameters(vhost.script_url)))
            assert len(held) >= USER_LIMITS["max-connections"]
            grader = pika.BlockingConnection(pika.URLParameters(shared_broker.broker.amqp_url(vhost.name)))
            grader.close()
        finally:
            for each in held:
                with contextlib.suppress(pika.exceptions.AMQPError):
                    each.close()
        script = urllib.parse.urlsplit(vhost.script_url)
        as_script = requests.put(
            f"http://127.0.0.1:{shared_broker.broker.mgmt_port}/api/vhost-limits/"
            f"{shared_broker.broker.q(vhost.name)}/max-queues",
            json={"value": -1},
            auth=(script.username or "", script.password or ""),
            timeout=30,
        )
        assert as_script.status_code in (401, 403)


def test_a_node_left_by_a_killed_grader_is_stopped_by_the_next_run(
    fixture_tree: FixtureTree, tmp_path: Path
) -> None:
    state = Path(tempfile.mkdtemp(prefix="lab-grader-state-", dir="/var/tmp"))
    state.chmod(0o755)
    try:
        crashed = RunDir(state / "crashed")
        crashed.open()
        # Never stopped: the next run must.
        broker = start_local(fixture_tree.mq_up, crashed.scratch / "broker", plugins=MQ_PLUGINS)
        pid = int((crashed.scratch / "broker" / "node.pid").read_text())
        node = proctable.info(pid)
        assert node is not None and broker.answers()
        for fd in crashed._locks:  # as if its grader was SIGKILLed: the lock goes with the process
            os.close(fd)
        notes = RunDir(state / "next", recoveries=(stop_leftover_nodes,)).open()
        assert any("RabbitMQ node" in note for note in notes), notes
        # Killed by that recovery (nothing else ends it): gone, or a zombie waiting for PID 1,
        # as soon as it has finished dying.
        wait_until(lambda: not still_running(node), "the node ended")
        assert not broker.answers()
        assert not (state / "crashed").exists()
    finally:
        shutil.rmtree(state, ignore_errors=True)


@pytest.mark.slow  # a node of its own
def test_a_grader_killed_outright_leaves_no_node_of_its_own(fixture_tree: FixtureTree) -> None:
    """`pytest grader` on a private node it started (--broker local, or a student's node down),
    SIGKILLed while it grades (held at its first check, the node up): no teardown runs, and the
    node and its epmd are stopped by the run's watchdog, not left running until a run on the
    same state dir (red team 27)."""
    # The node runs as user rabbitmq in the state dir: reachable, unlike pytest's tmp.
    base = Path(tempfile.mkdtemp(prefix="lab-grader-selftest-", dir="/var/tmp"))
    base.chmod(0o755)
    root, state = base / "root", base / "state"
    walk_mq(root, None)
    hold = Hold(base / "hold", ("check",))
    hold.folder.mkdir()
    # fmt: off
    argv = [
        sys.executable, "-m", "pytest", "grader", "-q", "-p", "no:cacheprovider", "--lab", "mq",
        "--broker", "local", "--away-from-pod", "--lab-root", str(root),
        "--fixtures-dir", str(fixture_tree.root), "--state-dir", str(state),
    ]
    # fmt: on
    grader = subprocess.Popen(
        argv, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=os.environ | hold.env()
    )
    try:
        hold.wait("check", alive=lambda: grader.poll() is None)
        assert proctable.carrying("RABBITMQ_PID_FILE", str(state)), "the grader's own node runs"
    finally:
        grader.kill()  # the grader alone, as `kill -9 PID` does: its helpers see it gone
        grader.wait()
    try:
        wait_until(lambda: not proctable.carrying("RABBITMQ_PID_FILE", str(state)), "its node and epmd ended")
    finally:
        for pid in proctable.carrying("RABBITMQ_PID_FILE", str(state)):  # the test's own cleanup
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        # The killed run's tmpfs mounts (the next run on that lab root would undo them).
        for line in Path("/proc/self/mountinfo").read_text().splitlines():
            if (point := line.split()[4]).startswith(str(base)):
                unmount(Path(point))
        shutil.rmtree(base, ignore_errors=True)
    assert str(base) not in Path("/proc/self/mountinfo").read_text()


@pytest.mark.slow  # a node of its own, and a whole grade on it
def test_a_node_whose_statistics_broke_still_grades(fixture_tree: FixtureTree, tmp_path: Path) -> None:
    """RabbitMQ 3.10's statistics database can break for good while the node works: a crash of
    its process group (a temporary child, never restarted) leaves every GET that merges
    statistics answering 500. The grader reads configuration only, so the reference still
    passes every id on such a node. Broken here by killing that process group."""
    with private_node(fixture_tree.mq_up) as (broker, node_dir):
        assert broker.ctl is not None
        broker.ctl(["eval", "exit(whereis(rabbitmq_management), kill)."], 60)
        overview = requests.get(
            f"http://{broker.host}:{broker.mgmt_port}/api/overview",
            auth=(broker.user, broker.password),
            timeout=30,
        )
        assert overview.status_code == 500, overview.text  # the breakage this test is about
        assert broker.problem() is None
        node = SharedBroker(broker)
        root = tmp_path / "root"
        walk_mq(root, node.status())
        graded = grade(root, fixture_tree.root, tmp_path / "state", lab="mq", args=node.args, env=node.env)
        assert graded.statuses and not graded.not_passed, graded.explain()
        assert not broker.grader_vhosts()
        shown = node_errors(node_dir)  # what the shared node's teardown would say of it
        assert "{id,rabbitmq_management}" in shown and "reason: killed" in shown, shown


def test_a_class_node_has_room_above_the_labs_watermark(tmp_path: Path) -> None:
    """A quarter of the machine's memory or of its cgroup's limit, whichever is less, between
    the lab's 512 MiB and 2 GiB; the lab's own when neither can be read."""
    meminfo, cgroup = tmp_path / "meminfo", tmp_path / "memory.max"
    watermark = functools.partial(broker_module.shared_watermark, meminfo, cgroup)
    assert watermark() == broker_module.LAB_WATERMARK
    meminfo.write_text("MemTotal:       24576000 kB\nMemFree:        1000 kB\n")
    assert watermark() == broker_module.SHARED_WATERMARK_MOST
    cgroup.write_text("max\n")
    assert watermark() == broker_module.SHARED_WATERMARK_MOST
    cgroup.write_text(f"{3 << 30}\n")
    assert watermark() == (3 << 30) // 4
    cgroup.write_text(f"{1 << 30}\n")
    assert watermark() == broker_module.LAB_WATERMARK


@pytest.mark.slow  # a node of its own, taken to its connection limit (23 s)
def test_bare_connections_cannot_take_a_nodes_files(fixture_tree: FixtureTree) -> None:
    """Every connection takes a file descriptor of the node's before it says who it is (no
    vhost's limit counts it): more than the node may open once stopped its database for good.
    A node the grader starts takes at most CONNECTION_MAX; past them its database, its
    management API and a quorum queue's small log all still work."""
    with private_node(fixture_tree.mq_up) as (broker, _):
        assert broker.ctl is not None
        said = broker.ctl(
            [
                "eval",
                "{application:get_env(rabbit, connection_max), application:get_env(ra, wal_max_size_bytes)}.",
            ],
            60,
        )
        assert said.split() == [f"{{{{ok,{broker_module.CONNECTION_MAX}}},{{ok,{broker_module.WAL_MAX}}}}}"]
        held = []
        try:
            for _ in range(1200):  # more than the node's 1,024 descriptors
                with contextlib.suppress(OSError):
                    held.append(socket.create_connection(("127.0.0.1", broker.amqp_port), timeout=5))
            with broker.vhost() as vhost:  # the database writes
                assert broker.api("GET", f"vhosts/{broker.q(vhost.name)}") is not None
            assert broker.ctl(["eval", "mnesia:system_info(is_running)."], 60).strip() == "yes"
        finally:
            for each in held:
                each.close()
        wait_until(lambda: broker.problem() is None, "the node answering again")
