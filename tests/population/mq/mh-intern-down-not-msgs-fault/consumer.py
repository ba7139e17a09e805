#!/usr/bin/env python3
# consumer.py --claim URL --max-seconds S [--prefetch N]
#
# 201 -> record, ack / 422 -> reject(requeue=False) / 503, timeout -> requeue once, then DLX
# claim system down (connection refused) -> that's not the message's fault, so it does not
#   use up the message's one retry: keep it in claim.in (requeue) until the system is back.
import argparse
import os
import sqlite3
import time

import pika
import requests

DEFAULT_URL = "amqp://guest:guest@127.0.0.1:5672/%2F"
DEFAULT_DB = "/root/eaimw/mq/processed.db"


class ClaimWorker:
    def __init__(self, claim_url, max_seconds, prefetch):
        self.endpoint = claim_url.rstrip("/") + "/v1/claims"
        self.deadline = time.monotonic() + max_seconds
        self.prefetch = prefetch
        self.session = requests.Session()
        self.db = sqlite3.connect(os.getenv("EAI_MQ_DB", DEFAULT_DB))
        self.db.execute("CREATE TABLE IF NOT EXISTS processed_ids (id TEXT PRIMARY KEY)")
        self.db.commit()
        self.conn = pika.BlockingConnection(pika.URLParameters(os.getenv("EAI_AMQP_URL", DEFAULT_URL)))
        self.ch = self.conn.channel()

    # ---- helpers ----
    def already_done(self, mid):
        return self.db.execute("SELECT 1 FROM processed_ids WHERE id = ?", (mid,)).fetchone() is not None

    def mark_done(self, mid):
        self.db.execute("INSERT OR IGNORE INTO processed_ids (id) VALUES (?)", (mid,))
        self.db.commit()

    def transient(self, ch, method, why):
        # 일시 오류: 처음이면 한 번 되돌리고, 재배달인데 또 실패면 DLX
        if method.redelivered:
            print(f"  {why} again -> DLX")
            ch.basic_reject(method.delivery_tag, requeue=False)
        else:
            print(f"  {why} -> requeue once")
            ch.basic_nack(method.delivery_tag, requeue=True)

    # ---- callback ----
    def on_message(self, ch, method, props, body):
        left = self.deadline - time.monotonic()
        if left <= 0:
            ch.basic_nack(method.delivery_tag, requeue=True)
            return
        mid = props.message_id
        print(f"got {mid} (redelivered={method.redelivered})")
        if mid and self.already_done(mid):
            print("  duplicate -> ack")
            ch.basic_ack(method.delivery_tag)
            return
        try:
            r = self.session.post(
                self.endpoint,
                data=body,
                headers={"Content-Type": "application/json"},
                timeout=max(0.5, min(5.0, left)),
            )
        except requests.exceptions.Timeout:
            self.transient(ch, method, "timeout")
            return
        except requests.exceptions.ConnectionError:
            # 청구 시스템이 내려가 있음 -> 메시지 잘못 아님. 잠깐 쉬고 되돌린다.
            print("  claim system down -> requeue, wait 1s")
            time.sleep(1)
            ch.basic_nack(method.delivery_tag, requeue=True)
            return

        if r.status_code == 201:
            if mid:
                self.mark_done(mid)
            ch.basic_ack(method.delivery_tag)
            print("  201 -> ack")
        elif r.status_code == 422:
            ch.basic_reject(method.delivery_tag, requeue=False)
            print("  422 -> DLX (business rejection)")
        else:
            self.transient(ch, method, str(r.status_code))

    def run(self):
        self.ch.basic_qos(prefetch_count=self.prefetch)
        self.ch.basic_consume(queue="claim.in", on_message_callback=self.on_message, auto_ack=False)
        while time.monotonic() < self.deadline:
            self.conn.process_data_events(time_limit=0.5)
        self.conn.close()  # unacked ones go back to the queue
        self.db.close()
        print("stopped (max-seconds reached)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    args = ap.parse_args()
    ClaimWorker(args.claim, args.max_seconds, args.prefetch).run()


if __name__ == "__main__":
    main()
