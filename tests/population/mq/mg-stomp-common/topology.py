# declare destinations (like activemq's <destinations>, but explicit)
from mqcommon import *

conn = connect()
ch = conn.channel()

# queues first, then exchanges, then the wiring
ch.queue_declare(queue=IN_QUEUE, durable=True,
                 arguments={"x-dead-letter-exchange": DEAD_EXCHANGE, "x-dead-letter-routing-key": DEAD_KEY})
ch.queue_declare(queue=DEAD_QUEUE, durable=True)
ch.exchange_declare(exchange=CLAIM_EXCHANGE, exchange_type="direct", durable=True, arguments={})
ch.exchange_declare(exchange=DEAD_EXCHANGE, exchange_type="direct", durable=True, arguments={})
ch.queue_bind(queue=IN_QUEUE, exchange=CLAIM_EXCHANGE, routing_key=IN_KEY)
ch.queue_bind(queue=DEAD_QUEUE, exchange=DEAD_EXCHANGE, routing_key=DEAD_KEY)

conn.close()
print("declared:", CLAIM_EXCHANGE, DEAD_EXCHANGE, IN_QUEUE, DEAD_QUEUE)
