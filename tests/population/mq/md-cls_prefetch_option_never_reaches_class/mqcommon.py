"""Shared helpers for the mq lab scripts."""
import http.client
import os
import sqlite3
import urllib.parse
from dataclasses import dataclass

import pika

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_PATH = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")


def open_channel():
    conn = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    return conn, conn.channel()


@dataclass
class Reply:
    status: int = 0          # 0 = no HTTP answer at all
    error: str = ""

    @property
    def accepted(self):
        return self.status == 201

    @property
    def rejected(self):
        return self.status == 422


class ClaimClient:
    def __init__(self, base_url, timeout=3.0):
        parts = urllib.parse.urlsplit(base_url)
        self.host = parts.hostname
        self.port = parts.port or 80
        self.path = parts.path.rstrip("/") + "/v1/claims"
        self.timeout = timeout

    def post(self, body):
        conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        try:
            conn.request("POST", self.path, body, {"Content-Type": "application/json"})
            resp = conn.getresponse()
            resp.read()
            return Reply(resp.status)
        except (OSError, http.client.HTTPException) as e:
            return Reply(0, repr(e))
        finally:
            conn.close()


class ProcessedStore:
    def __init__(self, path=DB_PATH):
        self.db = sqlite3.connect(path)
        self.db.execute("CREATE TABLE IF NOT EXISTS processed ("
                        "message_id TEXT PRIMARY KEY, "
                        "ts TEXT DEFAULT CURRENT_TIMESTAMP)")
        self.db.commit()

    def __contains__(self, message_id):
        return self.db.execute("SELECT 1 FROM processed WHERE message_id=?",
                               (message_id,)).fetchone() is not None

    def add(self, message_id):
        self.db.execute("INSERT OR IGNORE INTO processed (message_id) VALUES (?)",
                        (message_id,))
        self.db.commit()
