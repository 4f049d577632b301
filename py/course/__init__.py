"""The course library: what lessons import, in CPython and in the browser.

Only the standard library and NumPy are used here, and nothing runs at import,
so the browser can load the package with the interpreter.
"""
