#!/usr/bin/env python3
"""publish.py CLAIM_JSON_FILE

exit codes: 0 confirmed, 2 usage, 3 unreadable/invalid claim file, 10 cannot connect,
            20 unroutable (returned), 21 nacked by the broker
"""
import datetime
import json
import os
import socket
import sys

import pika

from common_log import redact, setup

log = setup("publish")
URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

EXIT_OK, EXIT_USAGE, EXIT_BADFILE, EXIT_CONNECT = 0, 2, 3, 10
EXIT_UNROUTABLE, EXIT_NACKED = 20, 21


def main(argv):
    if len(argv) != 1:
        log.error("usage: publish.py CLAIM_JSON_FILE")
        return EXIT_USAGE
    path = argv[0]
    try:
        with open(path, encoding="utf-8") as fh:
            claim = json.load(fh)
        guid = claim["guid"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        log.error("cannot use %s: %r", path, exc)
        return EXIT_BADFILE

    # trace fields so the consumer's log lines can be matched to this publish
    claim["_trace"] = {
        "publishedAt": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds"),
        "host": socket.gethostname(),
    }
    body = json.dumps(claim, ensure_ascii=False).encode("utf-8")
    log.info("claim %s (%s) from %s, %d bytes", guid, claim.get("claimId"), path, len(body))

    try:
        conn = pika.BlockingConnection(pika.URLParameters(URL))
    except pika.exceptions.AMQPConnectionError as exc:
        log.error("cannot connect to %s: %r", redact(URL), exc)
        return EXIT_CONNECT
    try:
        ch = conn.channel()
        ch.confirm_delivery()
        log.debug("publisher confirms on")
        ch.basic_publish(
            exchange="eai.claim",
            routing_key="claim",
            body=body,
            properties=pika.BasicProperties(
                delivery_mode=2, message_id=guid, content_type="application/json"),
            mandatory=True,
        )
    except pika.exceptions.UnroutableError:
        log.error("message %s returned: no queue bound to eai.claim for key 'claim'", guid)
        return EXIT_UNROUTABLE
    except pika.exceptions.NackError:
        log.error("message %s nacked by the broker", guid)
        return EXIT_NACKED
    finally:
        if conn.is_open:
            conn.close()
    log.info("message %s confirmed by the broker", guid)
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
