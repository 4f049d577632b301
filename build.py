#!/usr/bin/env python3
"""Build, serve or grade the course. Run `python build.py --help`."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "py"))

from coursebuild.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
