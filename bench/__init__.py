"""`make bench`: the benchmarks (see bench/run.py). Run any module as `python -m bench.<module>`
from the repository's root.

The layer package ``convmem`` is not installed: Lambda mounts it at /opt/python, the local stack
puts it on the path when it loads a function (local/lambda_runtime.py), and a bench process finds
it here, once, for every module of bench/ (none edits the path itself).
"""

import sys
from pathlib import Path

_LAYER = str(Path(__file__).resolve().parent.parent / "layers" / "convmem")
if _LAYER not in sys.path:
    sys.path.insert(0, _LAYER)
