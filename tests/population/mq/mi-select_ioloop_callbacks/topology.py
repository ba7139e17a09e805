#!/usr/bin/env python3
# topology.py - declares the claim topology with an async SelectConnection (callback chain).
# Every declare is idempotent, so running this twice is harmless.
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

state = {"ok": False, "step": 0}


def next_step(channel, _frame=None):
    if state["step"] == len(STEPS):
        state["ok"] = True
        channel.connection.close()
        return
    kind, kw = STEPS[state["step"]]
    state["step"] += 1
    cb = lambda frame: next_step(channel, frame)
    if kind == "exchange":
        channel.exchange_declare(callback=cb, **kw)
    elif kind == "queue":
        channel.queue_declare(callback=cb, **kw)
    else:
        channel.queue_bind(callback=cb, **kw)


def on_channel_closed(channel, reason):
    print(f"topology: channel closed: {reason}", file=sys.stderr)
    channel.connection.close()


def on_open(connection):
    connection.channel(on_open_callback=lambda ch: (ch.add_on_close_callback(on_channel_closed), next_step(ch)))


def on_open_error(connection, err):
    print(f"topology: cannot connect: {err!r}", file=sys.stderr)
    connection.ioloop.stop()


conn = pika.SelectConnection(pika.URLParameters(URL), on_open_callback=on_open,
                             on_open_error_callback=on_open_error,
                             on_close_callback=lambda c, r: c.ioloop.stop())
conn.ioloop.start()
if not state["ok"]:
    sys.exit(1)
print("topology ok")
