"""Shared helpers: connection, topology, processed-message store."""
import datetime
import logging
import sqlite3

import pika

import config

logging.basicConfig(level=config.LOG_LEVEL, format="%(asctime)s %(name)s %(levelname)s %(message)s")
logging.getLogger("pika").setLevel(logging.WARNING)
log = logging.getLogger("eaimw.mq")

EXCHANGES = [
    (config.EXCHANGE, "direct"),
    (config.DLX, "direct"),
]
QUEUES = [
    (config.QUEUE, {"x-dead-letter-exchange": config.DLX, "x-dead-letter-routing-key": config.DEAD_ROUTING_KEY}),
    (config.DEAD_QUEUE, None),
]
BINDINGS = [
    (config.QUEUE, config.EXCHANGE, config.ROUTING_KEY),
    (config.DEAD_QUEUE, config.DLX, config.DEAD_ROUTING_KEY),
]


def connect():
    return pika.BlockingConnection(pika.URLParameters(config.AMQP_URL))


def declare_topology(channel):
    for name, kind in EXCHANGES:
        channel.exchange_declare(exchange=name, exchange_type=kind, durable=True)
        log.info("exchange %s (%s) ok", name, kind)
    for name, args in QUEUES:
        channel.queue_declare(queue=name, durable=True, arguments=args)
        log.info("queue %s ok", name)
    for queue, exchange, key in BINDINGS:
        channel.queue_bind(queue=queue, exchange=exchange, routing_key=key)
        log.info("binding %s -[%s]-> %s ok", exchange, key, queue)


class ProcessedStore:
    """message_ids whose claim the claim system accepted (201)."""

    def __init__(self, path=None):
        self.path = path or config.DB_PATH
        self.db = sqlite3.connect(self.path)
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS processed ("
            " message_id TEXT PRIMARY KEY,"
            " claim_id TEXT,"
            " http_status INTEGER NOT NULL,"
            " processed_at TEXT NOT NULL)"
        )
        self.db.commit()

    def seen(self, message_id):
        row = self.db.execute("SELECT 1 FROM processed WHERE message_id = ?", (message_id,)).fetchone()
        return row is not None

    def remember(self, message_id, claim_id, http_status):
        now = datetime.datetime.now(datetime.timezone.utc).isoformat()
        with self.db:  # commits before we return, i.e. before the ack
            self.db.execute(
                "INSERT OR REPLACE INTO processed (message_id, claim_id, http_status, processed_at) VALUES (?, ?, ?, ?)",
                (message_id, claim_id, http_status, now),
            )

    def close(self):
        self.db.close()
