#!/usr/bin/env python3
"""Declare eai.claim / eai.dlx / claim.in / claim.dead and their bindings."""
import claimmq


def main():
    conn = claimmq.connect()
    try:
        claimmq.Topology().declare(conn.channel())
    finally:
        conn.close()
    print("topology declared")


if __name__ == "__main__":
    main()
