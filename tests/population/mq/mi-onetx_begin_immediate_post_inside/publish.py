import json
import os
import sys

import pika

url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")


def main():
    if len(sys.argv) < 2:
        print("usage: python3 publish.py claim.json", file=sys.stderr)
        return 2
    with open(sys.argv[1], "rb") as f:
        body = f.read()
    guid = json.loads(body)["guid"]

    connection = pika.BlockingConnection(pika.URLParameters(url))
    channel = connection.channel()
    channel.confirm_delivery()
    rc = 0
    try:
        channel.basic_publish(exchange="eai.claim", routing_key="claim", body=body,
                              properties=pika.BasicProperties(delivery_mode=2,
                                                              message_id=guid,
                                                              content_type="application/json"),
                              mandatory=True)
        print("confirmed", guid)
    except (pika.exceptions.UnroutableError, pika.exceptions.NackError) as e:
        print("NOT delivered:", repr(e), file=sys.stderr)
        rc = 1
    connection.close()
    return rc


if __name__ == "__main__":
    sys.exit(main())
