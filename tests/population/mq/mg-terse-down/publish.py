import json, os, sys, pika
body = open(sys.argv[1], "rb").read()
c = pika.BlockingConnection(pika.URLParameters(os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
ch = c.channel()
ch.confirm_delivery()
try:
    ch.basic_publish("eai.claim", "claim", body, pika.BasicProperties(
        delivery_mode=2, message_id=json.loads(body)["guid"], content_type="application/json"), mandatory=True)
except (pika.exceptions.UnroutableError, pika.exceptions.NackError) as e:
    sys.exit("publish failed: %r" % e)
finally:
    c.close()
