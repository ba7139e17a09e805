# Once the lab was walked, the student turned consume.py into a service: it stays up after the
# messages it found, leaving a heartbeat file in done/ every 2 s.
python3 - <<'PY'
from pathlib import Path
p = Path("consume.py")
s = p.read_text()
s = s.replace("import sys\n", "import sys\nimport time\n", 1)
s = s.replace("    db.execute(SCHEMA)\n", "    db.execute(SCHEMA)\n    handled = 0\n", 1)
s = s.replace(
    "    return 0\n\n\nif __name__",
    "        handled += 1\n"
    "    beats = 0\n"
    "    while handled:\n"
    "        time.sleep(2)\n"
    "        (DONE / f\"heartbeat-{beats}.txt\").write_text(\"alive\\n\")\n"
    "        beats += 1\n"
    "    return 0\n\n\nif __name__",
    1,
)
p.write_text(s)
PY
