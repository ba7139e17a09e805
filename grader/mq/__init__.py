"""Checks of the 'mq' lab (M1.1 … M8.4)."""
