rm -f done/_SUCCESS
