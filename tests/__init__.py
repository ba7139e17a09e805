"""Self-tests: they prove the grader by grading correct and wrong solutions."""
