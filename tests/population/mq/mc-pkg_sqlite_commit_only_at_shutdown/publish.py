"""python3 publish.py CLAIM_JSON_FILE"""
import json
import sys

import pika

import cfg
import mqcommon


def main(path):
    with open(path, "rb") as f:
        body = f.read()
    message_id = json.loads(body)["guid"]
    conn = mqcommon.connection()
    ch = conn.channel()
    ch.confirm_delivery()
    try:
        ch.basic_publish(cfg.CLAIM_EXCHANGE, cfg.CLAIM_KEY, body,
                         pika.BasicProperties(content_type="application/json", delivery_mode=2,
                                              message_id=message_id),
                         mandatory=True)
    except pika.exceptions.UnroutableError:
        print("ERROR unroutable", file=sys.stderr)
        return 1
    except pika.exceptions.NackError:
        print("ERROR nacked", file=sys.stderr)
        return 1
    finally:
        conn.close()
    print("published", message_id)
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
