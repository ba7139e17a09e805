"""RabbitMQ for the grader: one interface, several backends.

- ``local``: a private node started with the fixture's own mq-up.sh on free ports, with its
  own epmd, so it never meets a broker already on 5672 (CI, any machine with rabbitmq-server).
- ``student``: the student's running ``rabbit@localhost`` (student mode).
- ``url``: an AMQP URL with administrator rights (management API on port 15672 of its host).
- ``container``: testcontainers, where a Docker engine runs (kept thin: none runs here).

Scenarios get a temporary vhost each (guest granted on it only), deleted afterwards. Live
figures (unacked, consumer settings) come from rabbitmqctl, never from the management API,
whose statistics lag by seconds.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import secrets
import shutil
import socket
import subprocess
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import requests

from grader.machinery.environ import environment, http_session
from grader.machinery.nodes import EPMD_PORT_FILE, stop_node
from grader.machinery.plugins import shown as shown_plugins

VHOST_PREFIX = "lab-grader-"
# Bounds of a scene's vhost (see Broker._bound): a lab's scenes use two or three queues, a
# few connections and at most a few hundred claims of a few KiB each.
VHOST_LIMITS = {"max-queues": 32}
QUEUE_BOUNDS = {"max-length": 10_000, "max-length-bytes": 8 << 20}
# The scene's user: channels are not capped per vhost, and a node offers 2,047 a connection
# (64 connections x 2,047 channels of one script's set off the node's memory alarm).
# Connections are capped on the user, not the vhost: a vhost's cap counts the grader's own
# connections too, and a script that took all 64 made the grader's publish a grader error
# (red team 12).
USER_LIMITS = {"max-channels": 256, "max-connections": 64}
STUDENT_NODE = "rabbit@localhost"
CTL_TIMEOUT = 60.0
# Broker administration is retried on failures that other graders' work on the same node can
# cause for a moment (a `rabbitmqctl status` racing a vhost deletion, a management API 5xx):
# they are never a grade. A failure that stays is raised after the last attempt.
RETRY_PAUSES = (0.3, 1.0, 2.0)
# How long a private node's schedulers spin before they sleep (erl +sbwt, +sbwtdcpu, +sbwtdio).
# RabbitMQ sets "none": every job handed to a sleeping scheduler thread then costs a wake-up,
# and a wake-up is dear in a virtual machine (an interprocessor interrupt). A boot loads about
# 1,100 modules, every file read a job for a dirty I/O scheduler: measured on 2 cores, boots
# alone took 6.6-12.5 s with "none" (2.3-7.5 CPU-s of it system time) and 3.0-7.0 s with
# "short"; full grades 14.0-14.3 s against 15.7 s (medians of 6, alternating). "short" spins
# least of Erlang's own settings while the scenarios need the CPU (student mode uses the
# student's node as it is).
BUSY_WAIT = "short"


@dataclass(frozen=True)
class Vhost:
    """A temporary vhost, and how its scripts connect: as a user of its own that may use this
    vhost and nothing else (no management access, no other vhost)."""

    name: str
    script_url: str = field(repr=False)  # holds the scene user's password


class BrokerUnavailable(RuntimeError):
    """No broker could be had: a harness fault, never a student's FAIL."""


class PortTaken(BrokerUnavailable):
    """A port chosen for a private node was taken before the node bound it (another process
    was quicker): worth another attempt on other ports."""


class BrokerAlarm(RuntimeError):
    """The node had a resource alarm in effect (memory, disk): it blocked every publisher of
    every vhost, so what a scene saw is no verdict (a harness fault; a batch grades it again)."""


# A node a class shares (batch) has the lab's memory watermark raised: once its alarm goes off
# it blocks every publisher of every grade, and the scenes' guard (mq/live.py) needs a moment
# to take a flooding scene down. A quarter of this machine's memory (or of its cgroup's
# limit), between the lab's 512 MiB and 2 GiB.
LAB_WATERMARK = 512 << 20
SHARED_WATERMARK_MOST = 2 << 30


def shared_watermark(
    meminfo: Path = Path("/proc/meminfo"), cgroup: Path = Path("/sys/fs/cgroup/memory.max")
) -> int:
    """The memory watermark of a node a class shares, in bytes (see SHARED_WATERMARK_MOST)."""
    sizes = []
    with contextlib.suppress(OSError, ValueError):
        for line in meminfo.read_text().splitlines():
            if line.startswith("MemTotal:"):
                sizes.append(int(line.split()[1]) * 1024)
    with contextlib.suppress(OSError, ValueError):
        sizes.append(int(cgroup.read_text().strip()))  # "max" when there is no limit
    quarter = min(sizes) // 4 if sizes else LAB_WATERMARK
    return max(LAB_WATERMARK, min(SHARED_WATERMARK_MOST, quarter))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


Ctl = Callable[[Sequence[str], float], str]  # rabbitmqctl ARGS -> stdout (raises on failure)


def local_ctl(node: str, env: dict[str, str] | None = None) -> Ctl:
    """rabbitmqctl on this machine for ``node`` (env carries ERL_EPMD_PORT for a private one)."""

    def once(args: Sequence[str], timeout: float) -> str:
        run = subprocess.run(
            ["rabbitmqctl", "-n", node, *args],
            capture_output=True,
            text=True,
            timeout=timeout,
            env=environment(**(env or {})),
            check=False,
        )
        if run.returncode != 0:
            raise RuntimeError(f"rabbitmqctl {' '.join(args)}: {(run.stderr or run.stdout)[-800:]}")
        return run.stdout

    def ctl(args: Sequence[str], timeout: float = CTL_TIMEOUT) -> str:
        # Every command the grader sends reads only: safe to send again.
        for pause in RETRY_PAUSES:
            try:
                return once(args, timeout)
            except RuntimeError:
                time.sleep(pause)
        return once(args, timeout)

    return ctl


@dataclass
class Broker:
    """A node the grader may administer: AMQP and management coordinates, rabbitmqctl."""

    label: str
    amqp_port: int
    mgmt_port: int
    ctl: Ctl | None
    host: str = "127.0.0.1"
    user: str = "guest"
    password: str = field(default="guest", repr=False)  # never in a fault text a student reads
    stop: Callable[[], None] = lambda: None
    node: str = STUDENT_NODE
    ctl_env: dict[str, str] = field(default_factory=dict)
    mq_up_env: dict[str, str] = field(default_factory=dict)  # how mq-up.sh started it
    _http: threading.local = field(default_factory=threading.local, repr=False)  # a session per thread

    def amqp_url(self, vhost: str = "/") -> str:
        quoted = urllib.parse.quote(vhost, safe="")
        return f"amqp://{self.user}:{self.password}@{self.host}:{self.amqp_port}/{quoted}"

    def _session(self) -> requests.Session:
        if not hasattr(self._http, "session"):
            self._http.session = http_session()
        session: requests.Session = self._http.session
        return session

    def _at_once(self, *calls: Callable[[], object]) -> None:
        """Make ``calls`` concurrently, each on a thread of its own with an HTTP session of its
        own, closed after; the first failure is raised once all have returned."""

        def alone(call: Callable[[], object]) -> object:
            try:
                return call()
            finally:
                if (session := getattr(self._http, "session", None)) is not None:
                    session.close()

        with ThreadPoolExecutor(max_workers=len(calls), thread_name_prefix="broker-api") as pool:
            futures = [pool.submit(alone, call) for call in calls]
        for future in futures:
            future.result()

    def api(self, method: str, path: str, body: Any = None, *, stats: bool = False) -> Any:
        """The management HTTP API (configuration, never live figures). Every call the grader
        makes is idempotent (GET, PUT, DELETE), so a 5xx, a dropped connection or a timeout is
        retried; a 404 on GET or DELETE is None (a vhost another run deleted first is gone all
        the same).

        A GET leaves the statistics out (``disable_stats``) unless ``stats`` asks for them: the
        node's statistics database can break for good while the node itself works (in 3.10 a
        crash of its process group leaves every GET that merges statistics answering 500,
        ``badkey`` on the node's name), and no configuration the grader reads depends on it."""
        params = {"disable_stats": "true"} if method == "GET" and not stats else None
        for pause in (*RETRY_PAUSES, None):
            try:
                response = self._session().request(
                    method,
                    f"http://{self.host}:{self.mgmt_port}/api/{path}",
                    params=params,
                    json=body,
                    auth=(self.user, self.password),
                    timeout=30,
                )
            except (requests.ConnectionError, requests.Timeout):  # a node too busy to answer in time
                if pause is None:
                    raise
                time.sleep(pause)
                continue
            if response.status_code >= 500 and pause is not None:
                time.sleep(pause)
                continue
            if response.status_code == 404 and method in ("GET", "DELETE"):
                return None
            response.raise_for_status()
            return response.json() if response.content else None
        raise AssertionError("unreachable")

    # vhosts ------------------------------------------------------------------------------
    @staticmethod
    def q(name: str) -> str:
        return urllib.parse.quote(name, safe="")

    @contextlib.contextmanager
    def vhost(self) -> Iterator[Vhost]:
        """A temporary vhost, the grader's user and a user of its own granted on it; both the
        vhost and that user deleted afterwards whatever happens."""
        # Opaque names: the scripts read both in EAI_AMQP_URL, and a name that told the scene
        # (or its place in the run) would let a script behave only where it is watched.
        name = user = f"{VHOST_PREFIX}{os.getpid()}-{secrets.token_hex(6)}"
        password = secrets.token_hex(16)
        everything = {"configure": ".*", "write": ".*", "read": ".*"}
        self.api("PUT", f"vhosts/{self.q(name)}")
        try:
            # At once (each a transaction of the node's, ~50-200 ms while a class's scenes
            # start): in turn they made a scene start about a second later on 2 cores.
            self._at_once(
                *self._bounds(name),
                lambda: self.api("PUT", f"permissions/{self.q(name)}/{self.q(self.user)}", everything),
                lambda: (
                    self.api("PUT", f"users/{self.q(user)}", {"password": password, "tags": ""}),
                    *(
                        self.api("PUT", f"user-limits/{self.q(user)}/{what}", {"value": value})
                        for what, value in USER_LIMITS.items()
                    ),
                    self.api("PUT", f"permissions/{self.q(name)}/{self.q(user)}", everything),
                ),
            )
            quoted = urllib.parse.quote(name, safe="")
            yield Vhost(name, f"amqp://{user}:{password}@{self.host}:{self.amqp_port}/{quoted}")
        finally:
            with contextlib.suppress(requests.RequestException):
                self.api("DELETE", f"vhosts/{self.q(name)}")
            with contextlib.suppress(requests.RequestException):
                self.api("DELETE", f"users/{self.q(user)}")

    def _bounds(self, vhost: str) -> list[Callable[[], object]]:
        """What a scene's vhost may hold, far above any lab's need and far below the node's
        memory: the node is shared by a class, and once its memory alarm goes off it blocks
        every publisher of every vhost (a script that published a few hundred 1 MiB messages
        turned its classmates' correct work into FAILs). An operator policy caps every queue
        (the lower of it and a policy of the scene's own applies); the vhost caps queues and
        connections (and the scene's user its channels, USER_LIMITS, set with the user). A script
        cannot change either (its user has no tags). The calls that set them, each to be made
        at once with the other: a vhost's limits are one parameter that each PUT reads, changes
        and writes back, so they are set one after another (made at once, one was lost)."""
        where = self.q(vhost)
        policy = {"pattern": ".*", "definition": QUEUE_BOUNDS, "apply-to": "queues", "priority": 0}

        def limits() -> None:
            for what, value in VHOST_LIMITS.items():
                self.api("PUT", f"vhost-limits/{where}/{what}", {"value": value})

        bound = functools.partial(self.api, "PUT", f"operator-policies/{where}/lab-grader-bounds", policy)
        return [limits, bound]

    def alarms(self) -> list[str]:
        """The resource alarms in effect on the node ([] when none, or when the node cannot
        say: an older node, an API that does not answer)."""
        try:
            response = self._session().get(
                f"http://{self.host}:{self.mgmt_port}/api/health/checks/alarms",
                auth=(self.user, self.password),
                timeout=30,
            )
        except requests.RequestException:
            return []
        if response.status_code != 503:
            return []
        try:
            alarms = response.json().get("alarms") or []
        except (ValueError, AttributeError):
            return []
        return [str(a.get("resource", a)) if isinstance(a, dict) else str(a) for a in alarms] or ["?"]

    def names(self, kind: str) -> list[str]:
        """The names of the node's ``kind`` ("vhosts", "users"); an entry of any other shape
        (a node whose management plugin is in trouble) is passed by, never an error."""
        listed = self.api("GET", kind) or []
        return [e["name"] for e in listed if isinstance(e, dict) and isinstance(e.get("name"), str)]

    def delete_stale_vhosts(self) -> list[str]:
        """Remove vhosts (and their users) a grader that is no longer running left behind."""
        stale = []
        for kind in ("vhosts", "users"):
            for name in self.names(kind):
                m = re.match(rf"{VHOST_PREFIX}(\d+)-", name)
                if m and not Path(f"/proc/{m.group(1)}").exists():
                    self.api("DELETE", f"{kind}/{self.q(name)}")
                    stale.append(name)
        return stale

    def grader_vhosts(self, pid: int | None = None) -> list[str]:
        """The vhosts graders made (those of the grader ``pid`` only, when given)."""
        prefix = VHOST_PREFIX if pid is None else f"{VHOST_PREFIX}{pid}-"
        return [name for name in self.names("vhosts") if name.startswith(prefix)]

    def our_vhosts(self) -> list[str]:
        return self.grader_vhosts(os.getpid())

    def delete_our_vhosts(self) -> None:
        """Safety net at the end of a run: no vhost or user of ours survives it."""
        for name in self.our_vhosts():
            self.api("DELETE", f"vhosts/{self.q(name)}")
        prefix = f"{VHOST_PREFIX}{os.getpid()}-"
        for name in self.names("users"):
            if name.startswith(prefix):
                self.api("DELETE", f"users/{self.q(name)}")

    def set_policy(self, vhost: str, name: str, pattern: str, definition: dict[str, Any]) -> None:
        self.api(
            "PUT",
            f"policies/{self.q(vhost)}/{name}",
            {"pattern": pattern, "definition": definition, "apply-to": "queues"},
        )

    def take_over(self) -> None:
        """A private node: an administrator of the grader's own with a random password, and no
        guest (guest/guest is known to every script; on this node it would be an
        administrator reaching every run's vhosts)."""
        admin, password = "lab-grader-admin", secrets.token_hex(16)
        self.api("PUT", f"users/{admin}", {"password": password, "tags": "administrator"})
        self.api("PUT", f"permissions/%2F/{admin}", {"configure": ".*", "write": ".*", "read": ".*"})
        self.user, self.password = admin, password
        self.api("DELETE", "users/guest")

    def answers(self) -> bool:
        return self.problem() is None

    def problem(self) -> str | None:
        """None when the AMQP port takes a connection and the management API answers (the
        default vhost, read without statistics: see ``api``); otherwise what failed (a 5xx
        carries the broker's own reason)."""
        try:
            with socket.create_connection((self.host, self.amqp_port), timeout=2):
                pass
        except OSError as exc:
            return f"AMQP port {self.amqp_port}: {exc}"
        try:
            self.api("GET", "vhosts/%2F")
        except requests.HTTPError as exc:
            body = exc.response.text[:600] if exc.response is not None else ""
            return f"management API: {exc} {body}".strip()
        except requests.RequestException as exc:
            return f"management API: {exc}"
        return None


# backends --------------------------------------------------------------------------------
# A node the grader starts (its own, or a class's) is shared by scripts that may be hostile:
# - every connection a script opens takes one of the node's file descriptors before it says
#   who it is (no vhost's limit counts it): 3,000 bare connections once took every one of the
#   1,024 the node may open (its soft limit, which su's PAM session sets whatever the grader's
#   is), and its database, which then could not open a file, stopped for good (red team 8). The
#   node takes at most CONNECTION_MAX connections, half its descriptors: one more is refused,
#   the database keeps the rest. A class's grades need a few dozen each.
# - a quorum queue's messages stay in its write-ahead log's tables, in memory, until the log
#   reaches its size and rolls over, whatever became of the queue: 512 MiB by default, the
#   lab's whole watermark (red team 8). A log of WAL_MAX rolls over far sooner.
CONNECTION_MAX = 512
WAL_MAX = 64 << 20
NODE_CONFIG = f"""[{{rabbit, [{{connection_max, {CONNECTION_MAX}}}]}},
 {{ra, [{{wal_max_size_bytes, {WAL_MAX}}}]}}].
"""


def reach_directly(epmd_port: int, dist_port: int) -> dict[str, str]:
    """The environment of every Erlang VM the grader starts to reach a private node (rabbitmqctl,
    the live watch): straight to the node's distribution port, never through its epmd. Scripts
    share the loopback with that epmd, and a few thousand idle connections to it made it answer
    nobody: the watch of the next grade could not find the node (red team 8 killed it outright
    while the relaxed command check was on). ``-dist_listen false``: the VM takes no
    connections, so it needs no port of its own and registers nowhere. ERL_EPMD_PORT keeps any
    epmd the CLI might still start on the node's own port."""
    return {
        "ERL_EPMD_PORT": str(epmd_port),
        "ERL_ZFLAGS": f"-erl_epmd_port {dist_port} -dist_listen false",
    }


def start_local(mq_up: Path, base: Path, plugins: Sequence[str] = (), attempts: int = 3) -> Broker:
    """A private node through the fixture's own mq-up.sh: free ports, its own epmd, data in
    ``base`` (which must be reachable by user rabbitmq). ``plugins``, the ones mq-up.sh enables,
    lets the node see only those and what they need (it boots faster; see plugins.py). A port
    taken between choosing it and binding it (another process was quicker) costs one more
    attempt on other ports."""
    if shutil.which("rabbitmq-server") is None:
        raise BrokerUnavailable(
            "rabbitmq-server is not installed: apt-get install -y rabbitmq-server "
            "(or use --broker url/container)"
        )
    for attempt in range(1, attempts + 1):
        try:
            return _start_local_once(mq_up, base, plugins)
        except PortTaken:
            if attempt == attempts:
                raise
    raise AssertionError("unreachable")


def _start_local_once(mq_up: Path, base: Path, plugins: Sequence[str]) -> Broker:
    ports = {name: free_port() for name in ("AMQP", "MGMT", "DIST", "EPMD")}
    env = {
        "MQ_NODE": STUDENT_NODE,  # same name as the student's: its own epmd keeps them apart
        "MQ_BASE": str(base),
        **{f"MQ_{name}_PORT": str(port) for name, port in ports.items()},
        "RABBITMQ_SCHEDULER_BUSY_WAIT_THRESHOLD": BUSY_WAIT,  # mq-up.sh passes it on to the server
    }
    ctl_env = reach_directly(ports["EPMD"], ports["DIST"])
    base.mkdir(parents=True, exist_ok=True)
    if plugins and (plugin_dir := shown_plugins(plugins, base / "plugins")) is not None:
        env["RABBITMQ_PLUGINS_DIR"] = str(plugin_dir)  # the server reads it; mq-up.sh passes it on
    (base / EPMD_PORT_FILE).write_text(str(ports["EPMD"]))

    def stop() -> None:
        stop_node(base)

    # What a node the grader starts may hold, beyond the lab's settings (see NODE_CONFIG).
    (base / "lab-grader.config").write_text(NODE_CONFIG)
    env["RABBITMQ_ADVANCED_CONFIG_FILE"] = str(base / "lab-grader.config")  # mq-up.sh passes it on
    try:
        started = subprocess.run(
            ["bash", str(mq_up)],
            env=environment(**env),
            capture_output=True,
            text=True,
            timeout=120,
            start_new_session=True,
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        stop()
        raise BrokerUnavailable(f"mq-up.sh did not return within 120 s: {exc}") from exc
    if started.returncode != 0:
        stop()
        said = started.stderr or started.stdout
        # mq-up.sh's own check, or the node's listener a moment later (its log's tail may be
        # anything: the whole output is read, not the part shown)
        taken = any(sign in said for sign in ("already in use", "eaddrinuse", "tcp_listener_sup"))
        raise (PortTaken if taken else BrokerUnavailable)(
            f"mq-up.sh could not start a private node (exit {started.returncode}):\n{said[-1500:]}"
        )
    # The node's data (its users' password hashes, every scene's messages) is the node's
    # alone: mq-up.sh gave the folder to user rabbitmq, which keeps working in it; no other
    # user (a host-mode script) may enter.
    os.chmod(base, 0o700)
    broker = Broker(
        label=f"private node {STUDENT_NODE} (epmd {ports['EPMD']}, amqp {ports['AMQP']})",
        amqp_port=ports["AMQP"],
        mgmt_port=ports["MGMT"],
        ctl=local_ctl(STUDENT_NODE, ctl_env),
        stop=stop,
        ctl_env=ctl_env,
        mq_up_env=env,
    )
    try:
        broker.take_over()
    except requests.RequestException as exc:
        stop()
        raise BrokerUnavailable(f"could not set up the private node's administrator: {exc}") from exc
    return broker


def student_node() -> Broker | None:
    """The student's running rabbit@localhost, if it answers on the lab's default ports."""
    broker = Broker(
        label=f"student node {STUDENT_NODE}",
        amqp_port=5672,
        mgmt_port=15672,
        ctl=local_ctl(STUDENT_NODE) if shutil.which("rabbitmqctl") else None,
    )
    return broker if broker.answers() else None


def from_url(url: str, node: str | None = None, management_url: str | None = None) -> Broker:
    """A broker somebody else runs; ``node`` lets rabbitmqctl on this machine read it live."""
    parsed = urllib.parse.urlparse(url)
    mgmt = urllib.parse.urlparse(management_url or f"http://{parsed.hostname}:15672")
    broker = Broker(
        label=f"broker at {parsed.hostname}:{parsed.port or 5672}",
        host=parsed.hostname or "127.0.0.1",
        amqp_port=parsed.port or 5672,
        mgmt_port=mgmt.port or 15672,
        user=urllib.parse.unquote(parsed.username or "guest"),
        password=urllib.parse.unquote(parsed.password or "guest"),
        ctl=local_ctl(node) if node else None,
        node=node or STUDENT_NODE,
    )
    if (problem := broker.problem()) is not None:
        raise BrokerUnavailable(f"{url}: {problem}")
    return broker


def start_container() -> Broker:  # pragma: no cover - needs a Docker engine
    """A throwaway broker in a container (testcontainers), where a Docker engine runs."""
    try:
        from testcontainers.rabbitmq import RabbitMqContainer
    except ImportError as exc:
        raise BrokerUnavailable(f"testcontainers is not installed: {exc}") from exc
    container = RabbitMqContainer("rabbitmq:3.10-management").with_exposed_ports(5672, 15672)
    try:
        container.start()
    except Exception as exc:  # docker.errors.DockerException and friends
        raise BrokerUnavailable(f"no Docker engine to start a RabbitMQ container: {exc}") from exc
    wrapped = container.get_wrapped_container()

    def ctl(args: Sequence[str], timeout: float = CTL_TIMEOUT) -> str:
        code, out = wrapped.exec_run(["rabbitmqctl", *args])
        if code != 0:
            raise RuntimeError(f"rabbitmqctl {' '.join(args)}: {out.decode()[-800:]}")
        return str(out.decode())

    return Broker(
        label="container rabbitmq:3.10-management",
        host=container.get_container_host_ip(),
        amqp_port=int(container.get_exposed_port(5672)),
        mgmt_port=int(container.get_exposed_port(15672)),
        ctl=ctl,
        stop=container.stop,
    )
