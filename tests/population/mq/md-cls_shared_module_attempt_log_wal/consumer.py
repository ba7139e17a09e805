#!/usr/bin/env python3
"""consumer.py --claim URL --max-seconds S [--prefetch N]"""
import argparse
import logging
import time

import claimmq
from claimmq import Outcome

log = logging.getLogger("consumer")


class ClaimConsumer:
    def __init__(self, conn, claims, ledger, prefetch, max_seconds):
        self.conn = conn
        self.claims = claims
        self.ledger = ledger
        self.prefetch = prefetch
        self.deadline = time.monotonic() + max_seconds

    def time_left(self):
        return self.deadline - time.monotonic()

    def run(self):
        ch = self.conn.channel()
        ch.basic_qos(prefetch_count=self.prefetch)
        stats = {"acked": 0, "dup": 0, "dead": 0, "requeued": 0}
        for method, props, body in ch.consume(claimmq.QUEUE, inactivity_timeout=0.5):
            if self.time_left() <= 0:
                break
            if method is None:
                continue
            stats[self.handle(ch, method, props, body)] += 1
        returned = ch.cancel()
        log.info("done: %s, %d handed back unprocessed", stats, returned)

    def handle(self, ch, method, props, body):
        tag, mid = method.delivery_tag, props.message_id
        if mid and self.ledger.is_processed(mid):
            ch.basic_ack(tag)
            return "dup"

        outcome, detail = self.claims.submit(body)
        self.ledger.log_attempt(mid, method.redelivered, outcome, detail)

        if outcome is Outcome.ACCEPTED:
            ch.basic_ack(tag)               # the ledger row is already committed
            return "acked"
        if outcome is Outcome.REJECTED or method.redelivered:
            log.info("%s: %s -> DLX", mid, detail)
            ch.basic_reject(tag, requeue=False)
            return "dead"
        log.info("%s: %s -> requeue once", mid, detail)
        ch.basic_nack(tag, requeue=True)
        return "requeued"


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--claim", required=True, metavar="URL")
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")

    ledger = claimmq.Ledger()
    conn = claimmq.connect()
    try:
        ClaimConsumer(conn, claimmq.ClaimSystem(args.claim), ledger,
                      args.prefetch, args.max_seconds).run()
    finally:
        if conn.is_open:
            conn.close()
        ledger.close()


if __name__ == "__main__":
    main()
