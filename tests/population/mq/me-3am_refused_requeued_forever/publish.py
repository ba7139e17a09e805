import os, sys, json, pika
body = open(sys.argv[1], "rb").read()
g = json.loads(body)["guid"]
c = pika.BlockingConnection(pika.URLParameters(os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
ch = c.channel()
ch.confirm_delivery()
try:
    ch.basic_publish("eai.claim", "claim", body, pika.BasicProperties(delivery_mode=2, message_id=g, content_type="application/json"), mandatory=True)
except (pika.exceptions.UnroutableError, pika.exceptions.NackError) as e:
    print("FAIL", repr(e))
    c.close()
    sys.exit(1)
c.close()
print("ok", g)
