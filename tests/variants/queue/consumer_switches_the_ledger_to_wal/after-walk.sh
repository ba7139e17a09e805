# Once the lab was walked (its ledger made in SQLite's default rollback journal), the student
# switched consume.py to WAL, so that readers never wait for the writer.
python3 - <<'PY'
from pathlib import Path
p = Path("consume.py")
s = p.read_text()
s = s.replace("    db.execute(SCHEMA)\n", '    db.execute("PRAGMA journal_mode=WAL")\n    db.execute(SCHEMA)\n', 1)
p.write_text(s)
PY
