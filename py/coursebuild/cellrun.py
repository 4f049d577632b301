"""Run a lesson's cells in a fresh CPython process (`python -m coursebuild.cellrun`).

Reads {"label": str, "cells": [{"id": int, "code": str}]} as JSON on stdin and
writes {"results": [{"ok": bool, "output": [...]}], "glue": {name: value}} on
stdout. A separate
process keeps lessons from sharing state and lets the build stop a cell that
never ends.
"""

import asyncio
import json
import sys

from course.glue import glued
from course.runner import Session


async def run_all(request):
    """Run every cell in order in one namespace, as the page does."""
    session = Session(cell_label=request["label"])
    return [await session.run(cell["id"], cell["code"]) for cell in request["cells"]]


def main():
    """Read the request, run it, print the results."""
    request = json.load(sys.stdin)
    stdout = sys.stdout
    results = asyncio.run(run_all(request))
    stdout.write(json.dumps({"results": results, "glue": glued()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
