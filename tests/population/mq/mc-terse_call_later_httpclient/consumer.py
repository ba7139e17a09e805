import argparse, http.client, os, sqlite3, time, urllib.parse, pika

p = argparse.ArgumentParser()
p.add_argument("--claim", required=True)
p.add_argument("--max-seconds", type=float, required=True)
p.add_argument("--prefetch", type=int, default=5)
a = p.parse_args()
u = urllib.parse.urlsplit(a.claim)
end = time.time() + a.max_seconds

db = sqlite3.connect(os.getenv("EAI_MQ_DB", "/root/eaimw/mq/processed.db"), isolation_level=None)  # autocommit
db.execute("CREATE TABLE IF NOT EXISTS seen (message_id TEXT PRIMARY KEY, at TEXT DEFAULT CURRENT_TIMESTAMP)")


def on_msg(ch, m, props, body):
    if time.time() >= end:
        return  # time is up, leave it for the next consumer
    if db.execute("SELECT 1 FROM seen WHERE message_id=?", (props.message_id,)).fetchone():
        print("dup", props.message_id)
        return ch.basic_ack(m.delivery_tag)
    try:
        h = http.client.HTTPConnection(u.hostname, u.port or 80, timeout=3)
        h.request("POST", u.path.rstrip("/") + "/v1/claims", body, {"Content-Type": "application/json"})
        code = h.getresponse().status
        h.close()
    except OSError as e:  # refused, timeout
        code = repr(e)
    print(props.message_id, code, m.redelivered)
    if code == 201:
        db.execute("INSERT OR IGNORE INTO seen (message_id) VALUES (?)", (props.message_id,))
        ch.basic_ack(m.delivery_tag)
    elif code == 422 or m.redelivered:
        ch.basic_nack(m.delivery_tag, requeue=False)  # -> eai.dlx
    else:
        ch.basic_nack(m.delivery_tag, requeue=True)


conn = pika.BlockingConnection(pika.URLParameters(os.getenv("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
ch = conn.channel()
ch.basic_qos(prefetch_count=a.prefetch)
ch.basic_consume("claim.in", on_msg)
conn.call_later(a.max_seconds, ch.stop_consuming)
ch.start_consuming()
conn.close()
