import logging

from eaimq import amqp
from eaimq.config import settings

logging.basicConfig(level=settings.log_level)
logging.getLogger("pika").setLevel(logging.WARNING)

conn = amqp.connect()
amqp.declare(conn.channel())
conn.close()
