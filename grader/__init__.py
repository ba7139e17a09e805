"""The pytest grader of the 'queue' and 'mq' labs."""
