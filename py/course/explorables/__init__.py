"""Explorables: functions that return the states an interactive figure draws (plain, JSON-ready data).

The build calls them to embed the first states; the page's worker calls them
through call() when an interaction needs numbers that were not precomputed.
"""

import importlib


def call(name, args):
    """Call the function "module:name" with keyword arguments and return its result."""
    module_name, _, function = name.partition(":")
    if not module_name.startswith("course."):
        raise ValueError("only functions of the course library can be called, not {}".format(name))
    return getattr(importlib.import_module(module_name), function)(**args)
