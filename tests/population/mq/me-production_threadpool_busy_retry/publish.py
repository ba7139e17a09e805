"""publish.py CLAIM_JSON_FILE: publish one claim; exit 0 only when the broker confirmed it."""
import json
import logging
import os
import sys

import pika
import pika.exceptions

log = logging.getLogger("publish")

EXIT_OK, EXIT_USAGE, EXIT_UNROUTABLE, EXIT_NACKED, EXIT_BROKER = 0, 64, 65, 66, 69


def main(argv):
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    if len(argv) != 2:
        log.error("usage: publish.py CLAIM_JSON_FILE")
        return EXIT_USAGE
    with open(argv[1], "rb") as fh:
        body = fh.read()
    guid = json.loads(body)["guid"]
    url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
    props = pika.BasicProperties(
        content_type="application/json",
        delivery_mode=pika.DeliveryMode.Persistent,
        message_id=guid,
        headers={"x-producer": "publish.py", "x-schema": "claim/v1"},
    )
    try:
        with pika.BlockingConnection(pika.URLParameters(url)) as connection:
            channel = connection.channel()
            channel.confirm_delivery()
            channel.basic_publish("eai.claim", "claim", body, props, mandatory=True)
    except pika.exceptions.UnroutableError:
        log.error("claim %s unroutable: no queue bound for key 'claim' on eai.claim", guid)
        return EXIT_UNROUTABLE
    except pika.exceptions.NackError:
        log.error("claim %s nacked by the broker", guid)
        return EXIT_NACKED
    except pika.exceptions.AMQPError as exc:
        log.error("broker problem while publishing %s: %r", guid, exc)
        return EXIT_BROKER
    log.info("claim %s confirmed", guid)
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main(sys.argv))
