"""Step 3: publish.py CLAIM_JSON_FILE"""
import json
import os
import sys

import pika


def main():
    path = sys.argv[1]
    with open(path, "rb") as f:
        body = f.read()
    guid = json.loads(body)["guid"]

    url = os.getenv("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
    connection = pika.BlockingConnection(pika.URLParameters(url))
    channel = connection.channel()
    channel.confirm_delivery()
    props = pika.BasicProperties(delivery_mode=2, message_id=guid, content_type="application/json")
    try:
        channel.basic_publish(exchange="eai.claim", routing_key="claim", body=body, properties=props, mandatory=True)
    except pika.exceptions.UnroutableError:
        print("message was returned: unroutable", file=sys.stderr)
        return 1
    except pika.exceptions.NackError:
        print("broker did not confirm the message", file=sys.stderr)
        return 1
    finally:
        connection.close()
    print("published", guid)
    return 0


if __name__ == "__main__":
    sys.exit(main())
