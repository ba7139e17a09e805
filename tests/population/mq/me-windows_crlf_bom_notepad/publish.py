# -*- coding: utf-8 -*-
# Step 3 - publish one claim file. Usage: python publish.py path\to\claim.json
import json
import os
import sys
from pathlib import Path

import pika
from pika.exceptions import NackError, UnroutableError

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
BOM = b"\xef\xbb\xbf"


def read_claim(path):
    data = Path(path).read_bytes()
    # Files saved by Notepad start with a BOM; the broker should get the JSON only.
    if data.startswith(BOM):
        data = data[len(BOM):]
    claim = json.loads(data.decode("utf-8"))
    return data, claim


def main():
    if len(sys.argv) < 2:
        print("Usage: publish.py CLAIM_JSON_FILE")
        return 1
    body, claim = read_claim(sys.argv[1])
    guid = claim["guid"]

    connection = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    channel = connection.channel()
    channel.confirm_delivery()
    props = pika.BasicProperties(
        content_type="application/json",
        delivery_mode=2,
        message_id=guid,
    )
    try:
        channel.basic_publish(
            exchange="eai.claim", routing_key="claim", body=body, properties=props, mandatory=True
        )
    except UnroutableError:
        print("ERROR: message could not be routed")
        connection.close()
        return 4
    except NackError:
        print("ERROR: broker did not accept the message (nack)")
        connection.close()
        return 5
    connection.close()
    print("Published and confirmed: " + guid)
    return 0


if __name__ == "__main__":
    sys.exit(main())
