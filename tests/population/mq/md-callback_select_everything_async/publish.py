#!/usr/bin/env python3
"""publish.py CLAIM.json -- publish one claim to eai.claim/claim.

Async version: confirm mode + mandatory on a SelectConnection.  For an
unroutable mandatory message RabbitMQ sends basic.return *before* the
basic.ack, so we remember the return and fail when the ack comes in.
Exit 0 only for "acked and not returned".
"""
import json
import os
import sys

import pika

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
EXCHANGE = "eai.claim"
ROUTING_KEY = "claim"


class OneShotPublisher:
    def __init__(self, url, body, message_id):
        self.body = body
        self.message_id = message_id
        self.returned = None      # reply text of a basic.return
        self.outcome = None       # "ack", "nack", or an error string
        self.ch = None
        self.closing = False
        self.conn = pika.SelectConnection(
            pika.URLParameters(url),
            on_open_callback=self.on_open,
            on_open_error_callback=self.on_open_error,
            on_close_callback=self.on_close,
        )

    def run(self):
        self.conn.ioloop.call_later(15, self.on_timeout)
        self.conn.ioloop.start()
        if self.returned:
            print(f"unroutable: {self.returned}", file=sys.stderr)
            return 2
        if self.outcome != "ack":
            print(f"not confirmed: {self.outcome}", file=sys.stderr)
            return 1
        print(f"published {self.message_id} (confirmed)")
        return 0

    def on_open(self, conn):
        conn.channel(on_open_callback=self.on_channel)

    def on_open_error(self, conn, err):
        self.outcome = f"cannot connect: {err!r}"
        conn.ioloop.stop()

    def on_close(self, conn, reason):
        conn.ioloop.stop()

    def on_channel(self, ch):
        self.ch = ch
        ch.add_on_close_callback(self.on_channel_closed)
        ch.add_on_return_callback(self.on_return)
        ch.confirm_delivery(self.on_confirm, callback=self.on_confirm_mode)

    def on_confirm_mode(self, _frame):
        props = pika.BasicProperties(
            delivery_mode=2,
            message_id=self.message_id,
            content_type="application/json",
        )
        self.ch.basic_publish(EXCHANGE, ROUTING_KEY, self.body, props, mandatory=True)

    def on_return(self, ch, method, props, body):
        self.returned = f"{method.reply_code} {method.reply_text}"

    def on_confirm(self, frame):
        if isinstance(frame.method, pika.spec.Basic.Ack):
            self.outcome = "ack"
        else:
            self.outcome = "nack"
        self.finish()

    def on_channel_closed(self, ch, reason):
        if self.outcome is None:
            self.outcome = f"channel closed: {reason}"
        self.finish()

    def on_timeout(self):
        if self.outcome is None:
            self.outcome = "no confirm within 15s"
        self.finish()

    def finish(self):
        if self.closing:
            return
        self.closing = True
        if self.conn.is_open:
            self.conn.close()
        else:
            self.conn.ioloop.stop()


def main():
    if len(sys.argv) != 2:
        print("usage: publish.py CLAIM.json", file=sys.stderr)
        return 64
    with open(sys.argv[1], "rb") as f:
        body = f.read()
    guid = json.loads(body)["guid"]
    return OneShotPublisher(URL, body, guid).run()


if __name__ == "__main__":
    sys.exit(main())
