#!/usr/bin/env python3
# topology.py : gyohwangi(교환기) 2, kyu(큐) 2, bainding(바인딩) 2
import os

import pika

jeopsok_juso = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

yeongyeol = pika.BlockingConnection(pika.URLParameters(jeopsok_juso))
chaeneol = yeongyeol.channel()

# gyohwangi
chaeneol.exchange_declare(exchange="eai.claim", exchange_type="direct", durable=True)
chaeneol.exchange_declare(exchange="eai.dlx", exchange_type="direct", durable=True)

# kyu
chaeneol.queue_declare(
    queue="claim.in",
    durable=True,
    arguments={
        "x-dead-letter-exchange": "eai.dlx",
        "x-dead-letter-routing-key": "claim.dead",
    },
)
chaeneol.queue_declare(queue="claim.dead", durable=True)

# bainding
chaeneol.queue_bind(queue="claim.in", exchange="eai.claim", routing_key="claim")
chaeneol.queue_bind(queue="claim.dead", exchange="eai.dlx", routing_key="claim.dead")

yeongyeol.close()
print("topolloji seoneon wallyo (토폴로지 선언 완료)")
