import json
import sys

import pika

import settings
from common import open_channel


def main():
    path = sys.argv[1]
    with open(path, "rb") as f:
        body = f.read()
    guid = json.loads(body)["guid"]
    conn, ch = open_channel()
    ch.confirm_delivery()
    try:
        ch.basic_publish(settings.EXCHANGE, settings.ROUTING_KEY, body,
                         properties=pika.BasicProperties(delivery_mode=2, message_id=guid,
                                                         content_type="application/json"),
                         mandatory=True)
    except (pika.exceptions.UnroutableError, pika.exceptions.NackError) as e:
        print(f"publish failed: {e!r}", file=sys.stderr)
        return 1
    finally:
        conn.close()
    print(f"published {guid}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
