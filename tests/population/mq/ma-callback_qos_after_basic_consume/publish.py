import json
import os
import sys

import pika

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")


def main(path):
    with open(path, "rb") as f:
        body = f.read()
    guid = json.loads(body)["guid"]
    conn = pika.BlockingConnection(pika.URLParameters(URL))
    ch = conn.channel()
    ch.confirm_delivery()
    try:
        ch.basic_publish("eai.claim", "claim", body,
                         pika.BasicProperties(delivery_mode=2, message_id=guid,
                                              content_type="application/json"),
                         mandatory=True)
    except (pika.exceptions.UnroutableError, pika.exceptions.NackError) as e:
        print("publish failed:", type(e).__name__, e, file=sys.stderr)
        return 1
    finally:
        conn.close()
    print("published", guid)
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: publish.py CLAIM_JSON_FILE")
    sys.exit(main(sys.argv[1]))
