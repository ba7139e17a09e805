import os
import sys
import time
import sqlite3
import urllib.request
import urllib.error
import pika

amqp_url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
db_path = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")

# read the arguments
claim_url = None
max_seconds = None
prefetch = 5
i = 1
while i < len(sys.argv):
    if sys.argv[i] == "--claim":
        claim_url = sys.argv[i + 1]
        i = i + 2
    elif sys.argv[i] == "--max-seconds":
        max_seconds = float(sys.argv[i + 1])
        i = i + 2
    elif sys.argv[i] == "--prefetch":
        prefetch = int(sys.argv[i + 1])
        i = i + 2
    else:
        print("unknown argument:", sys.argv[i])
        sys.exit(2)

if claim_url is None or max_seconds is None:
    print("usage: python3 consumer.py --claim URL --max-seconds S [--prefetch N]")
    sys.exit(2)

start = time.time()

if claim_url.endswith("/"):
    claim_url = claim_url[:-1]
post_url = claim_url + "/v1/claims"

# database for processed message ids
db = sqlite3.connect(db_path)
db.execute("CREATE TABLE IF NOT EXISTS done (message_id TEXT)")
db.commit()

conn = pika.BlockingConnection(pika.URLParameters(amqp_url))
ch = conn.channel()
ch.basic_qos(prefetch_count=prefetch)

print("start consuming, max seconds =", max_seconds, "prefetch =", prefetch)

for method, props, body in ch.consume("claim.in", inactivity_timeout=0.5):
    if time.time() - start > max_seconds:
        print("time is up")
        break
    if method is None:
        continue

    message_id = props.message_id
    print("message", message_id, "redelivered:", method.redelivered)

    # already done?
    cur = db.execute("SELECT COUNT(*) FROM done WHERE message_id = ?", (message_id,))
    count = cur.fetchone()[0]
    if count > 0:
        print("already processed, only ack")
        ch.basic_ack(method.delivery_tag)
        continue

    # how long may the call take
    timeout = max_seconds - (time.time() - start)
    if timeout > 2:
        timeout = 2
    if timeout < 0.1:
        timeout = 0.1

    status = None
    try:
        req = urllib.request.Request(post_url, data=body, method="POST")
        req.add_header("Content-Type", "application/json")
        resp = urllib.request.urlopen(req, timeout=timeout)
        status = resp.status
        resp.read()
        resp.close()
    except urllib.error.HTTPError as e:
        status = e.code
    except Exception as e:
        print("call failed:", e)
        status = None

    print("status", status)

    if status == 201:
        db.execute("INSERT INTO done (message_id) VALUES (?)", (message_id,))
        db.commit()
        ch.basic_ack(method.delivery_tag)
    elif status == 422:
        ch.basic_reject(method.delivery_tag, requeue=False)
    elif status == 503:
        if method.redelivered:
            ch.basic_reject(method.delivery_tag, requeue=False)
        else:
            ch.basic_nack(method.delivery_tag, requeue=True)
    elif status is None:
        if method.redelivered:
            ch.basic_reject(method.delivery_tag, requeue=False)
        else:
            ch.basic_nack(method.delivery_tag, requeue=True)
    else:
        if method.redelivered:
            ch.basic_reject(method.delivery_tag, requeue=False)
        else:
            ch.basic_nack(method.delivery_tag, requeue=True)

ch.cancel()
conn.close()
db.close()
print("finished")
