"""python3 consumer.py --claim URL --max-seconds S [--prefetch N]

The prefetch window is worked in parallel: a pool of N threads calls the claim system,
the pika connection stays in the main thread, and the workers hand every ack/nack back
to it with add_callback_threadsafe."""
import argparse
import collections
import functools
import logging
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor, wait

from eaimq import amqp, claims, store
from eaimq.config import DEFAULT_PREFETCH, QUEUE, settings

logging.basicConfig(level=settings.log_level, format="%(asctime)s %(threadName)s %(message)s")
logging.getLogger("pika").setLevel(logging.WARNING)
log = logging.getLogger("consumer")


class Consumer:
    def __init__(self, claim_url, max_seconds, prefetch):
        self.claim_url = claim_url
        self.deadline = time.monotonic() + max_seconds
        self.prefetch = prefetch
        self.pool = ThreadPoolExecutor(max_workers=prefetch, thread_name_prefix="claim")
        self.futures = set()
        # the same message_id twice in the window: the second waits for the first
        self.locks = collections.defaultdict(threading.Lock)
        self.locks_guard = threading.Lock()

    # --- main thread -------------------------------------------------------------
    def run(self):
        store.init()
        self.conn = amqp.connect()
        self.ch = self.conn.channel()
        self.ch.basic_qos(prefetch_count=self.prefetch)
        tag = self.ch.basic_consume(queue=QUEUE, on_message_callback=self.on_message, auto_ack=False)
        while time.monotonic() < self.deadline:
            self.conn.process_data_events(time_limit=min(0.2, max(0.0, self.deadline - time.monotonic())))
        self.ch.basic_cancel(tag)  # no new deliveries; undispatched ones go back
        # let the calls under way finish (bounded by the HTTP timeout) and send their acks
        while any(not f.done() for f in self.futures):
            self.conn.process_data_events(time_limit=0.1)
        self.conn.process_data_events(time_limit=0)
        self.pool.shutdown()
        self.conn.close()

    def on_message(self, ch, method, props, body):
        if time.monotonic() >= self.deadline:
            return  # stays unacked; returned to the queue when we close
        fut = self.pool.submit(self.handle, method, props, body)
        self.futures.add(fut)
        fut.add_done_callback(self.futures.discard)

    # --- worker threads ----------------------------------------------------------
    def _send(self, fn, **kwargs):
        self.conn.add_callback_threadsafe(functools.partial(fn, **kwargs))

    def _lock(self, key):
        with self.locks_guard:
            return self.locks[key]

    def handle(self, method, props, body):
        tag = method.delivery_tag
        mid = props.message_id
        with self._lock(mid or f"tag-{tag}"):
            if mid and store.already_processed(mid):
                log.info("%s: processed before, ack without calling", mid)
                self._send(self.ch.basic_ack, delivery_tag=tag)
                return
            outcome, code = claims.submit(self.claim_url, body)
            if outcome == claims.ACCEPTED:
                if mid:
                    store.mark_processed(mid)  # committed before the ack goes out
                self._send(self.ch.basic_ack, delivery_tag=tag)
            elif outcome == claims.REJECTED:
                self._send(self.ch.basic_reject, delivery_tag=tag, requeue=False)
            elif method.redelivered:
                self._send(self.ch.basic_reject, delivery_tag=tag, requeue=False)
            else:
                self._send(self.ch.basic_nack, delivery_tag=tag, requeue=True)
            log.info("%s: %s (%s)%s", mid, outcome, code, " redelivered" if method.redelivered else "")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--claim", required=True, metavar="URL")
    parser.add_argument("--max-seconds", required=True, type=float, metavar="S")
    parser.add_argument("--prefetch", type=int, default=DEFAULT_PREFETCH, metavar="N")
    args = parser.parse_args()
    Consumer(args.claim, args.max_seconds, args.prefetch).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
