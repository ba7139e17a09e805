#!/usr/bin/env python3
"""claim.in consumer, asyncio flavour.

    consumer.py --claim URL --max-seconds S [--prefetch N]   (also --claim=URL etc.)

pika's AsyncioConnection delivers into an asyncio.Queue; one worker coroutine handles the
deliveries in order. The POST runs in the default thread pool (urllib is blocking), so the
event loop keeps serving the broker meanwhile.
"""
import asyncio
import http.client
import json
import os
import sqlite3
import sys
import time
import urllib.error
import urllib.request

import pika
from pika.adapters.asyncio_connection import AsyncioConnection

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_PATH = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
POST_TIMEOUT = 3.0
USAGE = "usage: consumer.py --claim URL --max-seconds S [--prefetch N]"


def parse_args(argv):
    opts = {"--claim": None, "--max-seconds": None, "--prefetch": "5"}
    i = 0
    while i < len(argv):
        arg = argv[i]
        if "=" in arg and arg.split("=", 1)[0] in opts:
            key, val = arg.split("=", 1)
        elif arg in opts and i + 1 < len(argv):
            key, val = arg, argv[i + 1]
            i += 1
        elif arg in ("-h", "--help"):
            print(USAGE)
            sys.exit(0)
        else:
            sys.exit(f"bad argument {arg!r}\n{USAGE}")
        opts[key] = val
        i += 1
    if opts["--claim"] is None or opts["--max-seconds"] is None:
        sys.exit(USAGE)
    try:
        seconds = float(opts["--max-seconds"])
        prefetch = int(opts["--prefetch"])
    except ValueError:
        sys.exit(USAGE)
    if prefetch < 1:
        sys.exit("--prefetch must be at least 1")
    return opts["--claim"].rstrip("/"), seconds, prefetch


def open_db():
    db = sqlite3.connect(DB_PATH)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute(
        "CREATE TABLE IF NOT EXISTS seen ("
        " mid TEXT NOT NULL UNIQUE,"
        " claim_id TEXT,"
        " seen_at REAL NOT NULL)"
    )
    db.commit()
    return db


def post_claim(url, body, timeout):
    """Blocking POST; returns the HTTP status, or None when the call itself failed."""
    req = urllib.request.Request(url, data=body, method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return resp.status
    except urllib.error.HTTPError as err:  # 4xx / 5xx still are answers
        return err.code
    except (OSError, http.client.HTTPException) as err:  # URLError, refused, timeouts
        print(f"  call failed: {err!r}", flush=True)
        return None


class Worker:
    def __init__(self, claim_base, seconds, prefetch):
        self.claims_url = claim_base + "/v1/claims"
        self.deadline = time.monotonic() + seconds
        self.prefetch = prefetch
        self.db = open_db()

    def left(self):
        return self.deadline - time.monotonic()

    async def connect(self, loop):
        opened = loop.create_future()
        self.closed = loop.create_future()

        def on_open(conn):
            opened.set_result(conn)

        def on_open_error(conn, err):
            opened.set_exception(RuntimeError(f"cannot connect: {err}"))

        def on_close(conn, reason):
            if not self.closed.done():
                self.closed.set_result(reason)

        AsyncioConnection(pika.URLParameters(AMQP_URL), on_open_callback=on_open,
                          on_open_error_callback=on_open_error, on_close_callback=on_close,
                          custom_ioloop=loop)
        self.conn = await opened
        ch_ready = loop.create_future()
        self.conn.channel(on_open_callback=ch_ready.set_result)
        self.ch = await ch_ready
        qos_ok = loop.create_future()
        self.ch.basic_qos(prefetch_count=self.prefetch, callback=qos_ok.set_result)
        await qos_ok  # limit in place before the first delivery

    async def run(self):
        loop = asyncio.get_running_loop()
        await self.connect(loop)
        inbox = asyncio.Queue()
        self.ch.basic_consume("claim.in", lambda ch, m, p, b: inbox.put_nowait((m, p, b)), auto_ack=False)
        while self.conn.is_open:
            left = self.left()
            if left <= 0.2:
                break
            try:
                method, props, body = await asyncio.wait_for(inbox.get(), timeout=min(0.5, left))
            except asyncio.TimeoutError:
                continue
            await self.handle(loop, method, props, body)
        if self.conn.is_open:
            self.conn.close()  # anything unacked goes back to claim.in
        await asyncio.wait_for(self.closed, timeout=5)
        self.db.close()

    async def handle(self, loop, method, props, body):
        tag, mid = method.delivery_tag, props.message_id
        if mid and self.db.execute("SELECT 1 FROM seen WHERE mid = ?", (mid,)).fetchone():
            print(f"{mid} seen before -> ack only", flush=True)
            self.ch.basic_ack(tag)
            return
        left = self.left()
        if left <= 0.2:
            return  # out of time: not handled, the close returns it
        status = await loop.run_in_executor(None, post_claim, self.claims_url, body, min(POST_TIMEOUT, left))
        if not self.conn.is_open:
            return
        if status == 201:
            try:
                claim_id = json.loads(body).get("claimId")
            except ValueError:
                claim_id = None
            with self.db:
                self.db.execute("INSERT OR IGNORE INTO seen (mid, claim_id, seen_at) VALUES (?, ?, ?)",
                                (mid, claim_id, time.time()))
            self.ch.basic_ack(tag)
            verdict = "ack"
        elif status == 422:
            self.ch.basic_reject(tag, requeue=False)
            verdict = "reject -> DLX (documents missing)"
        elif method.redelivered:
            self.ch.basic_reject(tag, requeue=False)
            verdict = "failed again after redelivery -> DLX"
        else:
            self.ch.basic_nack(tag, requeue=True)
            verdict = "requeue once"
        print(f"{mid} {status} {verdict}", flush=True)


def main():
    claim_base, seconds, prefetch = parse_args(sys.argv[1:])
    asyncio.run(Worker(claim_base, seconds, prefetch).run())


if __name__ == "__main__":
    main()
