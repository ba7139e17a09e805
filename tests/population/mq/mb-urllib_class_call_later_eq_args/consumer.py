import json
import os
import sqlite3
import sys
import time
import urllib.error
import urllib.request

import pika

USAGE = "usage: consumer.py --claim URL --max-seconds S [--prefetch N]"


def parse_argv(argv):
    """--name value or --name=value, nothing fancy."""
    opts = {"prefetch": "5"}
    it = iter(argv)
    for arg in it:
        if not arg.startswith("--"):
            raise SystemExit(USAGE)
        name, eq, value = arg[2:].partition("=")
        if not eq:
            value = next(it, None)
            if value is None:
                raise SystemExit(USAGE)
        opts[name.replace("-", "_")] = value
    if "claim" not in opts or "max_seconds" not in opts:
        raise SystemExit(USAGE)
    try:
        max_seconds = float(opts["max_seconds"])
        prefetch = int(opts["prefetch"])
    except ValueError:
        raise SystemExit(USAGE)
    if prefetch <= 0 or max_seconds < 0:
        raise SystemExit(USAGE)
    return opts["claim"].rstrip("/"), max_seconds, prefetch


class ProcessedStore:
    """message_ids that the claim system accepted (201)."""

    def __init__(self, path):
        self.db = sqlite3.connect(path, isolation_level=None)
        self.db.execute("""CREATE TABLE IF NOT EXISTS processed_message (
                               message_id  TEXT PRIMARY KEY,
                               claim_id    TEXT,
                               http_status INTEGER,
                               recorded_at TEXT DEFAULT (datetime('now')))""")

    def seen(self, message_id):
        row = self.db.execute("SELECT 1 FROM processed_message WHERE message_id = ?",
                              (message_id,)).fetchone()
        return row is not None

    def remember(self, message_id, claim_id, status):
        self.db.execute("BEGIN")
        try:
            self.db.execute("INSERT OR IGNORE INTO processed_message (message_id, claim_id, http_status)"
                            " VALUES (?, ?, ?)", (message_id, claim_id, status))
        except Exception:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")


class ClaimClient:
    def __init__(self, base_url, timeout=3.0):
        self.url = base_url + "/v1/claims"
        self.timeout = timeout

    def send(self, body, message_id):
        """(status, text); status None when there was no HTTP answer at all"""
        req = urllib.request.Request(self.url, data=body, method="POST")
        req.add_header("Content-Type", "application/json")
        req.add_header("Accept", "application/json")
        if message_id:
            req.add_header("X-Message-Id", message_id)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                return resp.status, resp.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as err:
            return err.code, err.read().decode("utf-8", "replace")
        except urllib.error.URLError as err:
            return None, f"connection failed: {err.reason}"
        except (TimeoutError, ConnectionError, OSError) as err:
            return None, f"no answer: {err!r}"


class ClaimConsumer:
    def __init__(self, amqp_url, client, store, prefetch, max_seconds):
        self.client = client
        self.store = store
        self.max_seconds = max_seconds
        self.deadline = None
        self.stopped = False
        self.stats = {"acked": 0, "duplicates": 0, "requeued": 0, "dead": 0}
        self.connection = pika.BlockingConnection(pika.URLParameters(amqp_url))
        self.channel = self.connection.channel()
        self.channel.basic_qos(prefetch_count=prefetch)
        self.channel.basic_consume("claim.in", self.on_message, auto_ack=False)

    def on_message(self, ch, method, props, body):
        # the call_later timer does not get a turn while deliveries keep coming
        # (busy queue), so the callback looks at the clock as well
        if time.monotonic() >= self.deadline:
            self.stop()
            return  # not acked: goes back to the queue when we close
        mid = props.message_id
        if mid and self.store.seen(mid):
            ch.basic_ack(method.delivery_tag)
            self.stats["duplicates"] += 1
            print(f"[dup ] {mid} already processed -> ack")
            return
        status, text = self.client.send(body, mid)
        if status == 201:
            try:
                claim_id = json.loads(body).get("claimId")
            except (ValueError, AttributeError):
                claim_id = None
            self.store.remember(mid, claim_id, status)
            ch.basic_ack(method.delivery_tag)
            self.stats["acked"] += 1
            print(f"[ok  ] {mid} 201")
        elif status == 422:
            ch.basic_reject(method.delivery_tag, requeue=False)
            self.stats["dead"] += 1
            print(f"[dead] {mid} 422 {text}")
        elif method.redelivered:
            ch.basic_reject(method.delivery_tag, requeue=False)
            self.stats["dead"] += 1
            print(f"[dead] {mid} failed twice ({status or text})")
        else:
            ch.basic_nack(method.delivery_tag, requeue=True)
            self.stats["requeued"] += 1
            print(f"[retry] {mid} {status or text}")

    def stop(self):
        if self.stopped:
            return
        self.stopped = True
        print(f"max-seconds ({self.max_seconds}) reached, stopping")
        self.channel.stop_consuming()

    def run(self):
        self.deadline = time.monotonic() + self.max_seconds
        self.connection.call_later(self.max_seconds, self.stop)
        try:
            self.channel.start_consuming()
        finally:
            if self.connection.is_open:
                self.connection.close()
        print("summary:", json.dumps(self.stats))


def main():
    base_url, max_seconds, prefetch = parse_argv(sys.argv[1:])
    store = ProcessedStore(os.getenv("EAI_MQ_DB", "/root/eaimw/mq/processed.db"))
    consumer = ClaimConsumer(os.getenv("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F"),
                             ClaimClient(base_url), store, prefetch, max_seconds)
    consumer.run()


if __name__ == "__main__":
    main()
