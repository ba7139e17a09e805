#!/usr/bin/env python3
"""consumer.py --claim URL --max-seconds S [--prefetch N]"""
import argparse
import sys
from contextlib import ExitStack

from mqkit import Broker, Budget, ClaimClient, Ledger


class ClaimConsumer:
    QUEUE = "claim.in"
    IDLE_TICK = 0.5

    def __init__(self, channel, ledger, client, budget, prefetch):
        self.ch, self.ledger, self.client, self.budget = channel, ledger, client, budget
        self.ch.basic_qos(prefetch_count=prefetch)  # before consuming

    def run(self):
        for method, props, body in self.ch.consume(self.QUEUE, inactivity_timeout=self.IDLE_TICK):
            if self.budget.spent:
                break
            if method is not None:
                self.handle(method, props, body)

    def handle(self, method, props, body):
        tag = method.delivery_tag
        if props.message_id in self.ledger:
            self.ch.basic_ack(tag)
            return
        outcome = self.client.submit(body, timeout=min(5.0, max(1.0, self.budget.left)))
        if outcome.accepted:
            self.ledger.add(props.message_id)   # record first ...
            self.ch.basic_ack(tag)              # ... then ack
        elif outcome.rejected:
            self.ch.basic_reject(tag, requeue=False)
        else:
            # transient (503, refused, timeout, anything else): one more chance only
            self.ch.basic_nack(tag, requeue=not method.redelivered)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    a = ap.parse_args()

    with ExitStack() as stack:
        budget = stack.enter_context(Budget(a.max_seconds))
        ledger = stack.enter_context(Ledger())
        client = stack.enter_context(ClaimClient(a.claim))
        channel = stack.enter_context(Broker())
        ClaimConsumer(channel, ledger, client, budget, a.prefetch).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
