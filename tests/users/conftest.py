"""`import user_cases` (this folder's helpers) from the tests here and the measuring script."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
