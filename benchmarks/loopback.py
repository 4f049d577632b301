"""Keeping a benchmark on 127.0.0.1: a Chromium that can resolve no other host, and a watch on every request.

The benchmarks compare start-up times of pages served by one local server; a request to a CDN would both
break that comparison and break the course's promise that nothing leaves the site. Every request of a
context's pages, their workers and service workers is seen; check() fails the run if any left the server.
"""

import os

from support import CHROMIUM_FLAGS, chromium_path

# Nothing but 127.0.0.1 can be resolved, so a stray request fails at once; the watch is what reports it.
GUARD_FLAGS = ["--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]


def start_playwright():
    """Playwright's sync API, its driver started so that it reports service workers' requests too."""
    # Service workers' own fetches reach context.on("request") only with this switch (Chromium), which the
    # driver reads when it starts.
    os.environ["PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS"] = "1"
    from playwright.sync_api import sync_playwright

    return sync_playwright()


def launch(playwright):
    """Headless Chromium that resolves no host but 127.0.0.1."""
    return playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS + GUARD_FLAGS)


class Guard:
    """Every request seen in the watched contexts, and those that went anywhere but the server's origin."""

    def __init__(self, origin):
        self.origin = origin
        self.seen = 0
        self.offsite = []

    def watch(self, context):
        """Watch every request of this context; returns the context."""
        context.on("request", self.note)
        return context

    def note(self, request):
        """Count one request; keep its URL if it was not for the server (data: and blob: never leave)."""
        self.seen += 1
        url = request.url
        if not (url.startswith(self.origin + "/") or url.startswith(("data:", "blob:"))):
            self.offsite.append(url)

    def check(self):
        """Fail if nothing was watched (the watch itself broke) or if any request left 127.0.0.1."""
        assert self.seen > 0, "no request was watched: the off-site check saw nothing"
        assert not self.offsite, "requests left 127.0.0.1: {}".format(", ".join(sorted(set(self.offsite))))
        return "{} requests watched, none left 127.0.0.1".format(self.seen)
