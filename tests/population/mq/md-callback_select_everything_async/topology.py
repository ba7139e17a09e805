#!/usr/bin/env python3
"""topology.py -- declare the claim topology on EAI_AMQP_URL.

Written against pika's SelectConnection: every declare is a callback that
kicks off the next one. Exit 0 when the whole chain went through, 1 when the
broker refused something (406 etc.) or we could not connect.
"""
import os
import sys

import pika

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

STEPS = [
    ("exchange", dict(exchange="eai.claim", exchange_type="direct", durable=True)),
    ("exchange", dict(exchange="eai.dlx", exchange_type="direct", durable=True)),
    ("queue", dict(queue="claim.in", durable=True,
                   arguments={"x-dead-letter-exchange": "eai.dlx",
                              "x-dead-letter-routing-key": "claim.dead"})),
    ("queue", dict(queue="claim.dead", durable=True)),
    ("bind", dict(queue="claim.in", exchange="eai.claim", routing_key="claim")),
    ("bind", dict(queue="claim.dead", exchange="eai.dlx", routing_key="claim.dead")),
]


class Declarer:
    def __init__(self, url):
        self.ok = False
        self.closing = False
        self.ch = None
        self.steps = list(STEPS)
        self.conn = pika.SelectConnection(
            pika.URLParameters(url),
            on_open_callback=self.on_open,
            on_open_error_callback=self.on_open_error,
            on_close_callback=self.on_close,
        )

    def run(self):
        # safety net: never hang on a half-open broker
        self.conn.ioloop.call_later(20, self.give_up)
        self.conn.ioloop.start()
        return 0 if self.ok else 1

    # --- connection -------------------------------------------------------
    def on_open(self, conn):
        conn.channel(on_open_callback=self.on_channel)

    def on_open_error(self, conn, err):
        print(f"cannot connect: {err!r}", file=sys.stderr)
        conn.ioloop.stop()

    def on_close(self, conn, reason):
        conn.ioloop.stop()

    def shutdown(self):
        if self.closing:
            return
        self.closing = True
        if self.conn.is_open:
            self.conn.close()
        else:
            self.conn.ioloop.stop()

    def give_up(self):
        if not self.ok:
            print("timed out waiting for the broker", file=sys.stderr)
        self.shutdown()

    # --- channel ----------------------------------------------------------
    def on_channel(self, ch):
        self.ch = ch
        ch.add_on_close_callback(self.on_channel_closed)
        self.next_step()

    def on_channel_closed(self, ch, reason):
        if not self.ok and not self.closing:
            print(f"broker closed the channel: {reason}", file=sys.stderr)
        self.shutdown()

    def next_step(self, _frame=None):
        if not self.steps:
            self.ok = True
            print("topology ok")
            self.shutdown()
            return
        kind, kw = self.steps.pop(0)
        if kind == "exchange":
            print(f"  exchange {kw['exchange']}")
            self.ch.exchange_declare(callback=self.next_step, **kw)
        elif kind == "queue":
            print(f"  queue    {kw['queue']}")
            self.ch.queue_declare(callback=self.next_step, **kw)
        else:
            print(f"  bind     {kw['exchange']} -> {kw['queue']} ({kw['routing_key']})")
            self.ch.queue_bind(callback=self.next_step, **kw)


if __name__ == "__main__":
    sys.exit(Declarer(URL).run())
