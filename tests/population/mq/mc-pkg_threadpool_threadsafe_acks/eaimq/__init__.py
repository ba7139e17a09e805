"""eaimq: the mq lab (claims through RabbitMQ)."""
