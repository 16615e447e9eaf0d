"""The helpers of this folder (`inspect_helpers`) are importable by its test modules."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
