#!/usr/bin/env python3
"""consumer.py --claim URL --max-seconds S [--prefetch N]"""
import argparse
import time

from mqcommon import ClaimClient, ProcessedStore, open_channel


class ClaimWorker:
    QUEUE = "claim.in"

    def __init__(self, client, store, max_seconds, prefetch=5):
        self.client = client
        self.store = store
        self.max_seconds = max_seconds
        self.prefetch = prefetch

    def run(self):
        conn, ch = open_channel()
        ch.basic_qos(prefetch_count=self.prefetch)
        until = time.monotonic() + self.max_seconds
        try:
            for method, props, body in ch.consume(self.QUEUE, inactivity_timeout=0.5):
                if time.monotonic() >= until:
                    break
                if method is not None:
                    self.on_delivery(ch, method, props, body)
            ch.cancel()
        finally:
            if conn.is_open:
                conn.close()

    def on_delivery(self, ch, method, props, body):
        mid = props.message_id
        tag = method.delivery_tag
        if mid in self.store:
            print(f"{mid}: seen before, ack")
            ch.basic_ack(tag)
            return
        reply = self.client.post(body)
        if reply.accepted:
            self.store.add(mid)
            ch.basic_ack(tag)
            print(f"{mid}: 201")
        elif reply.rejected:
            print(f"{mid}: 422 -> dead letter")
            ch.basic_reject(tag, requeue=False)
        elif method.redelivered:
            print(f"{mid}: {reply.status or reply.error} (2nd time) -> dead letter")
            ch.basic_reject(tag, requeue=False)
        else:
            print(f"{mid}: {reply.status or reply.error} -> requeue")
            ch.basic_nack(tag, requeue=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    args = ap.parse_args()
    worker = ClaimWorker(ClaimClient(args.claim), ProcessedStore(), args.max_seconds)
    worker.run()


if __name__ == "__main__":
    main()
