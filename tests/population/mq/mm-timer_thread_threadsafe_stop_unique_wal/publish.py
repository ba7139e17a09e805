"""Publish claim files: python3 publish.py claim.json [more.json ...]

Each file is sent as-is (the bytes of the file are the message body) to exchange eai.claim
with routing key claim, persistent, message_id = guid, content_type application/json.
Publisher confirms are on and every message is mandatory: if any file could not be
delivered (unroutable, or nacked by the broker) the exit code is non-zero.
"""
import json
import os
import sys

import pika
from pika.exceptions import NackError, UnroutableError


def main(paths):
    if not paths:
        print(__doc__, file=sys.stderr)
        return 2
    url = os.getenv("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
    connection = pika.BlockingConnection(pika.URLParameters(url))
    channel = connection.channel()
    channel.confirm_delivery()
    failed = 0
    for path in paths:
        with open(path, "rb") as fh:
            body = fh.read()
        guid = json.loads(body.decode("utf-8"))["guid"]
        props = pika.BasicProperties(content_type="application/json", delivery_mode=2, message_id=guid)
        try:
            channel.basic_publish("eai.claim", "claim", body, props, mandatory=True)
            print("OK      %s  %s" % (guid, path))
        except UnroutableError:
            print("UNROUTABLE %s  %s" % (guid, path), file=sys.stderr)
            failed += 1
        except NackError:
            print("NACKED  %s  %s" % (guid, path), file=sys.stderr)
            failed += 1
    connection.close()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
