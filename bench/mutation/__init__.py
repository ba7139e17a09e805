"""Mutation testing of the reference solutions against the grader: ./dev.sh mutants."""
