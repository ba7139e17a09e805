import json
import os
import sys

import pika


def on_return(ch, method, props, body):
    # mandatory + no binding: the broker hands it back before the confirm
    print(f"returned by broker: {method.reply_code} {method.reply_text}", file=sys.stderr)


def main():
    if len(sys.argv) < 2:
        print("usage: publish.py CLAIM_JSON_FILE", file=sys.stderr)
        return 2
    raw = open(sys.argv[1], "rb").read()
    guid = json.loads(raw)["guid"]
    conn = pika.BlockingConnection(pika.URLParameters(
        os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
    ch = conn.channel()
    ch.add_on_return_callback(on_return)
    ch.confirm_delivery()
    rc = 0
    try:
        ch.basic_publish("eai.claim", "claim", raw,
                         properties=pika.BasicProperties(content_type="application/json",
                                                         delivery_mode=2, message_id=guid),
                         mandatory=True)
        print(f"{guid} confirmed")
    except pika.exceptions.UnroutableError as e:
        print(f"{guid} unroutable: {e}", file=sys.stderr)
        rc = 10
    except pika.exceptions.NackError as e:
        print(f"{guid} nacked: {e}", file=sys.stderr)
        rc = 11
    conn.close()
    return rc


sys.exit(main())
