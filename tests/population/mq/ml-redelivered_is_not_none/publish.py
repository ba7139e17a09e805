"""publish.py <claim.json>: publish with confirms + mandatory; non-zero exit when not confirmed."""
import json
import os
import sys

import pika

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")


def main(argv):
    if len(argv) != 1:
        print("usage: publish.py <claim.json>", file=sys.stderr)
        return 2
    raw = open(argv[0], "rb").read()
    guid = json.loads(raw)["guid"]
    conn = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    ch = conn.channel()
    ch.confirm_delivery()
    props = pika.BasicProperties(delivery_mode=2, message_id=guid, content_type="application/json",
                                 priority=0, headers={"x-origin": os.path.basename(argv[0])})
    try:
        ch.basic_publish("eai.claim", "claim", raw, props, mandatory=True)
    except (pika.exceptions.UnroutableError, pika.exceptions.NackError) as e:
        print(f"not confirmed: {type(e).__name__}", file=sys.stderr)
        conn.close()
        return 1
    conn.close()
    print(guid)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
