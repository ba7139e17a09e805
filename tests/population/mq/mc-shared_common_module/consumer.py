"""consumer.py --claim URL --max-seconds S [--prefetch N]"""
import argparse
import json
import sys
import time

import requests

import config
from common import ProcessedStore, connect, log

TRANSIENT = "transient"


def call_claim_system(session, url, body):
    """Returns the HTTP status, or TRANSIENT for connection failure / timeout."""
    try:
        r = session.post(url, data=body, headers={"Content-Type": "application/json"}, timeout=config.HTTP_TIMEOUT)
        return r.status_code
    except requests.RequestException as exc:
        log.warning("claim system unreachable: %s", exc.__class__.__name__)
        return TRANSIENT


class ClaimConsumer:
    def __init__(self, claim_url, max_seconds, prefetch):
        self.url = claim_url.rstrip("/") + "/v1/claims"
        self.deadline = time.monotonic() + max_seconds
        self.prefetch = prefetch
        self.store = ProcessedStore()
        self.session = requests.Session()
        self.stats = {"acked": 0, "dead": 0, "requeued": 0, "skipped": 0}

    def on_message(self, ch, method, props, body):
        if time.monotonic() >= self.deadline:
            return  # out of time: leave it unacked, the broker gives it back when we close
        mid = props.message_id
        if mid and self.store.seen(mid):
            log.info("%s already processed -> ack only", mid)
            ch.basic_ack(method.delivery_tag)
            self.stats["skipped"] += 1
            return
        status = call_claim_system(self.session, self.url, body)
        if status == 201:
            try:
                claim_id = json.loads(body).get("claimId")
            except ValueError:
                claim_id = None
            self.store.remember(mid, claim_id, status)
            ch.basic_ack(method.delivery_tag)
            self.stats["acked"] += 1
            log.info("%s accepted", mid)
        elif status == 422:
            ch.basic_reject(method.delivery_tag, requeue=False)
            self.stats["dead"] += 1
            log.info("%s rejected (documents missing) -> DLX", mid)
        elif method.redelivered:
            ch.basic_reject(method.delivery_tag, requeue=False)
            self.stats["dead"] += 1
            log.info("%s failed again (%s) -> DLX", mid, status)
        else:
            ch.basic_nack(method.delivery_tag, requeue=True)
            self.stats["requeued"] += 1
            log.info("%s failed (%s) -> requeue once", mid, status)

    def run(self):
        conn = connect()
        ch = conn.channel()
        ch.basic_qos(prefetch_count=self.prefetch)
        tag = ch.basic_consume(config.QUEUE, self.on_message, auto_ack=False)
        log.info("consuming %s (prefetch %d)", config.QUEUE, self.prefetch)
        while True:
            left = self.deadline - time.monotonic()
            if left <= 0:
                break
            conn.process_data_events(time_limit=min(left, 0.5))
        ch.basic_cancel(tag)
        conn.close()
        self.store.close()
        log.info("done: %s", self.stats)


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--claim", required=True, help="claim system base URL")
    p.add_argument("--max-seconds", type=float, required=True)
    p.add_argument("--prefetch", type=int, default=config.DEFAULT_PREFETCH)
    args = p.parse_args()
    ClaimConsumer(args.claim, args.max_seconds, args.prefetch).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
