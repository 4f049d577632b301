"""Name a value computed in a cell so the lesson's prose can quote it.

In a cell:   glue("total", 1048576)
In prose:    la capa pesa {glue}`total` parámetros      ({glue}`peso:.3f` for a format)

The build runs the cells, reads the glued values and writes them into the
prose formatted for the lesson's language, so prose and code cannot disagree.
In the browser glue() only records the value; it prints nothing.
"""

_VALUES = {}


def glue(name, value):
    """Record `value` under `name` for the prose; returns nothing, so a cell shows nothing."""
    _VALUES[str(name)] = _plain(value)


def glued():
    """Every value recorded so far, as plain JSON-ready Python objects."""
    return dict(_VALUES)


def _plain(value):
    """Turn NumPy scalars and arrays into int, float, bool, str or lists of them."""
    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    if isinstance(value, (list, tuple)):
        return [_plain(each) for each in value]
    raise TypeError("glue() takes numbers, text or arrays, not {}".format(type(value).__name__))
