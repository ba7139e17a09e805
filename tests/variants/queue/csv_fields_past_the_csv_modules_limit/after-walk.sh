# Once the lab was walked, the student pasted a whole message, repeated, into a note of
# schema.csv and into a reason of error.csv: a field of 140,000 characters, past the csv
# module's default limit (128 Ki), which once made every id of the grade a grader error.
python3 - <<'PY'
from pathlib import Path
note = "x" * 140_000
with open("schema.csv", "a") as f:
    f.write(f'note,string,"{note}"\n')
with open("error.csv", "a") as f:
    f.write(f'note.json,"{note}"\n')
PY
