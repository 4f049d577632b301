"""One small driver interface over the three engines the web runs on, for the cross-engine smoke suite.

    chromium   Playwright (Debian's Chromium where it exists, else Playwright's own)
    firefox    Firefox ESR driven through Marionette (PyPI marionette_driver; no geckodriver)
    webkit     WebKitGTK's MiniBrowser driven through Selenium's WebKitGTK driver, on a private Xvfb display

Every backend offers the same few verbs: navigate, run a script in the page, click by CSS selector or by
accessible name, type into a cell's editor, read text, wait for a condition, read the errors that a
listener injected into the page collected (WebKit's console cannot be read in automation mode), and the
CPU time the engine's processes have used (to prove that no stopped worker keeps spinning).

An engine can die under a test: WebKitGTK's web process crashes now and then ("session deleted because of page
crash or hang"). Every verb then raises EngineCrashed, which says so and quotes the end of the engine's own log,
and `Session` gives the next test a fresh browser, so one crash fails one test only.
"""

import os
import shutil
import socket
import subprocess
import tempfile
import time
import warnings
from pathlib import Path

import pytest

from support import CHROMIUM_FLAGS, chromium_path

MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"
ENGINES = ("chromium", "firefox", "webkit")
# Named, not the generic CI that every CI service sets. Set and not 0 (.ci/run sets 1), it makes a missing
# engine fail its tests instead of skipping them.
ALL_ENGINES = "COURSE_ALL_ENGINES"
# A live engine answers a trivial script at once; a crashed or hung one is given this long (seconds).
PING_S = 10
SCRIPT_S = 120
LOG_LINES = 15

# Installed after each navigation: the page's own errors and rejections, kept where scripts can read them.
LISTEN = """
if (!window.__engineErrors) {
  window.__engineErrors = [];
  window.addEventListener("error", (event) => window.__engineErrors.push(String(event.message)));
  window.addEventListener("unhandledrejection", (event) => window.__engineErrors.push(String(event.reason)));
}
return true;
"""

# The accessible name of a control, as far as these pages need it: aria-label, else its visible text.
CLICK_BY_NAME = """
const [name] = arguments;
const controls = [...document.querySelectorAll("button, a, [role=button], summary, label")];
const found = controls.find((element) => element.offsetParent !== null
  && (element.getAttribute("aria-label") || element.textContent).trim() === name);
if (!found) return false;
found.click();
return true;
"""


def available(engine):
    """Why the engine cannot run here, or None when it can."""
    if engine == "chromium":
        return None
    if engine == "firefox":
        return None if shutil.which("firefox-esr") else "firefox-esr is not installed (apt-get install firefox-esr)"
    if not Path(MINIBROWSER).exists() or not shutil.which("WebKitWebDriver"):
        return "WebKitGTK's driver is not installed (apt-get install webkit2gtk-driver)"
    return None if shutil.which("Xvfb") else "Xvfb is not installed (apt-get install xvfb)"


def require(engine):
    """Return when the engine can run; else skip the calling test, or fail it where $COURSE_ALL_ENGINES asks."""
    missing = available(engine)
    if missing is None:
        return
    if os.environ.get(ALL_ENGINES, "") not in ("", "0"):
        pytest.fail("{} (${}={} asks for every engine)".format(missing, ALL_ENGINES, os.environ[ALL_ENGINES]))
    pytest.skip("{} (set {}=1 to fail instead)".format(missing, ALL_ENGINES))


def process_tree_cpu(root):
    """Seconds of CPU (user + system) used so far by process `root` and all its descendants."""
    children = {}
    times = {}
    tick = os.sysconf("SC_CLK_TCK")
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, ppid = int(stat.parent.name), int(fields[1])
        children.setdefault(ppid, []).append(pid)
        times[pid] = (int(fields[11]) + int(fields[12])) / tick
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        total += times.get(pid, 0.0)
        todo += children.get(pid, [])
    return total


def descendants(root):
    """{pid: command line} of every process below `root` (not root itself)."""
    children, commands = {}, {}
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            ppid = int((cmdline.parent / "stat").read_text().rsplit(")", 1)[1].split()[1])
            commands[int(cmdline.parent.name)] = cmdline.read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(cmdline.parent.name))
    found, todo = {}, list(children.get(root, []))
    while todo:
        pid = todo.pop()
        found[pid] = commands.get(pid, "")
        todo += children.get(pid, [])
    return found


def _log_tail(path):
    """The last lines of an engine's log file, or a note that it wrote none."""
    try:
        lines = Path(path).read_text(errors="replace").splitlines()
    except OSError:
        return "(no log)"
    return "\n".join(lines[-LOG_LINES:]) or "(its log is empty)"


class EngineCrashed(Exception):
    """The engine itself died (a crashed page process, a lost driver): the engine's failure, not the page's."""


def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Driver:
    """What every backend offers; subclasses implement `_script`, `goto`, `close`, `root_pid`, `_gone`, `_ping`
    and `log`."""

    name = ""
    session = None  # the Session this browser serves, if any

    def js(self, body, *args):
        """Run a function body (which may `return`) in the page with `arguments`; its JSON-able result."""
        return self._guarded(self._script, body, list(args))

    def open(self, url):
        """Navigate to url and start collecting the page's errors."""
        self._guarded(self.goto, url)
        self.wait("return document.readyState === 'complete'", message="the page did not load")
        self.js(LISTEN)

    def reload(self):
        """Load the current page again (errors are collected again)."""
        self.open(self.js("return location.href"))

    def resize(self, width, height):
        """Make the page's viewport `width` by `height` CSS pixels (the window's frame, if any, added).

        A window manager may apply a new size after the command has returned (WebKitGTK under Xvfb does, now and
        then), so each step waits for the page to see it before measuring the frame or judging the result."""
        self._set_size(width, height)
        self.wait("return outerWidth === arguments[0] || innerWidth === arguments[0]", 5,
                  "the window never took the width {}".format(width), width)
        frame = self.js("return [outerWidth - innerWidth, outerHeight - innerHeight]")
        if any(frame):
            self._set_size(width + frame[0], height + frame[1])
        self.wait("return innerWidth === arguments[0]", 5, "the viewport is not {} px wide".format(width), width)

    def _set_size(self, width, height):
        self._guarded(lambda: self.client.set_window_rect(width=width, height=height))

    def text(self, selector):
        """The text content of every element matching selector, joined."""
        return self.js("return [...document.querySelectorAll(arguments[0])].map((e) => e.textContent).join('')",
                       selector)

    def click(self, selector):
        """Click the first element matching selector."""
        found = self.js("const e = document.querySelector(arguments[0]); if (!e) return false; "
                        "e.scrollIntoView({block: 'center'}); e.click(); return true;", selector)
        assert found, "{}: nothing matches {}".format(self.name, selector)

    def click_name(self, name):
        """Click the visible control whose accessible name is `name`."""
        assert self.js(CLICK_BY_NAME, name), "{}: no visible control named {!r}".format(self.name, name)

    def type_into_cell(self, number, code):
        """Open cell `number`'s editor, replace its code with `code` by typing, as a learner would."""
        self.click("#cell-{} .cell-code".format(number))
        self.wait("return !!document.querySelector('#cell-{} .cm-content')".format(number), timeout=60,
                  message="the editor did not open")
        self.type_into("#cell-{} .cm-content".format(number), code)

    def type_into(self, selector, code):
        """Replace the editor's text as one typed insertion (what a paste or an input method sends).

        Key-by-key typing would let the editor auto-indent each new line on top of the typed indentation.
        """
        self.click(selector)
        self.js("const e = document.querySelector(arguments[0]); e.focus(); document.execCommand('selectAll'); "
                "document.execCommand('insertText', false, arguments[1]);", selector, code)

    def wait(self, condition, timeout=120, message="the condition never held", *args):
        """Wait until the script `condition` returns a truthy value; that value."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.js(condition, *args)
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError("{}: {} within {} s".format(self.name, message, timeout))
            time.sleep(0.05)

    def errors(self):
        """The errors and unhandled rejections the page reported since it was opened."""
        return self.js("return window.__engineErrors || []")

    def cpu_seconds(self):
        """CPU time used so far by the engine's processes."""
        return process_tree_cpu(self.root_pid())

    def dead(self):
        """Why this browser cannot go on (a process of it ended, or it no longer answers a script), or None."""
        gone = self._gone()
        if gone:
            return gone
        try:
            self._ping()
        except Exception as error:  # each backend raises its own kind; any of them means no answer
            return "it no longer answers a script ({}: {})".format(type(error).__name__, str(error).strip()[:200])
        return None

    def _guarded(self, action, *args):
        """Run one command of the driver; if it failed because the engine died, raise EngineCrashed instead."""
        try:
            return action(*args)
        except Exception as error:
            reason = self.dead()
            if reason is None:
                raise
            raise EngineCrashed("{}: the engine died under this test: {}. End of its log:\n{}".format(
                self.name, reason, self.log())) from error


class ChromiumDriver(Driver):
    name = "chromium"

    def __init__(self, chromium):
        tag = "--course-engine-tag={}-{}".format(os.getpid(), id(self))
        self.browser = chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS + [tag])
        self.context = self.browser.new_context()
        self.page = self.context.new_page()
        self.tag = tag

    def _script(self, body, args):
        return self.page.evaluate("(args) => (function () {" + body + "}).apply(null, args)", args)

    def goto(self, url):
        self.page.goto(url)

    def _set_size(self, width, height):
        self.page.set_viewport_size({"width": width, "height": height})

    def _gone(self):
        if not self.browser.is_connected():
            return "the browser closed its connection"
        return "the page is closed" if self.page.is_closed() else None

    def _ping(self):
        self.page.wait_for_function("() => true", timeout=PING_S * 1000)

    def log(self):
        return "(Playwright keeps no log of the browser)"

    def type_into(self, selector, code):
        self._guarded(self._type, selector, code)

    def _type(self, selector, code):
        editor = self.page.locator(selector)
        editor.click()
        editor.press("Control+a")
        self.page.keyboard.insert_text(code)

    def root_pid(self):
        for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
            try:
                parts = cmdline.read_bytes().split(b"\0")
            except OSError:
                continue
            if self.tag.encode() in parts and not any(part.startswith(b"--type=") for part in parts):
                return int(cmdline.parent.name)
        raise AssertionError("chromium: the browser's process was not found")

    def close(self):
        self.context.close()
        self.browser.close()


class FirefoxDriver(Driver):
    name = "firefox"

    def __init__(self):
        from marionette_driver.marionette import Marionette
        self.profile = Path(tempfile.mkdtemp(prefix="course-firefox-"))
        port = _free_port()
        prefs = {"marionette.port": port, "browser.shell.checkDefaultBrowser": False,
                 "datareporting.policy.dataSubmissionEnabled": False, "app.update.enabled": False,
                 "browser.aboutwelcome.enabled": False, "toolkit.telemetry.enabled": False}
        (self.profile / "user.js").write_text("".join(
            "user_pref({!r}, {});\n".format(key, "true" if value is True else "false" if value is False else value)
            .replace("'", '"') for key, value in prefs.items()))
        # Firefox run as root refuses a $HOME that another user owns, as a GitHub job container's is; the
        # profile folder is ours.
        self.logfile = Path(tempfile.mkstemp(prefix="course-firefox-", suffix=".log")[1])
        with self.logfile.open("wb") as log:
            self.process = subprocess.Popen(
                ["firefox-esr", "--headless", "--marionette", "--no-remote", "--profile", str(self.profile)],
                stdout=log, stderr=subprocess.STDOUT, env=dict(os.environ, HOME=str(self.profile)))
        self.client = Marionette(host="127.0.0.1", port=port, startup_timeout=60)
        deadline = time.monotonic() + 60
        while True:
            try:
                self.client.start_session()
                break
            except Exception:  # the browser is still starting: Marionette refuses until it listens
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)
        self.client.timeout.script = SCRIPT_S

    def _script(self, body, args):
        return self.client.execute_script(body, script_args=args, new_sandbox=False)

    def goto(self, url):
        self.client.navigate(url)

    def _gone(self):
        code = self.process.poll()
        return None if code is None else "Firefox exited with status {}".format(code)

    def _ping(self):
        self.client.timeout.script = PING_S
        try:
            self.client.execute_script("return true", new_sandbox=False)
        finally:
            self.client.timeout.script = SCRIPT_S

    def log(self):
        return _log_tail(self.logfile)

    def root_pid(self):
        return self.process.pid

    def close(self):
        try:
            self.client.delete_session()
        finally:
            self.process.terminate()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
            shutil.rmtree(self.profile, ignore_errors=True)
            self.logfile.unlink(missing_ok=True)


class WebKitDriver(Driver):
    name = "webkit"

    def __init__(self, shared_array_buffer=False):
        from selenium import webdriver
        self.xvfb = subprocess.Popen(["Xvfb", "-displayfd", "1", "-screen", "0", "1920x1200x24", "-nolisten", "tcp"],
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        display = ":" + self.xvfb.stdout.readline().strip()
        env = dict(os.environ, DISPLAY=display)
        if shared_array_buffer:
            env["JSC_useSharedArrayBuffer"] = "1"  # stands in for Safari, which allows SharedArrayBuffer when isolated
        options = webdriver.WebKitGTKOptions()
        options.binary_location = MINIBROWSER
        options.add_argument("--automation")
        # The driver's output holds MiniBrowser's and the web process's, where a crash is reported.
        self.logfile = Path(tempfile.mkstemp(prefix="course-webkit-", suffix=".log")[1])
        self.service = webdriver.WebKitGTKService(executable_path=shutil.which("WebKitWebDriver"), env=env,
                                                  log_output=str(self.logfile))
        self.client = webdriver.WebKitGTK(options=options, service=self.service)
        self.client.set_script_timeout(SCRIPT_S)
        if shared_array_buffer:
            self.name = "webkit+sab"

    def _script(self, body, args):
        return self.client.execute_script(body, *args)

    def goto(self, url):
        self.client.get(url)

    def root_pid(self):
        return self.service.process.pid

    def _gone(self):
        code = self.service.process.poll()
        if code is not None:
            return "WebKitWebDriver exited with status {}".format(code)
        if not any("MiniBrowser" in command for command in descendants(self.root_pid()).values()):
            return "MiniBrowser is gone"
        return None

    def _ping(self):
        self.client.set_script_timeout(PING_S)
        try:
            self.client.execute_script("return true")
        finally:
            self.client.set_script_timeout(SCRIPT_S)

    def log(self):
        return _log_tail(self.logfile)

    def close(self):
        try:
            self.client.quit()
        finally:
            self.xvfb.terminate()
            self.xvfb.wait(20)
            self.logfile.unlink(missing_ok=True)


class Session:
    """One engine's browser shared by many tests, replaced by a fresh one before a test if it died.

    A fresh browser has a fresh profile: no service worker, nothing cached, no saved work. Every test that needs
    such state makes it itself (test_engines.py), so a replacement costs time, never a result.
    """

    def __init__(self, start):
        self._start = start
        self._driver = None
        self.replaced = []

    def driver(self, before=""):
        """The live browser, after replacing a dead one (with a warning that names `before`, the next test)."""
        if self._driver is not None:
            reason = self._driver.dead()
            if reason is None:
                return self._driver
            log = self._driver.log()
            self.replaced.append(reason)
            warnings.warn("{}: the browser died ({}); a fresh one runs {}. End of its log:\n{}".format(
                self._driver.name, reason, before or "the next test", log), stacklevel=2)
            self._discard()
        self._driver = self._start()
        self._driver.session = self
        return self._driver

    def _discard(self):
        """Close a dead browser as far as it still can be."""
        try:
            self._driver.close()
        except Exception as error:  # a dead session refuses its own end; its processes are stopped regardless
            warnings.warn("{}: closing the dead browser: {}".format(self._driver.name, error), stacklevel=3)
        self._driver = None

    def close(self):
        """Close the current browser, if any."""
        if self._driver is not None:
            self._driver.close()
            self._driver = None


def launch(engine, chromium=None, **options):
    """A driver for `engine` (one of ENGINES); Chromium needs Playwright's `chromium` browser type."""
    if engine == "chromium":
        return ChromiumDriver(chromium)
    if engine == "firefox":
        return FirefoxDriver()
    return WebKitDriver(**options)
