"""ClaimPublisher: publishes one claim JSON file with publisher confirms and mandatory routing."""
import json
import logging
import sys

import pika
from pika.exceptions import NackError, UnroutableError

from topology import AmqpSettings, ClaimTopology, configure_logging

LOG = logging.getLogger("ClaimPublisher")


class PublishFailedException(Exception):
    def __init__(self, message, exit_code):
        super().__init__(message)
        self.exit_code = exit_code


class ClaimPublisher:
    def __init__(self, settings):
        self._settings = settings

    def publish(self, claim_file):
        with open(claim_file, "rb") as stream:
            payload = stream.read()
        guid = json.loads(payload)["guid"]
        properties = pika.BasicProperties(
            content_type="application/json",
            delivery_mode=2,
            message_id=guid,
        )
        connection = self._settings.open_connection()
        try:
            channel = connection.channel()
            # make sure the infrastructure exists before sending (RabbitAdmin does this on startup)
            ClaimTopology(channel).declare()
            channel.confirm_delivery()
            try:
                channel.basic_publish(
                    exchange=ClaimTopology.CLAIM_EXCHANGE,
                    routing_key=ClaimTopology.CLAIM_ROUTING_KEY,
                    body=payload,
                    properties=properties,
                    mandatory=True,
                )
            except UnroutableError as ex:
                raise PublishFailedException("Message %s was returned as unroutable" % guid, 2) from ex
            except NackError as ex:
                raise PublishFailedException("Message %s was nacked by the broker" % guid, 3) from ex
            LOG.info("Message %s confirmed by the broker", guid)
        finally:
            if connection.is_open:
                connection.close()


def main(args):
    configure_logging()
    if len(args) != 1:
        LOG.error("Usage: publish.py CLAIM_JSON_FILE")
        return 1
    try:
        ClaimPublisher(AmqpSettings()).publish(args[0])
    except PublishFailedException as ex:
        LOG.error("%s", ex)
        return ex.exit_code
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
