"""Reference solutions of both labs, and the walkthrough that performs their steps."""
