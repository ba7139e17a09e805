import os
import json
import sqlite3
import datetime

# paths
BASE_DIR = '/root/q'
INBOX = os.path.join(BASE_DIR, 'inbox')
PROCESSING = os.path.join(BASE_DIR, 'processing')
DONE = os.path.join(BASE_DIR, 'done')
ERROR = os.path.join(BASE_DIR, 'error')

REQUIRED_FIELDS = ['msg_id', 'order_no', 'seq', 'amount']

# https://stackoverflow.com/questions/19522505/using-sqlite3-in-python-with-with-keyword
conn = sqlite3.connect(os.path.join(BASE_DIR, 'ledger.db'), timeout=30)
c = conn.cursor()
c.execute('''CREATE TABLE IF NOT EXISTS processed
             (msg_id TEXT PRIMARY KEY, order_no TEXT, seq INTEGER, amount NUMERIC, processed_at TEXT)''')
conn.commit()


def adapt(value):
    # "Error binding parameter - probably unsupported type"
    # https://stackoverflow.com/questions/16856647/sqlite3-programmingerror-incorrect-number-of-bindings-supplied
    if isinstance(value, (dict, list)):
        return json.dumps(value)
    # "OverflowError: Python int too large to convert to SQLite INTEGER"
    # https://stackoverflow.com/questions/7286171/python-int-too-large-to-convert-to-sqlite-integer
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 9223372036854775807:
        return str(value)
    return value


def handle_file(filename):
    path = os.path.join(PROCESSING, filename)
    try:
        with open(path, 'rb') as f:
            content = f.read()
    except (FileNotFoundError, IsADirectoryError):
        return
    # https://stackoverflow.com/questions/11294535/verify-if-a-string-is-json-in-python
    try:
        data = json.loads(content)
    except ValueError:
        data = None
    if not isinstance(data, dict):
        move(filename, PROCESSING, ERROR)
        print('ERROR', filename, 'parse')
        return
    # https://stackoverflow.com/questions/1285911/how-do-i-check-that-multiple-keys-are-in-a-dict-in-a-single-pass
    if not all(data.get(k) is not None for k in REQUIRED_FIELDS):
        move(filename, PROCESSING, ERROR)
        print('ERROR', filename, 'missing-field')
        return
    # https://stackoverflow.com/questions/19337029/insert-if-not-exists-statement-in-sqlite
    c.execute('INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount, processed_at) VALUES (?, ?, ?, ?, ?)',
              (adapt(data['msg_id']), adapt(data['order_no']), adapt(data['seq']), adapt(data['amount']),
               datetime.datetime.now().strftime('%Y-%m-%d %H:%M:%S')))
    conn.commit()
    # https://stackoverflow.com/questions/7270000/how-to-know-if-insert-or-ignore-actually-inserted
    if c.rowcount == 0:
        print('DUPLICATE', data['msg_id'])
    move(filename, PROCESSING, DONE)


def move(filename, src, dst):
    # https://stackoverflow.com/questions/8858008/how-to-move-a-file-in-python
    # os.rename is atomic on the same filesystem (shutil.move may copy)
    try:
        os.rename(os.path.join(src, filename), os.path.join(dst, filename))
        return True
    except FileNotFoundError:
        return False


# https://stackoverflow.com/questions/3207219/how-do-i-list-all-files-of-a-directory
def list_files(d):
    return sorted(f for f in os.listdir(d) if os.path.isfile(os.path.join(d, f)))


while True:
    files = list_files(INBOX)
    if not files:
        break
    for filename in files:
        if move(filename, INBOX, PROCESSING):
            handle_file(filename)

# leftovers in processing (crashed run)
for filename in list_files(PROCESSING):
    handle_file(filename)

conn.close()
