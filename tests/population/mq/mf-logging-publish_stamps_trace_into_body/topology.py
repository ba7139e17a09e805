#!/usr/bin/env python3
"""topology.py -- exit 0 ok, 10 cannot connect, 11 declaration refused by the broker."""
import os
import sys

import pika

from common_log import redact, setup

log = setup("topology")
URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

EXIT_OK, EXIT_CONNECT, EXIT_DECLARE = 0, 10, 11


def main():
    log.info("connecting to %s", redact(URL))
    try:
        conn = pika.BlockingConnection(pika.URLParameters(URL))
    except pika.exceptions.AMQPConnectionError as exc:
        log.error("cannot connect: %r", exc)
        return EXIT_CONNECT
    try:
        ch = conn.channel()
        for name in ("eai.claim", "eai.dlx"):
            ch.exchange_declare(exchange=name, exchange_type="direct", durable=True)
            log.info("exchange %s (direct, durable) ok", name)
        args = {"x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"}
        ok = ch.queue_declare(queue="claim.in", durable=True, arguments=args)
        log.info("queue claim.in ok, %d message(s) waiting, args=%s", ok.method.message_count, args)
        ok = ch.queue_declare(queue="claim.dead", durable=True)
        log.info("queue claim.dead ok, %d message(s) waiting", ok.method.message_count)
        ch.queue_bind(queue="claim.in", exchange="eai.claim", routing_key="claim")
        log.info("binding eai.claim -> claim.in [claim] ok")
        ch.queue_bind(queue="claim.dead", exchange="eai.dlx", routing_key="claim.dead")
        log.info("binding eai.dlx -> claim.dead [claim.dead] ok")
    except pika.exceptions.ChannelClosedByBroker as exc:
        log.error("broker refused a declaration: %s %s", exc.reply_code, exc.reply_text)
        return EXIT_DECLARE
    finally:
        if conn.is_open:
            conn.close()
    log.info("topology complete")
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
