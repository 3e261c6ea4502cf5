"""`python -m bench` is `make bench` (see bench/run.py)."""

import sys

from bench.run import main

sys.exit(main())
