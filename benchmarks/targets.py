"""DevTools commands to a page's workers, which Playwright's own CDP sessions cannot address.

Playwright opens a CDP session on a page or a frame only. A page's dedicated worker (where the course runs
Python) and its service worker are targets of their own: the page's session is asked to attach to them as they
start (Target.setAutoAttach, not flattened), and each command goes to a worker inside
Target.sendMessageToTarget, its answer coming back as a Target.receivedMessageFromTarget event. Settings such as
Emulation.setCPUThrottlingRate hold per target, so a page's setting does not reach its workers by itself.
"""

import json
import time


class Targets:
    """The workers a page starts, each reachable with send(kind, method, params)."""

    def __init__(self, context, page, hold=False):
        self.page = page
        self.hold = hold  # keep each new dedicated worker waiting before its first line, until release()
        self.held = []
        self.cdp = context.new_cdp_session(page)
        self.sessions = {}  # target type ("worker", "service_worker") -> session ids, in order of attachment
        self.answers = {}
        self.next_id = 1
        self.cdp.on("Target.attachedToTarget", self._attached)
        self.cdp.on("Target.detachedFromTarget", self._detached)
        self.cdp.on("Target.receivedMessageFromTarget", self._received)
        # Each worker waits until it is told to run, so that a worker can be held before its first line.
        self.cdp.send("Target.setAutoAttach", {"autoAttach": True, "waitForDebuggerOnStart": True, "flatten": False})

    def _attached(self, event):
        """Note a new target and let it run (a dedicated worker waits while hold is set)."""
        kind = event["targetInfo"]["type"]
        session = event["sessionId"]
        self.sessions.setdefault(kind, []).append(session)
        if kind == "worker" and self.hold:
            self.held.append(session)
            return
        self.post(session, "Runtime.runIfWaitingForDebugger")

    def release(self):
        """Let the held workers run, and hold no more."""
        self.hold = False
        for session in self.held:
            self.post(session, "Runtime.runIfWaitingForDebugger")
        self.held = []

    def _detached(self, event):
        """Forget a target that has gone (a worker ended by Stop's restart, or a page left)."""
        for ids in self.sessions.values():
            if event["sessionId"] in ids:
                ids.remove(event["sessionId"])

    def _received(self, event):
        """Keep the answer to one of our commands (events of the target itself are not needed)."""
        message = json.loads(event["message"])
        if "id" in message:
            self.answers[message["id"]] = message

    def post(self, session, method, params=None):
        """Send a command to the target of `session` without waiting; returns its id."""
        ident = self.next_id
        self.next_id += 1
        message = {"id": ident, "method": method, "params": params or {}}
        self.cdp.send("Target.sendMessageToTarget", {"sessionId": session, "message": json.dumps(message)})
        return ident

    def call(self, session, method, params=None, timeout=30.0):
        """Send a command to the target of `session` and return its result (fail on an error or no answer)."""
        ident = self.post(session, method, params)
        deadline = time.monotonic() + timeout
        while ident not in self.answers:
            assert time.monotonic() < deadline, "no answer to {} from the worker".format(method)
            self.page.wait_for_timeout(10)  # lets Playwright deliver the target's events
        answer = self.answers.pop(ident)
        assert "error" not in answer, "{} failed in the worker: {}".format(method, answer["error"])
        return answer.get("result", {})

    def worker(self, timeout=120.0):
        """The session of the page's newest dedicated worker, waiting for one to start."""
        deadline = time.monotonic() + timeout
        while not self.sessions.get("worker"):
            assert time.monotonic() < deadline, "the page started no worker"
            self.page.wait_for_timeout(20)
        return self.sessions["worker"][-1]

    def evaluate(self, session, expression):
        """The value of a JavaScript expression in the worker's global scope."""
        answer = self.call(session, "Runtime.evaluate", {"expression": expression, "returnByValue": True})
        assert "exceptionDetails" not in answer, "{} failed in the worker: {}".format(expression, answer)
        return answer["result"].get("value")
