"""publish.py CLAIM_JSON_FILE: publish one claim, confirmed and mandatory."""
import json
import os
import sys

import pika

DEFAULT_URL = "amqp://guest:guest@127.0.0.1:5672/%2F"
EXIT_OK, EXIT_USAGE, EXIT_UNROUTABLE, EXIT_NACKED, EXIT_BAD_INPUT = 0, 64, 3, 4, 65


def main(argv) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return EXIT_USAGE
    try:
        with open(argv[1], "rb") as fh:
            body = fh.read()
        guid = json.loads(body)["guid"]
    except (OSError, ValueError, KeyError) as exc:
        print(f"cannot read a claim with a guid from {argv[1]}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT

    url = os.environ.get("EAI_AMQP_URL", DEFAULT_URL)
    with pika.BlockingConnection(pika.URLParameters(url)) as connection:
        channel = connection.channel()
        channel.confirm_delivery()
        try:
            channel.basic_publish(
                exchange="eai.claim",
                routing_key="claim",
                body=body,
                properties=pika.BasicProperties(content_type="application/json", delivery_mode=2, message_id=guid),
                mandatory=True,
            )
        except pika.exceptions.UnroutableError:
            print(f"{guid}: unroutable", file=sys.stderr)
            return EXIT_UNROUTABLE
        except pika.exceptions.NackError:
            print(f"{guid}: nacked by the broker", file=sys.stderr)
            return EXIT_NACKED
    print(f"{guid}: confirmed", file=sys.stderr)
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main(sys.argv))
