#!/usr/bin/env python3
import json
import sys

import pika

from mqcommon import open_channel


class Publisher:
    def __init__(self):
        self.conn, self.ch = open_channel()
        self.ch.confirm_delivery()

    def send(self, raw):
        guid = json.loads(raw)["guid"]
        self.ch.basic_publish(
            exchange="eai.claim", routing_key="claim", body=raw,
            properties=pika.BasicProperties(content_type="application/json",
                                            delivery_mode=2, message_id=guid),
            mandatory=True)
        return guid

    def close(self):
        if self.conn.is_open:
            self.conn.close()


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: publish.py CLAIM.json")
    raw = open(sys.argv[1], "rb").read()
    pub = Publisher()
    try:
        print("confirmed", pub.send(raw))
    except (pika.exceptions.UnroutableError, pika.exceptions.NackError) as e:
        print("not accepted by the broker:", type(e).__name__, file=sys.stderr)
        sys.exit(1)
    finally:
        pub.close()
