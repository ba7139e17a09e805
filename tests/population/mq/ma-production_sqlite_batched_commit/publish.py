"""publish.py CLAIM_JSON_FILE: confirmed, mandatory publish of one claim."""
import argparse
import json
import logging
import os
import sys
import time

import pika
from pika.exceptions import AMQPConnectionError, NackError, UnroutableError

logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
logging.getLogger("pika").setLevel(logging.CRITICAL)
log = logging.getLogger("publish")


def connect(params, attempts=3):
    for i in range(attempts):
        try:
            return pika.BlockingConnection(params)
        except AMQPConnectionError as exc:
            log.warning("connect attempt %d failed: %s", i + 1, exc)
            time.sleep(0.5 * (i + 1))
    raise SystemExit(4)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("claim_file", type=argparse.FileType("rb"))
    args = ap.parse_args()
    body = args.claim_file.read()
    guid = json.loads(body)["guid"]
    conn = connect(pika.URLParameters(os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
    try:
        ch = conn.channel()
        ch.confirm_delivery()
        ch.basic_publish("eai.claim", "claim", body,
                         pika.BasicProperties(delivery_mode=2, message_id=guid, content_type="application/json"),
                         mandatory=True)
        log.info("published %s", guid)
        return 0
    except UnroutableError:
        log.error("unroutable: %s", guid)
        return 2
    except NackError:
        log.error("nacked: %s", guid)
        return 3
    finally:
        conn.close()


if __name__ == "__main__":
    sys.exit(main())
