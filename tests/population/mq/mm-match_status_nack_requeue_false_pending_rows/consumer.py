#!/usr/bin/env python3
"""consumer.py --claim URL --max-seconds S [--prefetch N]

Consumes claim.in and hands each claim to the claim system (POST URL/v1/claims).

    201                      -> mark done in SQLite, then ack
    422 (documents missing)  -> dead-letter right away (nack with requeue=False)
    503 / refused / timeout  -> requeue once; if it was already redelivered -> dead-letter
    message_id already done  -> ack without calling the claim system

Dead-lettering: basic_reject(requeue=False) and basic_nack(requeue=False) do the same thing
for one message (both go to the queue's DLX with x-death reason "rejected"); I use nack
everywhere so there is only one call to get right.

SQLite keeps one row per message_id with a state: 'pending' while a call is under way,
'done' once the claim system said 201. Only 'done' rows short-circuit, so a claim that
failed (and went to claim.dead) is sent again when it is published again.
"""
from __future__ import annotations

import argparse
import os
import sqlite3
import sys
import time

import pika
import requests
from pika.adapters.blocking_connection import BlockingChannel

AMQP_URL: str = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_PATH: str = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
CONNECT_TIMEOUT = 2.0
READ_TIMEOUT = 3.0

SCHEMA = """
CREATE TABLE IF NOT EXISTS claim_log (
    message_id TEXT PRIMARY KEY,
    state      TEXT NOT NULL CHECK (state IN ('pending', 'done')),
    attempts   INTEGER NOT NULL DEFAULT 0,
    updated_at REAL NOT NULL
)
"""


class ClaimLog:
    def __init__(self, path: str) -> None:
        # autocommit: every statement is its own transaction, committed when it returns
        self.db = sqlite3.connect(path, isolation_level=None, timeout=15)
        self.db.execute(SCHEMA)

    def is_done(self, message_id: str) -> bool:
        row = self.db.execute(
            "SELECT state FROM claim_log WHERE message_id = ?", (message_id,)
        ).fetchone()
        return row is not None and row[0] == "done"

    def start(self, message_id: str) -> None:
        self.db.execute(
            """INSERT INTO claim_log (message_id, state, attempts, updated_at)
               VALUES (?, 'pending', 1, ?)
               ON CONFLICT (message_id) DO UPDATE
               SET attempts = attempts + 1, updated_at = excluded.updated_at
               WHERE state = 'pending'""",
            (message_id, time.time()),
        )

    def finish(self, message_id: str) -> None:
        self.db.execute(
            "UPDATE claim_log SET state = 'done', updated_at = ? WHERE message_id = ?",
            (time.time(), message_id),
        )

    def close(self) -> None:
        self.db.close()


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--claim", required=True, metavar="URL", help="claim system base URL")
    parser.add_argument("--max-seconds", required=True, type=float, metavar="S")
    parser.add_argument("--prefetch", type=int, default=5, metavar="N")
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    deadline = time.monotonic() + args.max_seconds
    endpoint = args.claim.rstrip("/") + "/v1/claims"
    log = ClaimLog(DB_PATH)
    http = requests.Session()
    tally: dict[str, int] = {}

    def count(what: str) -> None:
        tally[what] = tally.get(what, 0) + 1

    def dead_letter(ch: BlockingChannel, tag: int) -> None:
        ch.basic_nack(delivery_tag=tag, requeue=False)
        count("dead")

    def on_message(ch: BlockingChannel, method, props, body: bytes) -> None:
        left = deadline - time.monotonic()
        if left <= 0:
            return  # time is up: leave it unacked, closing the connection gives it back
        tag = method.delivery_tag
        message_id = props.message_id
        if not message_id:
            dead_letter(ch, tag)
            return
        if log.is_done(message_id):
            ch.basic_ack(delivery_tag=tag)
            count("duplicate")
            return

        log.start(message_id)
        try:
            response = http.post(
                endpoint,
                data=body,
                headers={"Content-Type": "application/json"},
                timeout=(CONNECT_TIMEOUT, max(0.1, min(READ_TIMEOUT, left))),
            )
            status: int | None = response.status_code
        except requests.RequestException as exc:
            print(f"[consumer] {message_id}: {type(exc).__name__}", file=sys.stderr)
            status = None

        if status is None and time.monotonic() >= deadline:
            # the call was cut short by our own deadline, not the claim system's fault:
            # give it back without using up its one retry
            ch.basic_nack(delivery_tag=tag, requeue=True)
            count("requeued")
            return

        match status:
            case 201:
                log.finish(message_id)
                ch.basic_ack(delivery_tag=tag)
                count("accepted")
            case 422:
                dead_letter(ch, tag)
            case _ if method.redelivered:
                # 503, refused, timed out, or anything unexpected -- second time round
                dead_letter(ch, tag)
            case _:
                ch.basic_nack(delivery_tag=tag, requeue=True)
                count("requeued")
        print(f"[consumer] {message_id}: {status} redelivered={method.redelivered}", file=sys.stderr)

    connection = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    channel = connection.channel()
    channel.basic_qos(prefetch_count=args.prefetch)
    channel.basic_consume(queue="claim.in", on_message_callback=on_message, auto_ack=False)

    while (left := deadline - time.monotonic()) > 0:
        connection.process_data_events(time_limit=min(left, 0.5))

    connection.close()  # unacked deliveries go back to claim.in
    log.close()
    print(f"[consumer] done after {args.max_seconds}s: {tally}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
