import getopt
import os
import sqlite3
import sys
import time
import pika
import requests


def main():
    opts, _ = getopt.getopt(sys.argv[1:], "c:s:p:", ["claim=", "max-seconds=", "prefetch="])
    o = {k.lstrip("-"): v for k, v in opts}
    claim = (o.get("claim") or o["c"]).rstrip("/")
    stop_at = time.monotonic() + float(o.get("max-seconds") or o["s"])
    prefetch = int(o.get("prefetch") or o.get("p") or 5)

    db = sqlite3.connect(os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db"))
    db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY, body BLOB, ts REAL)")
    db.commit()

    c = pika.BlockingConnection(pika.URLParameters(os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
    ch = c.channel()
    ch.basic_qos(prefetch_count=prefetch)
    n = 0
    for m, props, body in ch.consume("claim.in", inactivity_timeout=1):
        if time.monotonic() >= stop_at:
            break
        if m is None:
            continue
        n += 1
        if db.execute("SELECT 1 FROM processed WHERE message_id = ?", (props.message_id,)).fetchone():
            ch.basic_ack(m.delivery_tag)
            print(n, props.message_id, "already processed")
            continue
        try:
            status = requests.post(claim + "/v1/claims", data=body, headers={"Content-Type": "application/json"},
                                   timeout=5).status_code
        except Exception as e:
            status = type(e).__name__
        if status == 201:
            try:
                db.execute("INSERT INTO processed VALUES (?, ?, ?)", (props.message_id, body, time.time()))
                db.commit()
            except sqlite3.IntegrityError:
                pass
            ch.basic_ack(m.delivery_tag)
        elif status == 422 or m.redelivered:
            ch.basic_reject(m.delivery_tag, requeue=False)
        else:
            ch.basic_nack(m.delivery_tag, requeue=True)
        print(n, props.message_id, status, "(redelivered)" if m.redelivered else "")
    ch.cancel()
    c.close()
    db.close()


main()
