#!/usr/bin/env python3
import argparse
import json
import logging
import os
import sys

import pika

logger = logging.getLogger("eai.mq.Publisher")


class PublishException(Exception):
    pass


class Publisher(object):
    def __init__(self, url, exchange="eai.claim", routing_key="claim"):
        self.url = url
        self.exchange = exchange
        self.routing_key = routing_key

    def publish_file(self, path):
        with open(path, "rb") as stream:
            payload = stream.read()
        document = json.loads(payload.decode("utf-8"))
        guid = document.get("guid") if isinstance(document, dict) else None
        if not guid:
            raise PublishException("no guid in " + path)
        with pika.BlockingConnection(pika.URLParameters(self.url)) as connection:
            channel = connection.channel()
            channel.confirm_delivery()
            try:
                channel.basic_publish(
                    exchange=self.exchange,
                    routing_key=self.routing_key,
                    body=payload,
                    properties=pika.BasicProperties(
                        content_type="application/json",
                        delivery_mode=2,
                        message_id=str(guid),
                    ),
                    mandatory=True,
                )
            except pika.exceptions.UnroutableError:
                raise PublishException("unroutable: no queue bound to %s/%s" % (self.exchange, self.routing_key))
            except pika.exceptions.NackError:
                raise PublishException("nacked by the broker")
        return guid


def main():
    parser = argparse.ArgumentParser(description="publish a claim JSON file to eai.claim")
    parser.add_argument("claim_file")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("pika").setLevel(logging.WARNING)
    url = os.environ.get("EAI_AMQP_URL") or "amqp://guest:guest@127.0.0.1:5672/%2F"
    try:
        guid = Publisher(url).publish_file(args.claim_file)
    except (PublishException, ValueError, OSError, pika.exceptions.AMQPError) as e:
        logger.error("publish failed: %s", e)
        return 1
    logger.info("published %s (confirmed)", guid)
    return 0


if __name__ == "__main__":
    sys.exit(main())
