import json
import os
import sys

import pika
from pika.exceptions import NackError, UnroutableError


def main():
    if len(sys.argv) != 2:
        print("usage: python3 publish.py CLAIM_JSON_FILE", file=sys.stderr)
        return 2
    with open(sys.argv[1], "rb") as f:
        body = f.read()
    guid = json.loads(body)["guid"]
    url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
    conn = pika.BlockingConnection(pika.URLParameters(url))
    ch = conn.channel()
    ch.confirm_delivery()
    rc = 0
    try:
        ch.basic_publish("eai.claim", "claim", body,
                         pika.BasicProperties(delivery_mode=2, message_id=guid,
                                              content_type="application/json"),
                         mandatory=True)
        print("published", guid)
    except UnroutableError:
        print("unroutable", guid, file=sys.stderr)
        rc = 1
    except NackError:
        print("nacked", guid, file=sys.stderr)
        rc = 1
    conn.close()
    return rc


if __name__ == "__main__":
    sys.exit(main())
