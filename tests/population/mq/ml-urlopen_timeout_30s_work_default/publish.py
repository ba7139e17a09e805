"""python3 publish.py CLAIM.json -- exit 0 only when the broker confirmed the claim."""
import json
import os
import sys

import pika

url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")


def main(path):
    with open(path, "rb") as f:
        body = f.read()
    claim = json.loads(body.decode("utf-8"))
    properties = pika.BasicProperties(
        content_type="application/json",
        delivery_mode=2,
        message_id=claim["guid"],
        type="insurance.claim.v1",
        headers={"claimId": claim.get("claimId"), "amount": claim.get("amount")},
    )
    connection = pika.BlockingConnection(pika.URLParameters(url))
    channel = connection.channel()
    channel.confirm_delivery()
    try:
        channel.basic_publish(exchange="eai.claim", routing_key="claim", body=body,
                              properties=properties, mandatory=True)
    except pika.exceptions.UnroutableError:
        print("returned: unroutable", file=sys.stderr)
        return 10
    except pika.exceptions.NackError:
        print("nacked by broker", file=sys.stderr)
        return 11
    finally:
        connection.close()
    print("confirmed", claim["guid"])
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: publish.py CLAIM.json")
    sys.exit(main(sys.argv[1]))
