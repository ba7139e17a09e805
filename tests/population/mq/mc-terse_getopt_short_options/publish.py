import json
import os
import sys
import pika


def main():
    if len(sys.argv) != 2:
        print("usage: python3 publish.py claim.json")
        return 2
    raw = open(sys.argv[1], "rb").read()
    guid = json.loads(raw)["guid"]
    c = pika.BlockingConnection(pika.URLParameters(os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
    ch = c.channel()
    ch.confirm_delivery()
    try:
        ch.basic_publish("eai.claim", "claim", raw,
                         pika.BasicProperties(content_type="application/json", delivery_mode=2, message_id=guid),
                         mandatory=True)
        print("confirmed", guid)
        return 0
    except pika.exceptions.UnroutableError:
        print("unroutable", guid)
        return 1
    except pika.exceptions.NackError:
        print("nacked", guid)
        return 1
    finally:
        c.close()


sys.exit(main())
