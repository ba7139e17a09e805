"""The 'mq' lab: insurance claims through RabbitMQ (M1.1 … M8.4)."""

from grader.mq.catalogue import MQ as LAB

__all__ = ["LAB"]
