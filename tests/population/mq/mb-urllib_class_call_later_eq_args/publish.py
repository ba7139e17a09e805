import json
import os
import sys
import time

import pika
from pika.exceptions import NackError, UnroutableError

EXIT_USAGE, EXIT_UNROUTABLE, EXIT_NACKED = 64, 3, 4


class ClaimPublisher:
    def __init__(self, url):
        self.connection = pika.BlockingConnection(pika.URLParameters(url))
        self.channel = self.connection.channel()
        self.channel.confirm_delivery()

    def publish(self, claim):
        body = json.dumps(claim, ensure_ascii=False).encode("utf-8")
        props = pika.BasicProperties(
            content_type="application/json",
            content_encoding="utf-8",
            delivery_mode=pika.DeliveryMode.Persistent,
            message_id=claim["guid"],
            timestamp=int(time.time()),
            app_id="publish.py",
        )
        self.channel.basic_publish("eai.claim", "claim", body, props, mandatory=True)

    def close(self):
        if self.connection.is_open:
            self.connection.close()


def main():
    if len(sys.argv) < 2:
        sys.stderr.write("usage: python3 publish.py CLAIM_JSON_FILE\n")
        return EXIT_USAGE
    with open(sys.argv[1], encoding="utf-8") as fh:
        claim = json.load(fh)
    pub = ClaimPublisher(os.getenv("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F"))
    try:
        pub.publish(claim)
    except UnroutableError:
        sys.stderr.write("ERROR unroutable (no queue bound for key 'claim')\n")
        return EXIT_UNROUTABLE
    except NackError:
        sys.stderr.write("ERROR broker refused the message (nack)\n")
        return EXIT_NACKED
    finally:
        pub.close()
    print(f"published {claim['guid']} ({claim.get('claimId')}) confirmed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
