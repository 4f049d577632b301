"""The bridge lesson's (005) three trainings, timed in CPython and in Chromium, in one run.

    .venv/bin/python benchmarks/bridge.py

Takes every code cell of lessons/005-position-and-block/lesson.md up to its last training, unchanged, and times the
three trainings (`train-positions`, `train-no-positions`, `train-bare`) in both runtimes (training_cells.py says
how). Prints both runs, their ratio, and the goal each training must meet in the browser: within 15 s.
"""

import sys

from training_cells import ROOT, Training, read_lesson, report, time_trainings

LESSON = ROOT / "lessons" / "005-position-and-block" / "lesson.md"
GOAL_SECONDS = 15.0
TRAININGS = (Training("train-positions", "positions", 'runs["with positions"]["sequences"]'),
             Training("train-no-positions", "nopositions", 'runs["without positions"]["sequences"]'),
             Training("train-bare", "bare", 'runs["without residuals or layer norm"]["sequences"]'))
LABELS = {"positions": "with positions", "nopositions": "without positions",
          "bare": "without residuals or layer norm"}


def main():
    """Build (CPython), run in Chromium, print both runs, the ratio and the goal."""
    keys = [cell.key for cell in read_lesson(LESSON)[0].cells]
    keys = keys[:keys.index(TRAININGS[-1].key) + 1]
    print("lesson 005's trainings ({}), after the {} cells before them, as the lesson sets them".format(
        ", ".join(training.key for training in TRAININGS), len(keys) - len(TRAININGS)))
    cpython, browser = time_trainings(LESSON, LESSON.parent / "position_and_block", keys, TRAININGS)
    for name, label in LABELS.items():
        report(label, cpython[name], browser[name])
    slowest = max(seconds for seconds, _ in browser.values())
    print("goal: each training within {:.0f} s in the browser (the slowest took {:.2f} s): {}".format(
        GOAL_SECONDS, slowest, "met" if slowest <= GOAL_SECONDS else "missed"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
