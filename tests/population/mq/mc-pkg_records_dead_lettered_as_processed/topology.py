import common

conn, ch = common.channel()
common.declare(ch)
conn.close()
print("topology declared")
