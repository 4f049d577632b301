"""A polite stop: the page asks, long loops check between steps and end cleanly.

A "stop" request to course.worker calls request_stop() when the learner presses
Stop; loops that yield to the event loop (course.nn.train) see it at their next
check, so the namespace survives. The runner clears the request when a cell starts.
"""

_requested = False


def request_stop():
    """Ask the running loop to end at its next check."""
    global _requested
    _requested = True


def stop_requested():
    """Whether the learner has asked to stop since the cell started."""
    return _requested


def clear():
    """Forget any earlier request (a new cell starts)."""
    global _requested
    _requested = False
