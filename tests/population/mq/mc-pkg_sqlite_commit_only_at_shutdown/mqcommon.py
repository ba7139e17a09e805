"""Shared pieces of the mq lab."""
import sqlite3
import time

import pika

import cfg


def connection():
    return pika.BlockingConnection(pika.URLParameters(cfg.AMQP_URL))


def declare(ch):
    ch.exchange_declare(exchange=cfg.CLAIM_EXCHANGE, exchange_type="direct", durable=True)
    ch.exchange_declare(exchange=cfg.DEAD_EXCHANGE, exchange_type="direct", durable=True)
    ch.queue_declare(queue=cfg.CLAIM_QUEUE, durable=True, arguments={
        "x-dead-letter-exchange": cfg.DEAD_EXCHANGE,
        "x-dead-letter-routing-key": cfg.DEAD_KEY,
    })
    ch.queue_declare(queue=cfg.DEAD_QUEUE, durable=True)
    ch.queue_bind(queue=cfg.CLAIM_QUEUE, exchange=cfg.CLAIM_EXCHANGE, routing_key=cfg.CLAIM_KEY)
    ch.queue_bind(queue=cfg.DEAD_QUEUE, exchange=cfg.DEAD_EXCHANGE, routing_key=cfg.DEAD_KEY)


class ProcessedLog:
    """message_ids the claim system accepted. Use as a context manager: the
    writes of one consumer run are committed together when it stops."""

    def __init__(self, path=None):
        self.path = path or cfg.MQ_DB

    def __enter__(self):
        self.db = sqlite3.connect(self.path)
        self.db.execute("CREATE TABLE IF NOT EXISTS processed_log (message_id TEXT PRIMARY KEY, accepted_at REAL)")
        self.db.commit()
        return self

    def __contains__(self, message_id):
        return self.db.execute("SELECT 1 FROM processed_log WHERE message_id=?", (message_id,)).fetchone() is not None

    def add(self, message_id):
        self.db.execute("INSERT OR IGNORE INTO processed_log VALUES (?, ?)", (message_id, time.time()))

    def __exit__(self, exc_type, exc, tb):
        self.db.commit()
        self.db.close()
        return False
