#!/usr/bin/env python3
# publish.py CLAIM_JSON_FILE
# exit 0 = confirmed by the broker, 1 = usage/file problem, 2 = unroutable, 3 = nacked
import json
import os
import sys

import pika
import pika.exceptions

if len(sys.argv) != 2:
    sys.exit("usage: publish.py CLAIM_JSON_FILE")

try:
    with open(sys.argv[1], "rb") as fh:
        payload = fh.read()
    guid = json.loads(payload)["guid"]
except (OSError, ValueError, KeyError) as err:
    sys.exit(f"cannot use {sys.argv[1]}: {err!r}")

url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
connection = pika.BlockingConnection(pika.URLParameters(url))
channel = connection.channel()
channel.confirm_delivery()

properties = pika.BasicProperties(
    content_type="application/json",
    content_encoding="utf-8",
    delivery_mode=2,
    message_id=str(guid),
)

code = 0
try:
    channel.basic_publish(
        exchange="eai.claim",
        routing_key="claim",
        body=payload,
        properties=properties,
        mandatory=True,
    )
except pika.exceptions.UnroutableError:
    print(f"{guid}: unroutable, nobody is bound for 'claim' on eai.claim", file=sys.stderr)
    code = 2
except pika.exceptions.NackError:
    print(f"{guid}: the broker refused the message (nack)", file=sys.stderr)
    code = 3
else:
    print(f"{guid}: confirmed")
finally:
    connection.close()
sys.exit(code)
