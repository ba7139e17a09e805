import json
import os
import sys

import pika
import pika.exceptions as pe

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")


def publish(path):
    raw = open(path, "rb").read()
    msg_id = json.loads(raw)["guid"]
    conn = pika.BlockingConnection(pika.URLParameters(URL))
    try:
        ch = conn.channel()
        ch.confirm_delivery()
        ch.basic_publish(exchange="eai.claim", routing_key="claim", body=raw, mandatory=True,
                         properties=pika.BasicProperties(message_id=msg_id,
                                                         content_type="application/json",
                                                         delivery_mode=2))
        return msg_id
    finally:
        if conn.is_open:
            conn.close()


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: publish.py CLAIM_JSON_FILE")
    try:
        print("published+confirmed", publish(sys.argv[1]))
    except (pe.UnroutableError, pe.NackError) as e:
        sys.exit(f"not confirmed: {type(e).__name__}")
