"""Shared bits for the claim scripts: config from the environment and JSON logging."""
from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import dataclass, field

DEFAULT_AMQP_URL = "amqp://guest:guest@127.0.0.1:5672/%2F"
DEFAULT_DB = "/root/eaimw/mq/processed.db"

EXCHANGE = "eai.claim"
DLX = "eai.dlx"
ROUTING_KEY = "claim"
QUEUE_IN = "claim.in"
QUEUE_DEAD = "claim.dead"
DEAD_KEY = "claim.dead"


@dataclass(frozen=True)
class Settings:
    amqp_url: str = field(default_factory=lambda: os.environ.get("EAI_AMQP_URL", DEFAULT_AMQP_URL))
    db_path: str = field(default_factory=lambda: os.environ.get("EAI_MQ_DB", DEFAULT_DB))


def log(event: str, **fields) -> None:
    """One JSON object per line on stderr (grep/jq friendly)."""
    rec = {"ts": round(time.time(), 3), "event": event, **fields}
    print(json.dumps(rec, ensure_ascii=False, default=str), file=sys.stderr, flush=True)
