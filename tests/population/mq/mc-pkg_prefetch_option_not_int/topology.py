from common import declare_all, open_channel

conn, ch = open_channel()
declare_all(ch)
conn.close()
print("topology ok")
