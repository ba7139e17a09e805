"""Programs the grader runs inside a box (or as a script's launcher on the host): each is run
as ``python -I -S FILE``, imports nothing of the grader, and this directory alone is shown to
a box (read-only, at /run/lab-grader)."""
