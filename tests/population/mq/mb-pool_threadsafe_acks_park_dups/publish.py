#!/usr/bin/env python3
"""publish.py CLAIM_JSON_FILE [CLAIM_JSON_FILE ...]: one confirmed publish per file.
Exit status = number of files that were not confirmed (0 = all confirmed)."""
import json
import os
import sys

import pika
from pika.exceptions import NackError, UnroutableError


def main(files):
    if not files:
        print(__doc__, file=sys.stderr)
        return 2
    params = pika.URLParameters(os.environ.get("EAI_AMQP_URL",
                                               "amqp://guest:guest@127.0.0.1:5672/%2F"))
    failed = 0
    with pika.BlockingConnection(params) as connection:
        channel = connection.channel()
        channel.confirm_delivery()
        for path in files:
            with open(path, "rb") as f:
                body = f.read()
            guid = json.loads(body)["guid"]
            props = pika.BasicProperties(delivery_mode=2, message_id=guid,
                                         content_type="application/json")
            try:
                channel.basic_publish("eai.claim", "claim", body, props, mandatory=True)
                print(f"confirmed {guid} <- {path}")
            except UnroutableError:
                print(f"UNROUTABLE {guid} <- {path}", file=sys.stderr)
                failed += 1
            except NackError:
                print(f"NACKED {guid} <- {path}", file=sys.stderr)
                failed += 1
    return min(failed, 100)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
