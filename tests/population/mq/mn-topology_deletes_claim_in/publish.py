"""Step 3: python3 publish.py CLAIM_JSON_FILE"""
import json
import os
import sys

import pika

url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")


def main():
    if len(sys.argv) < 2:
        print("usage: publish.py CLAIM_JSON_FILE")
        return 2
    with open(sys.argv[1], "rb") as f:
        body = f.read()
    guid = json.loads(body)["guid"]

    conn = pika.BlockingConnection(pika.URLParameters(url))
    ch = conn.channel()
    ch.confirm_delivery()
    props = pika.BasicProperties(delivery_mode=2, message_id=guid, content_type="application/json")
    try:
        ch.basic_publish(exchange="eai.claim", routing_key="claim", body=body, properties=props, mandatory=True)
    except pika.exceptions.UnroutableError:
        print("message was returned: unroutable")
        return 1
    except pika.exceptions.NackError:
        print("broker refused the message (nack)")
        return 1
    finally:
        conn.close()
    print("published", guid)
    return 0


if __name__ == "__main__":
    sys.exit(main())
