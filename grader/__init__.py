"""The pytest grader of the labs in its packages (see grader/labs.py)."""
