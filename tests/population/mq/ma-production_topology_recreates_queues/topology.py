"""Converge the claim topology to its declared state.

An existing queue cannot be re-declared with different arguments (406 PRECONDITION_FAILED),
so queues are dropped and re-created: the result is always exactly the spec below.
"""
from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from dataclasses import dataclass, field

import pika
from pika.exceptions import AMQPConnectionError

log = logging.getLogger("topology")


@dataclass(frozen=True)
class QueueSpec:
    name: str
    arguments: dict = field(default_factory=dict)
    durable: bool = True


@dataclass(frozen=True)
class Topology:
    exchanges: tuple = ("eai.claim", "eai.dlx")
    queues: tuple = (
        QueueSpec("claim.in", {"x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"}),
        QueueSpec("claim.dead"),
    )
    bindings: tuple = (("eai.claim", "claim.in", "claim"), ("eai.dlx", "claim.dead", "claim.dead"))


def connect(url: str, attempts: int) -> pika.BlockingConnection:
    for attempt in range(1, attempts + 1):
        try:
            return pika.BlockingConnection(pika.URLParameters(url))
        except AMQPConnectionError as exc:
            if attempt == attempts:
                raise
            log.warning("broker not reachable (%s); retry %d/%d", exc, attempt, attempts)
            time.sleep(attempt)
    raise RuntimeError("unreachable")


def apply(ch, topo: Topology) -> None:
    for name in topo.exchanges:
        ch.exchange_declare(exchange=name, exchange_type="direct", durable=True)
        log.info("exchange %s ok", name)
    for q in topo.queues:
        ch.queue_delete(queue=q.name)  # no-op when it does not exist
        ch.queue_declare(queue=q.name, durable=q.durable, arguments=q.arguments or None)
        log.info("queue %s (re)created args=%s", q.name, q.arguments)
    for exchange, queue, key in topo.bindings:
        ch.queue_bind(queue=queue, exchange=exchange, routing_key=key)
        log.info("binding %s -> %s [%s]", exchange, queue, key)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--attempts", type=int, default=5, help="connection attempts (>=1)")
    ap.add_argument("--log-level", default="INFO", choices=["DEBUG", "INFO", "WARNING", "ERROR"])
    args = ap.parse_args(argv)
    if args.attempts < 1:
        ap.error("--attempts must be >= 1")
    logging.basicConfig(level=args.log_level, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    logging.getLogger("pika").setLevel(logging.WARNING)
    url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
    conn = connect(url, args.attempts)
    try:
        apply(conn.channel(), Topology())
    finally:
        conn.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
