# -*- coding: utf-8 -*-
# Step 2 - topology (run it twice: nothing changes the second time)
import os

import pika

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")


def main():
    params = pika.URLParameters(AMQP_URL)
    connection = pika.BlockingConnection(params)
    channel = connection.channel()

    channel.exchange_declare(exchange="eai.claim", exchange_type="direct", durable=True)
    channel.exchange_declare(exchange="eai.dlx", exchange_type="direct", durable=True)

    dlx_args = {}
    dlx_args["x-dead-letter-exchange"] = "eai.dlx"
    dlx_args["x-dead-letter-routing-key"] = "claim.dead"
    channel.queue_declare(queue="claim.in", durable=True, arguments=dlx_args)
    channel.queue_declare(queue="claim.dead", durable=True)

    channel.queue_bind(queue="claim.in", exchange="eai.claim", routing_key="claim")
    channel.queue_bind(queue="claim.dead", exchange="eai.dlx", routing_key="claim.dead")

    connection.close()
    print("Topology declared.")


if __name__ == "__main__":
    main()
