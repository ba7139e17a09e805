#!/usr/bin/env python3
# 2단계: 토폴로지 선언. 같은 속성으로 다시 선언하면 아무 일도 없으므로 두 번 돌려도 된다.
import logging
import os

import pika

logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
logging.getLogger("pika").setLevel(logging.WARNING)
log = logging.getLogger("topology")

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

conn = pika.BlockingConnection(pika.URLParameters(URL))
ch = conn.channel()

ch.exchange_declare(exchange="eai.claim", exchange_type="direct", durable=True)
ch.exchange_declare(exchange="eai.dlx", exchange_type="direct", durable=True)
log.info("교환기 2개 OK")

ch.queue_declare(
    queue="claim.in",
    durable=True,
    arguments={
        "x-dead-letter-exchange": "eai.dlx",
        "x-dead-letter-routing-key": "claim.dead",
    },
)
ch.queue_declare(queue="claim.dead", durable=True)
log.info("큐 2개 OK")

ch.queue_bind(exchange="eai.claim", queue="claim.in", routing_key="claim")
ch.queue_bind(exchange="eai.dlx", queue="claim.dead", routing_key="claim.dead")
log.info("바인딩 2개 OK")

conn.close()
