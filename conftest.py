"""Root conftest: loads the grader plugin (nothing else)."""

pytest_plugins = ["grader.plugin"]
