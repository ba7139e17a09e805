"""Private RabbitMQ nodes on this machine (started by broker.start_local): stop one, or the
ones an interrupted run left. Kept apart from broker.py so that the recovery every run makes
first does not import the AMQP and HTTP clients (a queue-only run never needs them)."""

from __future__ import annotations

import time
from pathlib import Path

from grader.machinery import proctable
from grader.machinery.treecopy import remove_tree

EPMD_PORT_FILE = "epmd.port"  # written before a private node starts: a node may run here


def stop_node(base: Path) -> None:
    """Kill a private node started in ``base`` (the node, its epmd and helpers: every process
    whose environment has mq-up.sh's RABBITMQ_PID_FILE of ``base``), then remove ``base``.
    (Nothing read from ``base`` is trusted: it lies in the state dir.)"""
    for _ in range(20):  # the node may start a helper while being killed: look again
        ours = proctable.carrying("RABBITMQ_PID_FILE", f"{base / 'node.pid'}")
        if not ours:
            break
        proctable.kill_all(ours)
        time.sleep(0.05)
    remove_tree(base)


def stop_leftover_nodes(scratch: Path) -> list[str]:
    """Stop the private nodes a grader killed mid-run left under its scratch tree."""
    leftovers = list(scratch.glob(f"*/{EPMD_PORT_FILE}")) if scratch.is_dir() else []
    for port_file in leftovers:
        stop_node(port_file.parent)
    return [f"stopped {len(leftovers)} RabbitMQ node(s) left by an interrupted run"] if leftovers else []
