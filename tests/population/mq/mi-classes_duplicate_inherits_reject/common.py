"""Shared bits for topology.py, publish.py and consumer.py."""
import os

import pika

DEFAULT_URL = "amqp://guest:guest@127.0.0.1:5672/%2F"


class AmqpScript:
    """Base class: one blocking connection + channel from EAI_AMQP_URL."""

    def __init__(self):
        self.url = os.environ.get("EAI_AMQP_URL", DEFAULT_URL)
        self.connection = None
        self.channel = None

    def __enter__(self):
        self.connection = pika.BlockingConnection(pika.URLParameters(self.url))
        self.channel = self.connection.channel()
        return self

    def __exit__(self, *exc):
        if self.connection is not None and self.connection.is_open:
            self.connection.close()
        return False
