from __future__ import annotations

import os

import pika

URL: str = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

DLX_ARGS: dict[str, str] = {
    "x-dead-letter-exchange": "eai.dlx",
    "x-dead-letter-routing-key": "claim.dead",
}


def declare(ch: pika.adapters.blocking_connection.BlockingChannel) -> None:
    ch.exchange_declare("eai.claim", exchange_type="direct", durable=True)
    ch.exchange_declare("eai.dlx", exchange_type="direct", durable=True)
    ch.queue_declare("claim.in", durable=True, arguments=DLX_ARGS)
    ch.queue_declare("claim.dead", durable=True)
    ch.queue_bind("claim.in", "eai.claim", routing_key="claim")
    ch.queue_bind("claim.dead", "eai.dlx", routing_key="claim.dead")


if __name__ == "__main__":
    conn = pika.BlockingConnection(pika.URLParameters(URL))
    try:
        declare(conn.channel())
    finally:
        conn.close()
