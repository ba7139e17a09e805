"""Declare the claim topology (idempotent: safe to run again)."""
from common import connect, declare_topology, log


def main():
    conn = connect()
    try:
        declare_topology(conn.channel())
    finally:
        conn.close()
    log.info("topology declared")


if __name__ == "__main__":
    main()
