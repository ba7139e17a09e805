import json
import sys

import pika

import common


def main():
    if len(sys.argv) < 2:
        print("usage: publish.py CLAIM_JSON_FILE", file=sys.stderr)
        return 2
    body = open(sys.argv[1], "rb").read()
    guid = json.loads(body)["guid"]
    conn, ch = common.channel()
    ch.confirm_delivery()
    try:
        ch.basic_publish(common.EXCHANGE, "claim", body,
                         pika.BasicProperties(delivery_mode=pika.DeliveryMode.Persistent,
                                              message_id=guid, content_type="application/json"),
                         mandatory=True)
    except (pika.exceptions.UnroutableError, pika.exceptions.NackError) as exc:
        print("not accepted by the broker:", type(exc).__name__, file=sys.stderr)
        return 1
    finally:
        conn.close()
    print("ok", guid)
    return 0


if __name__ == "__main__":
    sys.exit(main())
