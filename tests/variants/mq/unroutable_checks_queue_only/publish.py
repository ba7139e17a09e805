#!/usr/bin/env python3
"""publish.py CLAIM_JSON_FILE: 받을 큐(claim.in)가 있는지 먼저 보고, 발행 확인을 받으며 보낸다."""

import json
import os
import sys

import pika
from pika.exceptions import ChannelClosedByBroker, NackError

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")


def main(path):
    with open(path, "rb") as f:
        body = f.read()
    guid = json.loads(body)["guid"]
    connection = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    try:
        channel = connection.channel()
        try:
            channel.queue_declare("claim.in", passive=True)  # 받을 큐가 없으면 404
        except ChannelClosedByBroker:
            print("claim.in 이 없음: 보낼 곳이 없다", file=sys.stderr)
            return 1
        channel = connection.channel()
        channel.confirm_delivery()
        try:
            channel.basic_publish(
                "eai.claim",
                "claim",
                body,
                pika.BasicProperties(delivery_mode=2, message_id=guid, content_type="application/json"),
            )
        except NackError:
            print("브로커가 nack", file=sys.stderr)
            return 1
    finally:
        if connection.is_open:
            connection.close()
    print("confirmed", guid)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
