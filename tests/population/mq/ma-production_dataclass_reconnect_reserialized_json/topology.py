"""Declare exchanges, queues and bindings for the claim flow (idempotent)."""
from __future__ import annotations

import argparse
import logging
import sys
from dataclasses import dataclass, field

from amqp_common import connect, setup_logging

log = logging.getLogger("eai.mq.topology")


@dataclass(frozen=True)
class Exchange:
    name: str
    kind: str = "direct"
    durable: bool = True


@dataclass(frozen=True)
class Queue:
    name: str
    durable: bool = True
    arguments: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Binding:
    exchange: str
    queue: str
    routing_key: str


EXCHANGES = (Exchange("eai.claim"), Exchange("eai.dlx"))
QUEUES = (
    Queue("claim.in", arguments={"x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"}),
    Queue("claim.dead"),
)
BINDINGS = (Binding("eai.claim", "claim.in", "claim"), Binding("eai.dlx", "claim.dead", "claim.dead"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--log-level", default="WARNING")
    args = parser.parse_args(argv)
    setup_logging(args.log_level)

    connection = connect()
    try:
        channel = connection.channel()
        for ex in EXCHANGES:
            channel.exchange_declare(exchange=ex.name, exchange_type=ex.kind, durable=ex.durable)
            log.info("exchange %s (%s, durable=%s)", ex.name, ex.kind, ex.durable)
        for q in QUEUES:
            ok = channel.queue_declare(queue=q.name, durable=q.durable, arguments=q.arguments or None)
            log.info("queue %s durable=%s args=%s (%d waiting)", q.name, q.durable, q.arguments, ok.method.message_count)
        for b in BINDINGS:
            channel.queue_bind(queue=b.queue, exchange=b.exchange, routing_key=b.routing_key)
            log.info("binding %s -> %s [%s]", b.exchange, b.queue, b.routing_key)
    finally:
        connection.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
