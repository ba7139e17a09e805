import sqlite3

import pika

import settings


def open_channel():
    conn = pika.BlockingConnection(pika.URLParameters(settings.AMQP_URL))
    return conn, conn.channel()


def declare_all(ch):
    ch.exchange_declare(settings.EXCHANGE, exchange_type="direct", durable=True)
    ch.exchange_declare(settings.DLX, exchange_type="direct", durable=True)
    ch.queue_declare(settings.IN_QUEUE, durable=True, arguments={
        "x-dead-letter-exchange": settings.DLX,
        "x-dead-letter-routing-key": settings.DEAD_KEY,
    })
    ch.queue_declare(settings.DEAD_QUEUE, durable=True)
    ch.queue_bind(settings.IN_QUEUE, settings.EXCHANGE, routing_key=settings.ROUTING_KEY)
    ch.queue_bind(settings.DEAD_QUEUE, settings.DLX, routing_key=settings.DEAD_KEY)


class Dedup:
    def __init__(self, path=settings.DB_PATH):
        self.conn = sqlite3.connect(path)
        self.conn.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY, done_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP)")
        self.conn.commit()

    def seen(self, message_id):
        return self.conn.execute("SELECT 1 FROM processed WHERE message_id = ?", (message_id,)).fetchone() is not None

    def mark(self, message_id):
        self.conn.execute("INSERT OR IGNORE INTO processed (message_id) VALUES (?)", (message_id,))
        self.conn.commit()
