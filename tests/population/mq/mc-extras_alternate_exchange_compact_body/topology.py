#!/usr/bin/env python3
"""Topology of the claim flow.

    eai.claim (direct) --claim--> claim.in --(DLX eai.dlx, key claim.dead)--> claim.dead
Extra: eai.claim.inbox, a front door for other teams (exchange-bound into eai.claim), with an
alternate exchange eai.unrouted (fanout) -> claim.unrouted, so what they send with a wrong
key is parked instead of dropped.
Declarations are idempotent; running this again changes nothing."""
import os

import pika

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")


def declare(ch):
    ch.exchange_declare("eai.claim", "direct", durable=True)
    ch.exchange_declare("eai.dlx", "direct", durable=True)

    ch.queue_declare("claim.in", durable=True, arguments={
        "x-dead-letter-exchange": "eai.dlx",
        "x-dead-letter-routing-key": "claim.dead",
    })
    ch.queue_declare("claim.dead", durable=True)
    ch.queue_bind("claim.in", "eai.claim", routing_key="claim")
    ch.queue_bind("claim.dead", "eai.dlx", routing_key="claim.dead")

    # extras
    ch.exchange_declare("eai.unrouted", "fanout", durable=True)
    ch.queue_declare("claim.unrouted", durable=True)
    ch.queue_bind("claim.unrouted", "eai.unrouted")
    ch.exchange_declare("eai.claim.inbox", "direct", durable=True, arguments={"alternate-exchange": "eai.unrouted"})
    ch.exchange_bind(destination="eai.claim", source="eai.claim.inbox", routing_key="claim")


if __name__ == "__main__":
    conn = pika.BlockingConnection(pika.URLParameters(URL))
    declare(conn.channel())
    conn.close()
    print("topology ready")
