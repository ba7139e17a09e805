"""Benchmark: the node CPU the live watch costs while a grade waits (issue 17, item 2).

    python bench/watch_cpu.py [--seconds 10] [--scenes 4] [--watches 4]

Starts a private RabbitMQ node (as the self-tests do) and prints its CPU (milliseconds of CPU a
second, from /proc) idle; with one live watch (grader/mq/live.py: its loop and its guard) and
no vhost of its run; with ``--scenes`` vhosts of the run, each with claim.in and claim.dead (a
grade's scenes); and with ``--watches`` watches at once over them (a class's grades sharing the
node). A grade's scenes spend most of their time waiting on the student's scripts: what the
watch costs a second is paid for every second of every grade. Run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import pika

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fixtures.tree import MQ_PLUGINS, build
from grader.machinery import proctable
from grader.machinery.broker import VHOST_PREFIX, Broker, start_local
from grader.mq import amqp
from grader.mq.live import GUARD_MS, Watch
from tests.terminate import exit_on_sigterm


def node_cpu(pid_file: Path) -> float:
    """CPU-seconds the node's processes have spent so far."""
    total = 0.0
    for pid in proctable.carrying("RABBITMQ_PID_FILE", str(pid_file)):
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def main() -> int:
    exit_on_sigterm()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--scenes", type=int, default=4)
    parser.add_argument("--watches", type=int, default=4)
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="watch-cpu-", dir="/var/tmp"))
    base.chmod(0o755)  # the node runs as user rabbitmq
    broker = start_local(build(base / "fixtures").mq_up, base / "node", plugins=MQ_PLUGINS)
    pid_file = base / "node" / "node.pid"

    def rate(what: str) -> None:
        time.sleep(2)  # what was just started settles
        before = node_cpu(pid_file)
        time.sleep(args.seconds)
        print(f"{what}: {(node_cpu(pid_file) - before) / args.seconds * 1000:.0f} ms of node CPU a second")

    def watch() -> Watch:
        (base / "cwd").mkdir(exist_ok=True)
        return Watch(broker, f"{VHOST_PREFIX}{os.getpid()}-", base / "cwd", base / "home")

    print(f"guard every {GUARD_MS} ms")
    try:
        rate("node idle")
        with contextlib.ExitStack() as stack:
            stack.callback(watch().close)
            rate("one watch, no scene")
            for _ in range(args.scenes):
                _scene(stack, broker)
            rate(f"one watch, {args.scenes} scenes")
            for _ in range(args.watches - 1):
                stack.callback(watch().close)
            rate(f"{args.watches} watches, {args.scenes} scenes")
    finally:
        broker.stop()
        shutil.rmtree(base, ignore_errors=True)
    return 0


def _scene(stack: contextlib.ExitStack, broker: Broker) -> None:
    """A vhost of the run with a scene's two watched queues."""
    vhost = stack.enter_context(broker.vhost())
    connection = pika.BlockingConnection(pika.URLParameters(vhost.script_url))
    try:
        channel = connection.channel()
        for queue in (amqp.CLAIM_QUEUE, amqp.DEAD_QUEUE):
            channel.queue_declare(queue, durable=True)
    finally:
        connection.close()


if __name__ == "__main__":
    sys.exit(main())
