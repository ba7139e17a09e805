"""ClaimConsumer: consumes claim.in and forwards each claim to the claim system."""
import argparse
import logging
import os
import sqlite3
import sys
import time

import requests

from topology import AmqpSettings, configure_logging

LOG = logging.getLogger("ClaimConsumer")


# ---- exceptions ---------------------------------------------------------------------------
class ClaimSystemException(Exception):
    """Base class of everything the claim system client raises."""


class BusinessRejectionException(ClaimSystemException):
    """422: the claim itself is refused (documents missing); retrying will not help."""


class TransientFailureException(ClaimSystemException):
    """503, connection failure, timeout: may work next time."""


class UnexpectedResponseException(ClaimSystemException):
    def __init__(self, status_code):
        super().__init__("Unexpected status %d" % status_code)
        self.status_code = status_code


# ---- collaborators ------------------------------------------------------------------------
class ProcessedMessageRepository:
    DEFAULT_PATH = "/root/eaimw/mq/processed.db"

    def __init__(self, path=None):
        self._path = path or os.environ.get("EAI_MQ_DB", self.DEFAULT_PATH)
        self._connection = sqlite3.connect(self._path)
        self._connection.execute(
            "CREATE TABLE IF NOT EXISTS processed_message ("
            " id INTEGER PRIMARY KEY AUTOINCREMENT,"
            " message_id VARCHAR(64) NOT NULL UNIQUE,"
            " processed_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP)"
        )
        self._connection.commit()

    def exists_by_message_id(self, message_id):
        cursor = self._connection.execute("SELECT COUNT(1) FROM processed_message WHERE message_id = ?", (message_id,))
        return cursor.fetchone()[0] > 0

    def save(self, message_id):
        self._connection.execute("INSERT OR IGNORE INTO processed_message (message_id) VALUES (?)", (message_id,))
        self._connection.commit()

    def close(self):
        self._connection.close()


class ClaimSystemClient:
    DEFAULT_TIMEOUT_SECONDS = 5.0

    def __init__(self, base_url):
        self._endpoint = base_url.rstrip("/") + "/v1/claims"
        self._session = requests.Session()

    def submit(self, payload, timeout_seconds):
        try:
            response = self._session.post(
                self._endpoint,
                data=payload,
                headers={"Content-Type": "application/json"},
                timeout=timeout_seconds,
            )
        except requests.exceptions.RequestException as ex:
            raise TransientFailureException(str(ex)) from ex
        if response.status_code == 201:
            return
        if response.status_code == 422:
            raise BusinessRejectionException(response.text)
        if response.status_code == 503:
            raise TransientFailureException("503 " + response.text)
        raise UnexpectedResponseException(response.status_code)


class ClaimConsumer:
    QUEUE = "claim.in"

    def __init__(self, settings, client, repository, max_seconds, prefetch):
        self._settings = settings
        self._client = client
        self._repository = repository
        self._deadline = time.monotonic() + max_seconds
        self._prefetch = prefetch

    def _remaining(self):
        return self._deadline - time.monotonic()

    def run(self):
        connection = self._settings.open_connection()
        channel = connection.channel()
        channel.basic_qos(prefetch_count=self._prefetch)
        LOG.info("Consuming %s with prefetch %d", self.QUEUE, self._prefetch)
        try:
            for method, properties, body in channel.consume(self.QUEUE, auto_ack=False, inactivity_timeout=0.5):
                if self._remaining() <= 0:
                    LOG.info("Max seconds reached, shutting down")
                    break
                if method is None:
                    continue
                self._handle(channel, method, properties, body)
            channel.cancel()
        finally:
            connection.close()

    def _handle(self, channel, method, properties, body):
        tag = method.delivery_tag
        message_id = properties.message_id
        if message_id is not None and self._repository.exists_by_message_id(message_id):
            LOG.info("Message %s already processed, acknowledging", message_id)
            channel.basic_ack(delivery_tag=tag)
            return
        timeout = max(0.2, min(ClaimSystemClient.DEFAULT_TIMEOUT_SECONDS, self._remaining()))
        try:
            self._client.submit(body, timeout)
        except BusinessRejectionException as ex:
            LOG.warning("Message %s rejected by claim system, dead-lettering: %s", message_id, ex)
            channel.basic_reject(delivery_tag=tag, requeue=False)
        except TransientFailureException as ex:
            if method.redelivered:
                LOG.error("Message %s failed again after redelivery, dead-lettering: %s", message_id, ex)
                channel.basic_reject(delivery_tag=tag, requeue=False)
            else:
                LOG.warning("Message %s failed transiently, requeueing: %s", message_id, ex)
                channel.basic_nack(delivery_tag=tag, requeue=True)
        except UnexpectedResponseException as ex:
            LOG.warning("Message %s: %s, requeueing", message_id, ex)
            channel.basic_nack(delivery_tag=tag, requeue=True)
        else:
            if message_id is not None:
                self._repository.save(message_id)
            channel.basic_ack(delivery_tag=tag)
            LOG.info("Message %s accepted (201) and acknowledged", message_id)


def main(argv):
    configure_logging()
    parser = argparse.ArgumentParser(prog="consumer.py")
    parser.add_argument("--claim", required=True)
    parser.add_argument("--max-seconds", type=float, required=True)
    parser.add_argument("--prefetch", type=int, default=5)
    args = parser.parse_args(argv)
    repository = ProcessedMessageRepository()
    try:
        ClaimConsumer(AmqpSettings(), ClaimSystemClient(args.claim), repository, args.max_seconds, args.prefetch).run()
    finally:
        repository.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
