"""Everything that comes from the environment, read in one place."""
import os
from dataclasses import dataclass, field


def _env(name, default):
    value = os.environ.get(name)
    return default if value in (None, "") else value


@dataclass(frozen=True)
class Settings:
    amqp_url: str = field(default_factory=lambda: _env("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F"))
    db_path: str = field(default_factory=lambda: _env("EAI_MQ_DB", "/root/eaimw/mq/processed.db"))
    http_timeout: float = field(default_factory=lambda: float(_env("EAI_HTTP_TIMEOUT", "4")))
    log_level: str = field(default_factory=lambda: _env("EAI_LOG_LEVEL", "INFO"))


EXCHANGE, DLX = "eai.claim", "eai.dlx"
QUEUE, DEAD_QUEUE = "claim.in", "claim.dead"
KEY, DEAD_KEY = "claim", "claim.dead"
DEFAULT_PREFETCH = 5

settings = Settings()
