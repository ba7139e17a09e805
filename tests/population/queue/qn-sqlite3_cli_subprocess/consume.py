#!/usr/bin/env python3
# consume.py - the DB work is done by the sqlite3 command line tool (same one I use by hand)
import json
import math
import os
import subprocess
import sys

Q = '/root/q'
DB = Q + '/ledger.db'
REQUIRED = ['msg_id', 'order_no', 'seq', 'amount']

INIT = '''
CREATE TABLE IF NOT EXISTS processed(
  msg_id       TEXT NOT NULL CONSTRAINT uq_processed_msg_id UNIQUE,
  order_no     TEXT,
  seq          INTEGER,
  amount       NUMERIC,
  processed_at TEXT
);
'''


def sqlite(script):
    # .timeout: wait for the other consumer's lock instead of failing with "database is locked"
    p = subprocess.run(['sqlite3', '-batch', '-bail', DB],
                       input='.timeout 30000\n' + script,
                       capture_output=True, text=True, encoding='utf-8')
    if p.returncode != 0:
        raise RuntimeError('sqlite3 failed: ' + p.stderr.strip())
    return p.stdout


def lit(v):
    """python value -> SQL literal"""
    if isinstance(v, bool):
        return '1' if v else '0'
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float) and math.isfinite(v):
        return repr(v)
    if not isinstance(v, str):
        v = json.dumps(v, ensure_ascii=False)
    return "'" + v.replace("'", "''") + "'"


def parse(path):
    try:
        with open(path, encoding='utf-8') as f:
            m = json.load(f)
    except (ValueError, UnicodeError):
        return None, 'parse'
    if type(m) is not dict:
        return None, 'parse'
    for k in REQUIRED:
        if k not in m or m[k] is None:
            return None, 'missing-field'
    return m, None


def main():
    sqlite(INIT)
    while True:
        names = sorted(os.listdir(Q + '/inbox'))
        if not names:
            break
        progressed = False
        for name in names:
            src = Q + '/inbox/' + name
            cur = Q + '/processing/' + name
            if not os.path.isfile(src):
                continue
            try:
                os.rename(src, cur)          # claim
            except FileNotFoundError:
                continue                     # taken by someone else
            progressed = True
            m, why = parse(cur)
            if why:
                os.rename(cur, Q + '/error/' + name)
                print('ERROR  %-20s %s' % (name, why))
                continue
            out = sqlite(
                "INSERT INTO processed(msg_id, order_no, seq, amount, processed_at) "
                "VALUES(%s, %s, %s, %s, strftime('%%Y-%%m-%%d %%H:%%M:%%f', 'now', 'localtime')) "
                "ON CONFLICT DO NOTHING;\nSELECT changes();\n"
                % (lit(m['msg_id']), lit(m['order_no']), lit(m['seq']), lit(m['amount'])))
            if out.strip() == '0':
                print('DUP    %-20s %s' % (name, m['msg_id']))
            else:
                print('OK     %-20s %s' % (name, m['msg_id']))
            os.rename(cur, Q + '/done/' + name)
        if not progressed:
            break


main()
