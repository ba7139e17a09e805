import argparse, os, sqlite3, time, urllib.request, urllib.error, pika

ap = argparse.ArgumentParser()
ap.add_argument("--claim", required=True)
ap.add_argument("--max-seconds", type=float, required=True)
ap.add_argument("--prefetch", type=int, default=5)
a = ap.parse_args()
deadline = time.time() + a.max_seconds

db = sqlite3.connect(os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db"))
db.execute("create table if not exists processed (message_id text primary key, ts real)")
db.commit()

c = pika.BlockingConnection(pika.URLParameters(os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
ch = c.channel()
ch.basic_qos(prefetch_count=a.prefetch)
for m, p, body in ch.consume("claim.in", inactivity_timeout=0.5):
    if time.time() > deadline:
        break
    if m is None:
        continue
    if db.execute("select 1 from processed where message_id=?", (p.message_id,)).fetchone():
        ch.basic_ack(m.delivery_tag)
        continue
    req = urllib.request.Request(a.claim.rstrip("/") + "/v1/claims", data=body, method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        status = urllib.request.urlopen(req, timeout=3).status
    except urllib.error.HTTPError as e:  # 422, 503 come here
        status = e.code
    print(p.message_id, status, m.redelivered)
    if status == 201:
        db.execute("insert or ignore into processed values (?, ?)", (p.message_id, time.time()))
        db.commit()
        ch.basic_ack(m.delivery_tag)
    elif status == 422:
        ch.basic_reject(m.delivery_tag, requeue=False)
    elif m.redelivered:
        ch.basic_reject(m.delivery_tag, requeue=False)
    else:
        ch.basic_nack(m.delivery_tag, requeue=True)
ch.cancel()
c.close()
