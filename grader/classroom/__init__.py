"""Grading a whole class: the submission format and packer, batch grading, the class report,
the Gradescope bundle and the one-submission grade used by Gradescope and GitHub Actions.

Every grade is a ``pytest grader`` subprocess (the command line is the contract); nothing here
imports the checks.
"""
