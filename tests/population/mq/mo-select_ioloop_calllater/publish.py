#!/usr/bin/env python3
"""Step 3: publish one claim file with publisher confirms + mandatory (async style).

Exit codes: 0 confirmed, 2 usage/file, 3 returned (unroutable), 4 nacked by the broker,
5 connection/channel trouble, 6 no confirm in time.
"""
import json
import os
import sys

import pika
from pika.adapters.select_connection import SelectConnection

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")


class OnePublish:
    def __init__(self, body, props):
        self.body = body
        self.props = props
        self.returned = False
        self.outcome = 5
        self.conn = None

    def run(self):
        self.conn = SelectConnection(
            pika.URLParameters(URL),
            on_open_callback=self.on_open,
            on_open_error_callback=self.on_open_error,
            on_close_callback=self.on_closed,
        )
        self.conn.ioloop.call_later(15, self.give_up)
        self.conn.ioloop.start()
        return self.outcome

    def on_open(self, conn):
        conn.channel(on_open_callback=self.on_channel)

    def on_open_error(self, conn, err):
        print(f"cannot connect: {err}", file=sys.stderr)
        self.conn.ioloop.stop()

    def on_closed(self, conn, reason):
        self.conn.ioloop.stop()

    def on_channel(self, ch):
        ch.add_on_close_callback(self.on_channel_closed)
        ch.add_on_return_callback(self.on_return)
        ch.confirm_delivery(ack_nack_callback=self.on_confirm, callback=lambda _frame: self.publish(ch))

    def on_channel_closed(self, ch, reason):
        print(f"channel closed: {reason}", file=sys.stderr)
        if self.conn.is_open:
            self.conn.close()

    def publish(self, ch):
        ch.basic_publish("eai.claim", "claim", self.body, self.props, mandatory=True)

    def on_return(self, ch, method, props, body):
        # basic.return comes before the basic.ack of the same message
        print(f"returned: {method.reply_code} {method.reply_text}", file=sys.stderr)
        self.returned = True

    def on_confirm(self, frame):
        if isinstance(frame.method, pika.spec.Basic.Ack):
            self.outcome = 3 if self.returned else 0
        else:
            print("broker nacked the message", file=sys.stderr)
            self.outcome = 4
        self.conn.close()

    def give_up(self):
        print("no confirm within 15s", file=sys.stderr)
        self.outcome = 6
        if self.conn.is_open:
            self.conn.close()
        else:
            self.conn.ioloop.stop()


def main():
    if len(sys.argv) != 2:
        print("usage: publish.py CLAIM.json", file=sys.stderr)
        return 2
    try:
        with open(sys.argv[1], "rb") as f:
            body = f.read()
        guid = json.loads(body)["guid"]
    except (OSError, ValueError, KeyError) as exc:
        print(f"bad claim file: {exc}", file=sys.stderr)
        return 2
    props = pika.BasicProperties(content_type="application/json", delivery_mode=2, message_id=guid)
    code = OnePublish(body, props).run()
    if code == 0:
        print(f"published {guid}")
    return code


if __name__ == "__main__":
    sys.exit(main())
