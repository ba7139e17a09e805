import argparse, os, sqlite3, time, pika
from urllib.request import Request, urlopen
from urllib.error import HTTPError, URLError

p = argparse.ArgumentParser()
p.add_argument("--claim", required=True)
p.add_argument("--max-seconds", type=float, required=True)
p.add_argument("--prefetch", type=int, default=5)
a = p.parse_args()

db = sqlite3.connect(os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db"))
db.execute("create table if not exists done (id text primary key)")
db.commit()

c = pika.BlockingConnection(pika.URLParameters(os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
ch = c.channel()
ch.basic_qos(prefetch_count=a.prefetch)
end = time.time() + a.max_seconds

for m, props, body in ch.consume("claim.in", inactivity_timeout=0.5):
    if time.time() >= end:
        break
    if m is None:
        continue
    mid = props.message_id
    if db.execute("select 1 from done where id=?", (mid,)).fetchone():
        ch.basic_ack(m.delivery_tag)
        continue
    req = Request(a.claim + "/v1/claims", data=body, headers={"Content-Type": "application/json"})
    try:
        with urlopen(req, timeout=max(0.1, min(3, end - time.time()))) as r:
            code = r.status
    except HTTPError as e:
        code = e.code
    except URLError:
        # claim system down: don't throw the claim away, it goes back and we try later
        ch.basic_nack(m.delivery_tag, requeue=True)
        continue
    except TimeoutError:
        code = "timeout"
    print(mid, code, "redelivered" if m.redelivered else "")
    if code == 201:
        db.execute("insert or ignore into done values (?)", (mid,))
        db.commit()
        ch.basic_ack(m.delivery_tag)
    elif code == 422:
        ch.basic_reject(m.delivery_tag, requeue=False)
    elif m.redelivered:
        ch.basic_reject(m.delivery_tag, requeue=False)
    else:
        ch.basic_nack(m.delivery_tag, requeue=True)

c.close()
