import sqlite3
import time

import pika

import env

EXCHANGE, DLX, QUEUE, DEAD = "eai.claim", "eai.dlx", "claim.in", "claim.dead"


def channel():
    conn = pika.BlockingConnection(pika.URLParameters(env.AMQP_URL))
    return conn, conn.channel()


def declare(ch):
    ch.exchange_declare(EXCHANGE, "direct", durable=True)
    ch.exchange_declare(DLX, "direct", durable=True)
    ch.queue_declare(QUEUE, durable=True, arguments={"x-dead-letter-exchange": DLX,
                                                     "x-dead-letter-routing-key": DEAD})
    ch.queue_declare(DEAD, durable=True)
    ch.queue_bind(QUEUE, EXCHANGE, "claim")
    ch.queue_bind(DEAD, DLX, DEAD)


def open_db():
    db = sqlite3.connect(env.DB)
    db.execute("""CREATE TABLE IF NOT EXISTS handled (
                      message_id TEXT PRIMARY KEY,
                      outcome    TEXT NOT NULL,   -- accepted | rejected | dead
                      at         REAL NOT NULL)""")
    db.commit()
    return db


def handled(db, message_id):
    row = db.execute("SELECT outcome FROM handled WHERE message_id = ?", (message_id,)).fetchone()
    return row[0] if row else None


def mark(db, message_id, outcome):
    db.execute("INSERT OR REPLACE INTO handled VALUES (?, ?, ?)", (message_id, outcome, time.time()))
    db.commit()
