"""Grade solutions in a fresh CPython process (`python -m coursebuild.checkrun`).

Reads {"jobs": [{"name": str, "checker": str, "code": str}]} as JSON on stdin
and writes {"results": {name: grade result}} on stdout.
"""

import json
import sys

from course.exercise import grade


def main():
    """Grade every job and print the results."""
    request = json.load(sys.stdin)
    stdout = sys.stdout
    results = {job["name"]: grade(job["code"], job["checker"]) for job in request["jobs"]}
    stdout.write(json.dumps({"results": results}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
