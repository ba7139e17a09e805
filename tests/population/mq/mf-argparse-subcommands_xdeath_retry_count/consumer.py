#!/usr/bin/env python3
import sys

from claimq import main

sys.exit(main(["consume", *sys.argv[1:]]))
