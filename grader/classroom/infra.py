"""What every grade of a class stands on: the fixture tree and one broker for all runs."""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from fixtures.tree import MQ_PLUGINS, FixtureTree, build, load
from grader.classroom.runjob import BrokerAccess
from grader.machinery.broker import Broker, from_url, shared_watermark, start_local
from grader.machinery.treecopy import remove_tree
from grader.machinery.watchdog import Watchdog


def fixture_tree(fixtures_dir: Path | None, scratch: Path) -> FixtureTree:
    """The given tree (checked against this grader), or a fresh build in ``scratch``."""
    return load(fixtures_dir) if fixtures_dir is not None else build(scratch / "fixtures")


@dataclass(frozen=True)
class ExternalBroker:
    """A broker somebody else runs (``--amqp-url`` with administrator rights)."""

    amqp_url: str
    management_url: str | None = None
    node: str | None = None


@contextlib.contextmanager
def class_broker(
    tree: FixtureTree, external: ExternalBroker | None, watchdog: Watchdog
) -> Iterator[tuple[Broker, BrokerAccess]]:
    """One broker for every grader run: the external one, or a private node started with the
    fixture's own mq-up.sh (rabbit@localhost on free ports and its own epmd), with room above the
    lab's memory watermark (broker.shared_watermark), stopped at the end, or by ``watchdog``
    should the batch be killed outright. Each run makes and deletes its own temporary vhosts on
    it."""
    if external is not None:
        broker = from_url(external.amqp_url, external.node, external.management_url)
        # The runs inherit this environment (ERL_EPMD_PORT for the node's rabbitmqctl).
        access = BrokerAccess(
            external.amqp_url,
            external.management_url or f"http://{broker.host}:{broker.mgmt_port}",
            external.node,
        )
        yield broker, access
        return
    # The node runs as user rabbitmq: its directory must be reachable by it, unlike /tmp's.
    base = Path(tempfile.mkdtemp(prefix="lab-grader-class-", dir="/var/tmp"))
    watchdog.guard_folder(base)
    watchdog.guard_node(base / "node")  # named before it starts: a node half started is one too
    try:
        base.chmod(0o755)
        broker = start_local(tree.mq_up, base / "node", plugins=MQ_PLUGINS)
        try:
            assert broker.ctl is not None  # a local node's
            broker.ctl(["set_vm_memory_high_watermark", "absolute", str(shared_watermark())], 60)
            yield broker, BrokerAccess.of(broker)
        finally:
            broker.stop()
    finally:
        watchdog.release_node(base / "node")  # start_local stops a node it could not start
        remove_tree(base)
        watchdog.release_folder(base)
