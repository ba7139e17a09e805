import os, sys, time, argparse, sqlite3, pika, requests

ap = argparse.ArgumentParser()
ap.add_argument("--claim", required=True)
ap.add_argument("--max-seconds", type=float, required=True)
ap.add_argument("--prefetch", type=int, default=5)
a = ap.parse_args()
end = time.time() + a.max_seconds

db = sqlite3.connect(os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db"))
db.execute("create table if not exists done (mid text primary key)")
db.commit()

c = pika.BlockingConnection(pika.URLParameters(os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
ch = c.channel()
ch.basic_qos(prefetch_count=a.prefetch)

for m, p, b in ch.consume("claim.in", inactivity_timeout=0.5):
    if time.time() > end:
        break
    if m is None:
        continue
    mid = p.message_id
    if db.execute("select 1 from done where mid=?", (mid,)).fetchone():
        ch.basic_ack(m.delivery_tag)  # seen it
        continue
    try:
        r = requests.post(a.claim.rstrip("/") + "/v1/claims", data=b, headers={"Content-Type": "application/json"}, timeout=max(0.2, min(5, end - time.time())))
    except requests.exceptions.Timeout:
        # timeout = transient: once more, then dlx
        if m.redelivered:
            ch.basic_reject(m.delivery_tag, requeue=False)
        else:
            ch.basic_nack(m.delivery_tag, requeue=True)
        continue
    except requests.exceptions.ConnectionError:
        # claim system down -> put it back, try later
        ch.basic_nack(m.delivery_tag, requeue=True)
        continue
    if r.status_code == 201:
        db.execute("insert or ignore into done values (?)", (mid,))
        db.commit()
        ch.basic_ack(m.delivery_tag)
    elif r.status_code == 422:
        ch.basic_reject(m.delivery_tag, requeue=False)  # no docs -> dlx, never requeue
    elif r.status_code == 503:
        if m.redelivered:
            ch.basic_reject(m.delivery_tag, requeue=False)
        else:
            ch.basic_nack(m.delivery_tag, requeue=True)
    else:
        ch.basic_nack(m.delivery_tag, requeue=True)  # TODO?

ch.cancel()
c.close()
