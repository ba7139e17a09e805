"""Checks of the 'queue' lab (Q1.1 … Q8.3)."""
