"""A polite stop: the page asks, long loops check between steps and end cleanly.

A "stop" request to course.worker calls request_stop() when the learner presses
Stop; loops that yield to the event loop (course.nn.train) see it at their next
check, so the namespace survives. The runner clears the request when a cell starts,
and asks heard() when it ends: a loop that was told to stop ended because of it, so the
cell reports itself stopped even though it returned normally.
"""

_requested = False
_heard = False


def request_stop():
    """Ask the running loop to end at its next check."""
    global _requested
    _requested = True


def stop_requested():
    """Whether the learner has asked to stop since the cell started; a caller told so ends at once."""
    global _heard
    _heard = _heard or _requested
    return _requested


def heard():
    """Whether a loop has been told of the request since the cell started (so it ended between two steps)."""
    return _heard


def clear():
    """Forget any earlier request (a new cell starts)."""
    global _requested, _heard
    _requested = False
    _heard = False
