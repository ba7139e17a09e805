#!/usr/bin/env python3
"""claimq -- the whole mq lab in one program.

    claimq.py topology
    claimq.py publish CLAIM_JSON_FILE
    claimq.py consume --claim URL --max-seconds S [--prefetch N]

topology.py / publish.py / consumer.py are one-line wrappers around the subcommands.
"""
import argparse
import json
import os
import sqlite3
import sys
import time
import urllib.error
import urllib.request

import pika

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_PATH = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")

EX_OK, EX_USAGE, EX_UNROUTABLE, EX_NACKED = 0, 2, 3, 4


def connect():
    return pika.BlockingConnection(pika.URLParameters(AMQP_URL))


# ---------------------------------------------------------------- topology
def cmd_topology(args):
    conn = connect()
    ch = conn.channel()
    ch.exchange_declare("eai.claim", "direct", durable=True)
    ch.exchange_declare("eai.dlx", "direct", durable=True)
    ch.queue_declare("claim.in", durable=True, arguments={
        "x-dead-letter-exchange": "eai.dlx",
        "x-dead-letter-routing-key": "claim.dead",
    })
    ch.queue_declare("claim.dead", durable=True)
    ch.queue_bind("claim.in", "eai.claim", "claim")
    ch.queue_bind("claim.dead", "eai.dlx", "claim.dead")
    conn.close()
    return EX_OK


# ---------------------------------------------------------------- publish
def cmd_publish(args):
    raw = args.file.read()
    args.file.close()
    guid = json.loads(raw)["guid"]
    conn = connect()
    ch = conn.channel()
    ch.confirm_delivery()
    props = pika.BasicProperties(delivery_mode=2, message_id=guid, content_type="application/json")
    try:
        ch.basic_publish("eai.claim", "claim", raw, props, mandatory=True)
    except pika.exceptions.UnroutableError:
        print("claimq: unroutable", file=sys.stderr)
        return EX_UNROUTABLE
    except pika.exceptions.NackError:
        print("claimq: nacked", file=sys.stderr)
        return EX_NACKED
    finally:
        conn.close()
    print(guid)
    return EX_OK


# ---------------------------------------------------------------- consume
def post(base, body, timeout):
    req = urllib.request.Request(base.rstrip("/") + "/v1/claims", data=body, method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code
    except Exception as e:  # URLError (refused), socket timeout, RemoteDisconnected ...
        print(f"claimq: transport error {e!r}", file=sys.stderr)
        return None


def failed_attempts(props):
    """How many times this message already failed here.

    Not method.redelivered: that flag is also set when a consumer merely died or stopped
    with the message in hand, which is not a failure of the claim. The broker's own
    x-death header counts the real rejections per queue."""
    for death in (props.headers or {}).get("x-death", []):
        if death.get("queue") == "claim.in":
            return int(death.get("count", 0))
    return 0


def cmd_consume(args):
    deadline = time.monotonic() + args.max_seconds
    db = sqlite3.connect(DB_PATH)
    db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY)")
    db.commit()

    conn = connect()
    ch = conn.channel()
    ch.basic_qos(prefetch_count=args.prefetch)

    for method, props, body in ch.consume("claim.in", inactivity_timeout=0.5):
        if time.monotonic() >= deadline:
            break
        if method is None:
            continue
        mid = props.message_id
        if mid and db.execute("SELECT 1 FROM processed WHERE message_id=?", (mid,)).fetchone():
            ch.basic_ack(method.delivery_tag)
            continue
        status = post(args.claim, body, timeout=min(5.0, max(1.0, deadline - time.monotonic())))
        if status == 201:
            if mid:
                db.execute("INSERT OR IGNORE INTO processed VALUES (?)", (mid,))
                db.commit()
            ch.basic_ack(method.delivery_tag)
        elif status == 422:
            ch.basic_reject(method.delivery_tag, requeue=False)
        elif failed_attempts(props) >= 1:
            ch.basic_reject(method.delivery_tag, requeue=False)
        else:
            ch.basic_nack(method.delivery_tag, requeue=True)

    conn.close()
    db.close()
    return EX_OK


# ---------------------------------------------------------------- cli
def build_parser():
    p = argparse.ArgumentParser(prog="claimq")
    sub = p.add_subparsers(dest="command", required=True)

    t = sub.add_parser("topology", help="declare exchanges, queues, bindings")
    t.set_defaults(func=cmd_topology)

    pub = sub.add_parser("publish", help="publish one claim file")
    pub.add_argument("file", type=argparse.FileType("rb"))
    pub.set_defaults(func=cmd_publish)

    c = sub.add_parser("consume", help="forward claim.in to the claim system")
    c.add_argument("--claim", required=True, metavar="URL")
    c.add_argument("--max-seconds", type=float, required=True, metavar="S")
    c.add_argument("--prefetch", type=int, default=5, metavar="N")
    c.set_defaults(func=cmd_consume)
    return p


def main(argv=None):
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
