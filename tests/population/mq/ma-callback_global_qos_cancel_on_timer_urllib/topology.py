import os

import pika


def declare_all(ch):
    ch.exchange_declare("eai.claim", "direct", durable=True)
    ch.exchange_declare("eai.dlx", "direct", durable=True)
    ch.queue_declare("claim.in", durable=True,
                     arguments={"x-dead-letter-exchange": "eai.dlx",
                                "x-dead-letter-routing-key": "claim.dead"})
    ch.queue_declare("claim.dead", durable=True)
    ch.queue_bind(queue="claim.in", exchange="eai.claim", routing_key="claim")
    ch.queue_bind(queue="claim.dead", exchange="eai.dlx", routing_key="claim.dead")


if __name__ == "__main__":
    conn = pika.BlockingConnection(pika.URLParameters(
        os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
    declare_all(conn.channel())
    conn.close()
    print("topology declared")
