#!/usr/bin/env python3
"""ClaimPublisher: publishes one claim JSON file to eai.claim with publisher confirms.

usage: publish.py <claim.json>
exit codes: 0 confirmed, 2 usage / bad file, 3 unroutable, 4 nacked by broker, 5 other AMQP error
"""
import json
import logging
import os
import sys

import pika

LOG = logging.getLogger("ClaimPublisher")


class ExitCode:
    OK = 0
    USAGE = 2
    UNROUTABLE = 3
    NACKED = 4
    AMQP_ERROR = 5


class AppConfig:
    DEFAULT_AMQP_URL = "amqp://guest:guest@127.0.0.1:5672/%2F"

    def __init__(self, env=os.environ):
        self.amqp_url = env.get("EAI_AMQP_URL", self.DEFAULT_AMQP_URL)
        self.exchange = env.get("EAI_CLAIM_EXCHANGE", "eai.claim")
        self.routing_key = env.get("EAI_CLAIM_ROUTING_KEY", "claim")
        self.log_level = env.get("EAI_LOG_LEVEL", "INFO").upper()


class ClaimPublisher:
    def __init__(self, config):
        self.config = config

    def publish(self, body, message_id):
        connection = pika.BlockingConnection(pika.URLParameters(self.config.amqp_url))
        try:
            channel = connection.channel()
            channel.confirm_delivery()
            properties = pika.BasicProperties(
                delivery_mode=pika.DeliveryMode.Persistent,
                message_id=message_id,
                content_type="application/json",
            )
            # with confirms on, this blocks until the broker acks, and raises otherwise
            channel.basic_publish(
                exchange=self.config.exchange,
                routing_key=self.config.routing_key,
                body=body,
                properties=properties,
                mandatory=True,
            )
        finally:
            if connection.is_open:
                connection.close()


def main(argv):
    config = AppConfig()
    logging.basicConfig(level=config.log_level, format="%(asctime)s %(levelname)s [%(name)s] %(message)s")
    logging.getLogger("pika").setLevel(logging.WARNING)
    if len(argv) != 2:
        LOG.error("usage: publish.py <claim.json>")
        return ExitCode.USAGE
    try:
        with open(argv[1], "rb") as f:
            body = f.read()  # the file as it is, byte for byte
        claim = json.loads(body)
        message_id = str(claim["guid"])
    except (OSError, ValueError, KeyError, TypeError) as e:
        LOG.error("cannot read claim %s: %r", argv[1], e)
        return ExitCode.USAGE
    try:
        ClaimPublisher(config).publish(body, message_id)
    except pika.exceptions.UnroutableError:
        LOG.error("claim %s was not routable (mandatory)", message_id)
        return ExitCode.UNROUTABLE
    except pika.exceptions.NackError:
        LOG.error("claim %s was nacked by the broker", message_id)
        return ExitCode.NACKED
    except pika.exceptions.AMQPError as e:
        LOG.error("publishing claim %s failed: %r", message_id, e)
        return ExitCode.AMQP_ERROR
    LOG.info("claim %s published and confirmed", message_id)
    return ExitCode.OK


if __name__ == "__main__":
    sys.exit(main(sys.argv))
