#!/usr/bin/env python3
import json
import os
import sys
import pika

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")


def main():
    path = sys.argv[1]
    with open(path, "rb") as f:
        body = f.read()
    claim = json.loads(body)

    conn = pika.BlockingConnection(pika.URLParameters(URL))
    ch = conn.channel()
    ch.confirm_delivery()
    props = pika.BasicProperties(
        delivery_mode=2,
        message_id=claim["guid"],
        content_type="application/json",
    )
    try:
        ch.basic_publish("eai.claim", "claim", body, properties=props, mandatory=True)
    except pika.exceptions.UnroutableError:
        print("unroutable!", file=sys.stderr)
        return 1
    except pika.exceptions.NackError:
        print("nacked!", file=sys.stderr)
        return 1
    finally:
        conn.close()
    print("sent", claim["guid"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
