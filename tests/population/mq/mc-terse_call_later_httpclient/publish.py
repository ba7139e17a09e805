import json, os, sys, pika

data = open(sys.argv[1], "rb").read()
ch = pika.BlockingConnection(pika.URLParameters(os.getenv("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F"))).channel()
ch.confirm_delivery()
try:
    ch.basic_publish("eai.claim", "claim", data, pika.BasicProperties(
        delivery_mode=2, message_id=json.loads(data)["guid"], content_type="application/json"), mandatory=True)
except Exception as e:
    print("FAILED", type(e).__name__, e)
    sys.exit(1)
finally:
    ch.connection.close()
print("OK")
