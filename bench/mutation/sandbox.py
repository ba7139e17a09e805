"""Private copies of the repository, and the one RabbitMQ node every mq grader run shares."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from fixtures.tree import MQ_PLUGINS
from grader.config import AMQP_URL_VARIABLE, MANAGEMENT_URL_VARIABLE
from grader.machinery.broker import start_local

REPO = Path(__file__).resolve().parents[2]


def copy_repo(dest: Path, repo: Path = REPO) -> Path:
    """The project's files (tracked, and new ones git does not ignore) copied to ``dest``,
    reachable by user rabbitmq like the grader's own state directories."""
    listed = (
        subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=repo,
            capture_output=True,
            check=True,
        )
        .stdout.decode()
        .split("\0")
    )
    for name in filter(None, listed):
        source = repo / name
        if not source.is_file():
            continue  # deleted in the work tree
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)
    for directory in [dest, *(p for p in dest.rglob("*") if p.is_dir())]:
        directory.chmod(0o755)
    return dest


@dataclass(frozen=True)
class SharedBroker:
    """``--broker url`` arguments and environment for grader runs on one private node."""

    args: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)


@contextmanager
def shared_broker(mq_up: Path, base: Path) -> Iterator[SharedBroker]:
    """A private node (free ports, its own epmd, 127.0.0.1 only), stopped and removed at the
    end whatever happens."""
    broker = start_local(mq_up, base, plugins=MQ_PLUGINS)
    try:
        yield SharedBroker(
            ("--broker", "url", "--rabbitmq-node", broker.node),
            {
                **broker.ctl_env,  # the administrator's URLs where no other user reads them
                AMQP_URL_VARIABLE: broker.amqp_url("/"),
                MANAGEMENT_URL_VARIABLE: f"http://127.0.0.1:{broker.mgmt_port}",
            },
        )
    finally:
        broker.stop()
