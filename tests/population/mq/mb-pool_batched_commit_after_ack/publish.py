import json
import os
import sys

import pika
from pika.exceptions import NackError, UnroutableError


def main(argv):
    if len(argv) != 1:
        print("usage: publish.py CLAIM_JSON_FILE", file=sys.stderr)
        return 2
    payload = open(argv[0], "rb").read()
    guid = json.loads(payload)["guid"]
    conn = pika.BlockingConnection(pika.URLParameters(
        os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
    try:
        ch = conn.channel()
        ch.confirm_delivery()
        ch.basic_publish("eai.claim", "claim", payload,
                         pika.BasicProperties(delivery_mode=2, message_id=guid,
                                              content_type="application/json"),
                         mandatory=True)
    except UnroutableError:
        print("not routed:", guid, file=sys.stderr)
        return 1
    except NackError:
        print("nacked:", guid, file=sys.stderr)
        return 1
    finally:
        conn.close()
    print("confirmed:", guid)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
