#!/usr/bin/env python3
"""Applies topology.json (next to this script) to the broker at EAI_AMQP_URL.

Same idea as a RabbitMQ definitions file, but through AMQP declares, which are idempotent.
"""
import json
import logging
import os
import sys

import pika

LOGGER = logging.getLogger("topology")
DEFINITIONS = os.environ.get(
    "EAI_TOPOLOGY_FILE", os.path.join(os.path.dirname(os.path.abspath(__file__)), "topology.json")
)


class DefinitionsApplier:
    def __init__(self, url, definitions):
        self.url = url
        self.definitions = definitions

    def apply(self):
        connection = pika.BlockingConnection(pika.URLParameters(self.url))
        try:
            channel = connection.channel()
            for exchange in self.definitions["exchanges"]:
                channel.exchange_declare(
                    exchange=exchange["name"], exchange_type=exchange["type"], durable=exchange["durable"]
                )
                LOGGER.info("exchange %-10s ok", exchange["name"])
            for queue in self.definitions["queues"]:
                channel.queue_declare(
                    queue=queue["name"], durable=queue["durable"], arguments=queue.get("arguments") or None
                )
                LOGGER.info("queue    %-10s ok", queue["name"])
            for binding in self.definitions["bindings"]:
                channel.queue_bind(
                    queue=binding["destination"], exchange=binding["source"], routing_key=binding["routing_key"]
                )
                LOGGER.info("binding  %s -> %s [%s] ok", binding["source"], binding["destination"], binding["routing_key"])
        finally:
            if connection.is_open:
                connection.close()


def main():
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    logging.getLogger("pika").setLevel(logging.WARNING)
    url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
    with open(DEFINITIONS, encoding="utf-8") as f:
        definitions = json.load(f)
    try:
        DefinitionsApplier(url, definitions).apply()
    except pika.exceptions.AMQPError as e:
        LOGGER.error("topology failed: %r", e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
