"""Lesson 004's mini-project: its own training cells timed in CPython and in Chromium, in one run.

    .venv/bin/python benchmarks/miniproject.py

Takes lesson 004's cells by their ids (`inicio`, the imports; `mp-dos-bloques`, the data and the
two-block training; `mp-un-bloque`, the one-block training; `mp-un-bloque-6` and `mp-seis-epocas`,
the six-epoch runs that the page's Run all skips), unchanged, and times each training in both runtimes
(training_cells.py says how). Prints both runs, their ratio, the goal (99 % held-out sequences within
15 s in the browser; the one-block run within 15 s) and the machine's load average before and after.
"""

import sys

from training_cells import ROOT, Training, report, time_trainings

LESSON = ROOT / "lessons" / "004-ejercicios-atencion" / "lesson.md"
GOAL_SECONDS, GOAL_ACCURACY = 15.0, 0.99
TRAININGS = (Training("mp-dos-bloques", "two", 'historia[-1]["sequences"]'),
             Training("mp-un-bloque", "one", 'historia_1[-1]["sequences"]'),
             Training("mp-un-bloque-6", "one6", 'historia_1_6[-1]["sequences"]'),
             Training("mp-seis-epocas", "two6", 'historia_2_6[-1]["sequences"]'))
LABELS = {"two": "2 blocks", "one": "1 block", "one6": "1 block, 6 epochs", "two6": "2 blocks, 6 epochs"}


def main():
    """Build (CPython), run in Chromium, print both runs, the ratio and the goal."""
    print("lesson 004's mini-project cells (mp-dos-bloques, mp-un-bloque, mp-un-bloque-6, mp-seis-epocas), as the "
          "lesson sets them")
    keys = ["inicio"] + [training.key for training in TRAININGS]
    cpython, browser = time_trainings(LESSON, LESSON.parent / "ejercicios_atencion", keys, TRAININGS)
    for name, label in LABELS.items():
        report(label, cpython[name], browser[name])
    two_seconds, two_accuracy = browser["two"]
    met = two_accuracy >= GOAL_ACCURACY and two_seconds <= GOAL_SECONDS and browser["one"][0] <= GOAL_SECONDS
    print("goal: >= {:.0%} held-out sequences in <= {:.0f} s in the browser, one block <= {:.0f} s: {}".format(
        GOAL_ACCURACY, GOAL_SECONDS, GOAL_SECONDS, "met" if met else "missed"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
