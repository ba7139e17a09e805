"""Machinery the checks stand on: runners, snapshots, observers, brokers. No checks here."""
