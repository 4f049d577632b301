"""Explorables: one module each, declared with the vocabulary of course.explorables.engine.

The build precomputes and draws their states; the page's worker calls into the
course library through call(), for example engine:recompute after a learner's edit.
"""

import importlib


def call(name, args):
    """Call the function "module:name" with keyword arguments and return its result."""
    module_name, _, function = name.partition(":")
    if not module_name.startswith("course."):
        raise ValueError("only functions of the course library can be called, not {}".format(name))
    return getattr(importlib.import_module(module_name), function)(**args)
