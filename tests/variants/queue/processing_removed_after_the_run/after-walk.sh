rmdir processing
