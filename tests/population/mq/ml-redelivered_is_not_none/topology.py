"""topology.py -- exchanges, queues, bindings for the claim flow (declare = ensure; rerunnable)."""
import os

import pika

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

DLX_ARGS = {"x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"}


def main():
    conn = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    ch = conn.channel()
    ch.exchange_declare("eai.claim", "direct", durable=True)
    ch.exchange_declare("eai.dlx", "direct", durable=True)
    # parking lot for claims ops pulls out of claim.dead by hand (not used by the scripts)
    ch.queue_declare("claim.parked", durable=True, arguments={"x-queue-mode": "lazy"})
    ch.queue_declare("claim.in", durable=True, arguments=DLX_ARGS)
    ch.queue_declare("claim.dead", durable=True, arguments={"x-queue-mode": "lazy"})
    ch.queue_bind("claim.in", "eai.claim", "claim")
    ch.queue_bind("claim.dead", "eai.dlx", "claim.dead")
    conn.close()
    print("ok")


if __name__ == "__main__":
    main()
