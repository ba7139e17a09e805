"""python3 topology.py: declare exchanges, queues and bindings (idempotent)."""
import mqcommon

if __name__ == "__main__":
    conn = mqcommon.connection()
    mqcommon.declare(conn.channel())
    conn.close()
    print("declared eai.claim, eai.dlx, claim.in, claim.dead")
