"""Shared helpers for the mq lab scripts (connection with retries, logging setup)."""
from __future__ import annotations

import logging
import os
import time

import pika
from pika.exceptions import AMQPConnectionError

DEFAULT_URL = "amqp://guest:guest@127.0.0.1:5672/%2F"
log = logging.getLogger("eai.mq")


def amqp_url() -> str:
    return os.environ.get("EAI_AMQP_URL", DEFAULT_URL)


def setup_logging(level: str) -> None:
    logging.basicConfig(
        level=getattr(logging, level.upper(), logging.INFO),
        format="%(asctime)s %(levelname)-7s %(name)s %(message)s",
    )
    logging.getLogger("pika").setLevel(logging.WARNING)


def connect(attempts: int = 5, backoff: float = 0.5, give_up_at: float | None = None) -> pika.BlockingConnection:
    """BlockingConnection with a bounded number of retries on connection errors."""
    params = pika.URLParameters(amqp_url())
    last: Exception | None = None
    for attempt in range(1, attempts + 1):
        try:
            return pika.BlockingConnection(params)
        except AMQPConnectionError as exc:
            last = exc
            wait = backoff * attempt
            if give_up_at is not None and time.monotonic() + wait >= give_up_at:
                break
            log.warning("AMQP connect attempt %d/%d failed (%r), retrying in %.1fs", attempt, attempts, exc, wait)
            time.sleep(wait)
    assert last is not None
    raise last
