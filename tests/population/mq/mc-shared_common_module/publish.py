"""publish.py CLAIM_JSON_FILE: publish one claim with publisher confirms."""
import json
import sys

import pika
from pika.exceptions import NackError, UnroutableError

import config
from common import connect, log


def publish(path):
    with open(path, "rb") as f:
        body = f.read()
    claim = json.loads(body)
    props = pika.BasicProperties(
        content_type="application/json",
        delivery_mode=pika.DeliveryMode.Persistent,
        message_id=claim["guid"],
    )
    conn = connect()
    try:
        ch = conn.channel()
        ch.confirm_delivery()
        ch.basic_publish(config.EXCHANGE, config.ROUTING_KEY, body, properties=props, mandatory=True)
    finally:
        if conn.is_open:
            conn.close()
    return claim["guid"]


def main(argv):
    if len(argv) != 2:
        print("usage: publish.py CLAIM_JSON_FILE", file=sys.stderr)
        return 2
    try:
        guid = publish(argv[1])
    except UnroutableError:
        log.error("unroutable: nothing bound to %s with key %s", config.EXCHANGE, config.ROUTING_KEY)
        return 3
    except NackError:
        log.error("broker refused (nack) the message")
        return 4
    log.info("confirmed %s", guid)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
