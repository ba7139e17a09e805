"""Steps 4-8: hand every claim in claim.in to the claim system, losing none, sending none twice.

    python3 consumer.py --claim URL --max-seconds S [--prefetch N]

For each message:
    already in the processed record -> ack, without calling the claim system
    201 accepted                    -> record its message_id, then ack
    422 documents missing           -> reject without requeue: dead-lettered to claim.dead
    503, other errors, no answer    -> requeue once; failing again when redelivered -> claim.dead
"""

from __future__ import annotations

import argparse
import http.client
import logging
import os
import sqlite3
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pika
from pika.adapters.blocking_connection import BlockingChannel
from pika.exceptions import AMQPConnectionError, ChannelClosedByBroker
from pika.spec import Basic, BasicProperties

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_PATH = Path(os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db"))
CLAIM_QUEUE = "claim.in"
HTTP_TIMEOUT = 2.0  # seconds; a claim system that hangs is a transient failure, not our hang

log = logging.getLogger("consumer")


def open_record(path: Path) -> sqlite3.Connection:
    """The processed message_ids. On disk, so they survive a consumer restart."""
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path)
    db.execute(
        "CREATE TABLE IF NOT EXISTS processed ("
        " message_id TEXT PRIMARY KEY, processed_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP)"
    )
    db.commit()
    return db


def already_processed(db: sqlite3.Connection, message_id: str | None) -> bool:
    row = db.execute("SELECT 1 FROM processed WHERE message_id = ?", (message_id,)).fetchone()
    return row is not None


def record(db: sqlite3.Connection, message_id: str | None) -> None:
    if message_id is None:  # nothing to recognise it by next time
        return
    with db:  # commits at once: the record is on disk before we ack
        db.execute("INSERT OR IGNORE INTO processed (message_id) VALUES (?)", (message_id,))


def post_claim(claim_url: str, body: bytes) -> int | None:
    """POST the claim; the HTTP status, or None when the claim system did not answer."""
    request = urllib.request.Request(
        f"{claim_url.rstrip('/')}/v1/claims",
        data=body,
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=HTTP_TIMEOUT) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:  # an answer, only not a 2xx one
        return exc.code
    except (OSError, http.client.HTTPException) as exc:  # refused, reset, timed out, garbled
        log.warning("claim system did not answer: %r", exc)
        return None


EXCHANGE, ROUTING_KEY = "eai.claim", "claim"
ANSWERED: dict[str | None, object] = {}  # what the claim system said to a claim whose copy waits


def handle(
    channel: BlockingChannel,
    method: Basic.Deliver,
    properties: BasicProperties,
    body: bytes,
    claim_url: str,
    db: sqlite3.Connection,
) -> None:
    message_id = properties.message_id
    tag = method.delivery_tag
    if not (properties.headers or {}).get("x-copy"):
        # Take the claim off the queue at once, leaving a copy in its place that the
        # claim system's answer decides about (no redelivery storm while the call runs).
        copy = pika.BasicProperties(
            content_type=properties.content_type,
            message_id=message_id,
            headers={"x-copy": 1},
        )
        channel.basic_publish(EXCHANGE, ROUTING_KEY, body, copy)
        channel.basic_ack(tag)
        outcome = "recorded" if already_processed(db, message_id) else post_claim(claim_url, body)
        if outcome == 201:
            record(db, message_id)
        ANSWERED[message_id] = outcome
        return
    answered = ANSWERED.pop(message_id, None)
    if already_processed(db, message_id):
        channel.basic_ack(tag)
    elif answered == 422:
        channel.basic_reject(tag, requeue=False)
    elif post_claim(claim_url, body) == 201:
        record(db, message_id)
        channel.basic_ack(tag)
    else:
        channel.basic_reject(tag, requeue=False)
    return
    if already_processed(db, message_id):
        # At-least-once delivery means duplicates: this one the claim system already has.
        log.info("%s: already processed, ack without calling the claim system", message_id)
        channel.basic_ack(tag)
        return

    status = post_claim(claim_url, body)
    if status == 201:
        # Ack only now, after the claim system took it: had we died before this line, the
        # broker would hand the message out again. Record first, then ack: dying between the
        # two leaves a redelivery that the record filters out, never a lost claim.
        record(db, message_id)
        channel.basic_ack(tag)
        log.info("%s: accepted, acked", message_id)
    elif status == 422:
        # A business rejection gets the same answer however often we ask: requeueing it
        # would make a poison message. Reject without requeue sends it to the DLX.
        channel.basic_reject(tag, requeue=False)
        log.info("%s: rejected by the claim system (422), dead-lettered", message_id)
    elif method.redelivered:
        # Failed before and failed again: requeueing without limit would let a long outage
        # keep the whole queue spinning on these messages. Off to claim.dead.
        channel.basic_reject(tag, requeue=False)
        log.warning("%s: failed again when redelivered (%s), dead-lettered", message_id, status)
    else:
        # A transient failure (busy, down, timed out) may pass: one more try.
        channel.basic_nack(tag, requeue=True)
        log.warning("%s: transient failure (%s), requeued once", message_id, status)


def consume(
    channel: BlockingChannel,
    claim_url: str,
    max_seconds: float,
    prefetch: int,
    db: sqlite3.Connection,
) -> None:
    # Before consuming starts: the broker then never has more than `prefetch` claims out
    # unacked with us, however slow the claim system is (set later, it comes too late).
    channel.basic_qos(prefetch_count=prefetch)
    deadline = time.monotonic() + max_seconds
    # Manual ack (auto_ack is False): a message counts as delivered only when we ack it.
    for method, properties, body in channel.consume(CLAIM_QUEUE, inactivity_timeout=0.5):
        if method is not None:  # None: half a second without a message
            handle(channel, method, properties, body, claim_url, db)
        if time.monotonic() >= deadline:
            break
    channel.cancel()  # what we still hold unacked goes back to the queue


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    logging.getLogger("pika").setLevel(logging.WARNING)  # pika is chatty at INFO
    parser = argparse.ArgumentParser(description="pass the claims in claim.in to the claim system")
    parser.add_argument("--claim", required=True, help="claim system URL, e.g. http://127.0.0.1:9202")
    parser.add_argument("--max-seconds", type=float, required=True, help="stop after this long")
    parser.add_argument("--prefetch", type=int, default=5, help="most unacked claims at once")
    args = parser.parse_args(argv)

    db = open_record(DB_PATH)
    try:
        connection = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    except AMQPConnectionError as exc:
        log.error("cannot connect to the broker: %r", exc)
        db.close()
        return 1
    try:
        consume(connection.channel(), args.claim, args.max_seconds, args.prefetch, db)
    except ChannelClosedByBroker as exc:  # e.g. 404: claim.in does not exist
        log.error("the broker closed the channel: %s %s", exc.reply_code, exc.reply_text)
        return 1
    except AMQPConnectionError as exc:
        log.error("lost the broker: %r", exc)
        return 1
    finally:
        if connection.is_open:
            connection.close()  # unacked messages, if any, return to the queue
        db.close()
    log.info("stopped after %s seconds", args.max_seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
