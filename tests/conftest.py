"""Self-test fixtures: a fixture tree, and lab roots walked with variants of the reference."""

from __future__ import annotations

import shutil
import tempfile
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests

from fixtures.tree import MQ_PLUGINS, FixtureTree, build
from grader.config import AMQP_URL_VARIABLE, MANAGEMENT_URL_VARIABLE
from grader.machinery.broker import Broker, start_local
from grader.queue.lab import QueueLab
from solutions.walkthrough import walk_queue
from tests.queue_lab import queue_lab


def pytest_configure(config: pytest.Config) -> None:
    # Every session's own temporary tree, out of /tmp/pytest-of-root: each pytest session
    # strips the group and other bits of that shared directory (the mask of the search-only
    # ACL entries a grader run lends its scripts' identity there), so graders of one session
    # would lose their way whenever another session starts. --basetemp still wins.
    if config.option.basetemp is None and not hasattr(config, "workerinput"):
        config.option.basetemp = tempfile.mkdtemp(prefix="lab-grader-selftests-", dir="/var/tmp")
        config.add_cleanup(lambda: shutil.rmtree(config.option.basetemp, ignore_errors=True))
    config.addinivalue_line("markers", "case(name): the hostile case a test reads (test_hostile.py)")
    config.addinivalue_line(
        "markers",
        "slow: grades a student's work (a variant, a hostile tree, a class) with whole grader runs; "
        "left out of the fast layer (./dev.sh test --fast: -m 'not slow')",
    )


@pytest.fixture(scope="session")
def fixture_tree(tmp_path_factory: pytest.TempPathFactory) -> FixtureTree:
    return build(tmp_path_factory.mktemp("fixtures"))


@pytest.fixture(scope="session")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """A fresh directory per name, for lab roots and grader state dirs."""
    return lambda name: tmp_path_factory.mktemp(name)


@pytest.fixture(scope="session")
def walked(fixture_tree: FixtureTree, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The queue lab's reference walked once: in-process queue tests start from copies of it."""
    root = tmp_path_factory.mktemp("walked") / "root"
    walk_queue(root, fixture_tree.root)
    return root / "q"


@pytest.fixture
def lab(fixture_tree: FixtureTree, walked: Path, tmp_path: Path) -> Iterator[QueueLab]:
    """A queue lab (tests/queue_lab.py) whose saved and live q/ are copies of ``walked``."""
    with queue_lab(fixture_tree, tmp_path, walked) as made:
        yield made


@dataclass(frozen=True)
class SharedBroker:
    """One private node for every grader run of the self-tests (``--broker url``)."""

    broker: Broker

    @property
    def args(self) -> tuple[str, ...]:
        return ("--broker", "url", "--rabbitmq-node", self.broker.node)

    @property
    def env(self) -> dict[str, str]:
        """The node's rabbitmqctl environment, and its administrator's URLs where no other user
        reads them (a command line any user reads: host-mode scripts too)."""
        return {
            **self.broker.ctl_env,
            AMQP_URL_VARIABLE: self.broker.amqp_url("/"),
            MANAGEMENT_URL_VARIABLE: f"http://127.0.0.1:{self.broker.mgmt_port}",
        }

    def status(self) -> str:
        """`rabbitmqctl status` of the node (a node started by mq-up.sh): step 1's status.txt."""
        assert self.broker.ctl is not None
        return self.broker.ctl(["status"], 60)


@contextmanager
def private_node(mq_up: Path) -> Iterator[tuple[Broker, Path]]:
    """A node started by ``mq_up`` (the fixture's mq-up.sh), and its directory (logs under
    ``log/``); stopped and removed afterwards."""
    # The node runs as user rabbitmq: its directory must be reachable, unlike pytest's tmp.
    base = Path(tempfile.mkdtemp(prefix="lab-grader-selftest-", dir="/var/tmp"))
    base.chmod(0o755)
    broker = start_local(mq_up, base / "node", plugins=MQ_PLUGINS)
    try:
        yield broker, base / "node"
    finally:
        broker.stop()
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture(scope="session")
def shared_broker(fixture_tree: FixtureTree) -> Iterator[SharedBroker]:
    with private_node(fixture_tree.mq_up) as (broker, node):
        yield SharedBroker(broker)
        if (problem := broker.problem()) is not None:  # say why, while its log is still there
            pytest.fail(f"the shared node broke during the run: {problem}\n{node_errors(node)}")
        if (broken := _statistics_broken(broker)) is not None:  # graded without them: say so only
            warnings.warn(f"the shared node's statistics broke: {broken}\n{node_errors(node)}", stacklevel=1)


def _statistics_broken(broker: Broker) -> str | None:
    """What the node's statistics answer when they fail (see ``Broker.api``), else None."""
    try:
        broker.api("GET", "overview", stats=True)
    except requests.RequestException as exc:
        return str(exc)
    return None


def node_errors(node: Path, most: int = 12) -> str:
    """The node's error reports, whole: those of the management plugin first (where a broken
    statistics database shows why), then the others in order, leaving out the shutdown reports
    a closed connection leaves (noise); at most ``most`` of them."""
    reports: list[tuple[str, list[str]]] = []  # (prefix: time, level and process; lines)
    for log in sorted((node / "log").glob("*.log")):
        for line in log.read_text(errors="replace").splitlines():
            prefix = line.split(">", 1)[0]
            if reports and reports[-1][0] == prefix:
                reports[-1][1].append(line)
            else:
                reports.append((prefix, [line]))
    errors = [
        "\n".join(lines)
        for prefix, lines in reports
        if "[error]" in prefix and not any("rabbit_channel_sup_sup" in line for line in lines)
    ]
    management = [report for report in errors if "rabbitmq_management" in report or "rabbit_mgmt" in report]
    shown = [*management, *(report for report in errors if report not in management)][:most]
    return "\n".join([f"{len(errors)} error reports, {len(management)} of the management plugin:", *shown])
