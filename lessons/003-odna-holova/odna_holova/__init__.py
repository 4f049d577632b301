"""Lesson 003's own code: its experiments, figures, explorables and checker, imported as `odna_holova`.

walkthrough: the 2-D one-head classifier followed through its eight stages, one SGD step at a time
sense:       the 8-D one-head sense classifier (242 parameters), Adam, with progress and Stop
features:    feature recovery by a 9×3 query map and a 9×3 value map against fixed keys
labels:      arbitrary labels for six context words (two synonyms labelled oppositely)
induction:   a two-layer attention-only causal transformer on repeated sequences; scores and ablations
figures:     the SVG figures its cells draw
explorables/ its interactive figures; checkers/ its exercise's checker

Every module states what it trains, its shapes and its seed. All arithmetic is float64 and
seeded with default_rng, so CPython (NumPy 2) and the browser (NumPy 1.17) print the same numbers.
"""
