"""Solutions the grader must accept (written differently) or reject (one mistake each)."""
