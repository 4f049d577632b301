"""SCORM 1.2 packages (`build.py scorm`): the manifest, element by element, and a lesson inside a platform played
by scorm-again in Chromium: a student answers a quiz and passes a challenge, the platform records status, score
and interactions, and a launch on another machine restores the work from suspend_data."""

import json
import re
import shutil
import subprocess
import urllib.parse
import xml.etree.ElementTree as ET
import zipfile

import pytest
from playwright.sync_api import expect

from coursebuild import scorm
from coursebuild.lesson import read_lesson
from support import ROOT, Server, build_one_lesson, cli, quiz_option, submit_exercise

LESSON = "000-varias-cabezas"
PACKAGE = LESSON + "-es.zip"
SOLUTION = ROOT / "lessons" / LESSON / "exercises" / "multi_head" / "solution.py"
# Quiz 1's right option (the second in the source) and a wrong one, by what they say: the page shuffles them.
RIGHT = "Hacia el y los, con el mismo peso."
WRONG = "Hacia gatos, hacia sí misma."
SCORM_AGAIN = ROOT / "node_modules" / "scorm-again" / "dist" / "scorm12.min.js"
CP = "{http://www.imsproject.org/xsd/imscp_rootv1p1p2}"
ADLCP = "{http://www.adlnet.org/xsd/adlcp_rootv1p2}"

# The platform: scorm-again's SCORM 1.2 API on the top window (as an LMS offers it), the package in a frame.
# What a platform kept from an earlier session comes in window.platformRecord (set by the test).
PLATFORM_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>Platform</title>
<script src="scorm12.min.js"></script><script src="platform.js"></script></head>
<body><iframe id="sco" title="lesson" style="width: 100%; height: 90vh"></iframe></body></html>
"""
PLATFORM_SCRIPT = """
window.API = new Scorm12API({ logLevel: 5 });
if (window.platformRecord) window.API.loadFromJSON(window.platformRecord);
window.platformCalls = [];
// A platform whose server is gone: every call that sends something throws.
if (window.platformShape === "throwing") {
  for (const name of ["LMSSetValue", "LMSCommit", "LMSFinish"]) window.API[name] = () => { throw new Error("down"); };
}
for (const name of ["LMSInitialize", "LMSSetValue", "LMSCommit", "LMSFinish"]) {
  const original = window.API[name].bind(window.API);
  window.API[name] = (...args) => { window.platformCalls.push([name, ...args]); return original(...args); };
}
// wagtail-lms's API object: LMSTerminate where SCORM 1.2 has LMSFinish.
if (window.platformShape === "wagtail") {
  const finish = window.API.LMSFinish;
  window.API.LMSTerminate = (...args) => finish(...args);
  window.API.LMSFinish = undefined;
}
// What the platform would send its server on commit: the learner's record, write-only elements included.
window.recorded = () => {
  const cmi = window.API.renderCommitCMI(true).cmi;
  return {
    status: cmi.core.lesson_status, raw: cmi.core.score.raw, suspend: cmi.suspend_data, exit: cmi.core.exit,
    interactions: Object.values(cmi.interactions).map((one) => ({
      id: one.id, type: one.type, result: one.result, response: one.student_response })),
  };
};
addEventListener("DOMContentLoaded", () => {
  document.getElementById("sco").src = "package/%s/index.html";
});
""" % LESSON


@pytest.fixture(scope="module")
def scorm_site(tmp_path_factory):
    """Lesson 000 and its English edition built with `build.py scorm`."""
    lessons = tmp_path_factory.mktemp("scorm-lessons")
    (lessons / LESSON).symlink_to(ROOT / "lessons" / LESSON)
    out = tmp_path_factory.mktemp("scorm") / "_site"
    assert cli.main(["--lessons", str(lessons), "--out", str(out), "scorm"]) == 0
    return out


@pytest.fixture(scope="module")
def platform(scorm_site, tmp_path_factory):
    """A folder served on loopback: the platform page and the Spanish package unpacked under package/."""
    folder = tmp_path_factory.mktemp("platform")
    with zipfile.ZipFile(str(scorm_site / "scorm" / PACKAGE)) as archive:
        archive.extractall(str(folder / "package"))
    shutil.copyfile(SCORM_AGAIN, folder / "scorm12.min.js")
    (folder / "index.html").write_text(PLATFORM_PAGE, encoding="utf-8")
    (folder / "platform.js").write_text(PLATFORM_SCRIPT, encoding="utf-8")
    server = Server(folder)
    yield server
    server.close()


def manifest_of(site, name=PACKAGE):
    with zipfile.ZipFile(str(site / "scorm" / name)) as archive:
        return ET.fromstring(archive.read("imsmanifest.xml")), set(archive.namelist())


def test_each_edition_gets_a_package_named_after_lesson_and_language(scorm_site):
    names = sorted(path.name for path in (scorm_site / "scorm").iterdir())
    editions = sorted(path.name for path in (ROOT / "lessons" / LESSON).glob("lesson*.md"))
    assert len(names) == len(editions) == 3  # lesson.md (Spanish), lesson.en.md, lesson.uk.md
    assert names == [LESSON + "-en.zip", LESSON + "-es.zip", LESSON + "-uk.zip"]


def test_the_site_s_offline_set_leaves_the_packages_out(scorm_site):
    offline = json.loads((scorm_site / "offline.json").read_text(encoding="utf-8"))
    assert offline["files"] and not [entry for entry in offline["files"] if entry["path"].startswith("scorm/")]
    assert "scorm/" not in (scorm_site / "sw.js").read_text(encoding="utf-8")


def test_the_manifest_has_what_scorm_1_2_requires_element_by_element(scorm_site):
    root, members = manifest_of(scorm_site)
    assert root.tag == CP + "manifest" and root.get("identifier")
    # No schemaLocation: it would name XSD files the package does not hold (no registry package ships them).
    assert not [name for name in root.attrib if name.endswith("schemaLocation")]
    assert [child.tag for child in root] == [CP + "metadata", CP + "organizations", CP + "resources"]
    assert root.find(CP + "metadata/" + CP + "schema").text == "ADL SCORM"
    assert root.find(CP + "metadata/" + CP + "schemaversion").text == "1.2"
    organizations = root.find(CP + "organizations")
    organization = organizations.find(CP + "organization")
    assert organizations.get("default") == organization.get("identifier")
    title = read_lesson(ROOT / "lessons" / LESSON / "lesson.md")[0].meta["title"]
    item = organization.find(CP + "item")
    assert organization.find(CP + "title").text == title == item.find(CP + "title").text
    resources = root.find(CP + "resources").findall(CP + "resource")
    assert [resource.get("identifier") for resource in resources] == [item.get("identifierref")]
    resource = resources[0]
    assert resource.get("type") == "webcontent" and resource.get(ADLCP + "scormtype") == "sco"
    assert resource.get("href") == LESSON + "/index.html"
    listed = {urllib.parse.unquote(file.get("href")) for file in resource.findall(CP + "file")}
    assert listed == members - {"imsmanifest.xml"}  # every file listed, and every listed file there
    ids = [element.get("identifier") for element in root.iter() if element.get("identifier")]
    assert len(ids) == len(set(ids)) and all(ident[0].isalpha() for ident in ids)  # unique xs:ID values


def test_a_manifest_strips_control_characters_from_titles_and_percent_encodes_hrefs():
    class Lesson:
        key, page_dir, meta = "004-atención", "004-atención/", {"title": "Atención\x0b y\x00 transformers\n"}

    text = scorm.manifest(Lesson, ["004-atención/index.html", "assets/page.js"])
    root = ET.fromstring(text)  # a control character would make the document unreadable
    assert root.find(CP + "organizations/" + CP + "organization/" + CP + "title").text == "Atención y transformers"
    resource = root.find(CP + "resources/" + CP + "resource")
    assert resource.get("href") == "004-atenci%C3%B3n/index.html"
    assert [file.get("href") for file in resource] == ["004-atenci%C3%B3n/index.html", "assets/page.js"]


def test_a_packaged_page_names_other_lessons_in_text_and_keeps_its_own_files(tmp_path):
    other = tmp_path / "005-position-and-block" / "es"
    other.mkdir(parents=True)
    (other / "index.html").write_text("<html><head><title>La posición</title></head></html>", encoding="utf-8")
    page = ('<body class="lesson-page"><link href="../assets/style.css">'
            '<a href="../005-position-and-block/es/#quiz-permute">La posición</a> y '
            '<a href="../005-position-and-block/es/#cell-x">sin posiciones</a> y '
            '<a href="../006-missing/es/">otra</a> <a href="../assets/OFL.txt">OFL</a> <a href="#quiz-1">arriba</a>')
    packaged = scorm.packaged_page(page, "004-ejercicios-atencion/", tmp_path)
    assert '<body data-package="scorm" class="lesson-page">' in packaged  # the page registers no service worker
    assert '<span class="other-lesson">La posición</span>' in packaged
    assert '<span class="other-lesson">sin posiciones (La posición)</span>' in packaged
    assert '<span class="other-lesson">otra</span>' in packaged
    assert '<a href="../assets/OFL.txt">OFL</a>' in packaged and '<a href="#quiz-1">arriba</a>' in packaged
    assert "005-position-and-block" not in packaged and "006-missing" not in packaged


def test_lesson_004_with_all_its_work_done_fits_the_platform_s_record_with_every_verdict(tmp_path_factory):
    folder = ROOT / "lessons" / "004-ejercicios-atencion"
    site = build_one_lesson(tmp_path_factory, folder)
    page = (site / "004-ejercicios-atencion" / "index.html").read_text(encoding="utf-8")
    data = json.loads(re.search(r'<script type="application/json" id="page-data">(.*?)</script>', page, re.S).group(1))
    solutions = {exercise["key"]: (folder / "exercises" / exercise["key"] / "solution.py").read_text(encoding="utf-8")
                 for exercise in data["exercises"]}
    run = subprocess.run(["node", str(ROOT / "tests" / "js" / "record-size.mjs")], input=json.dumps(
        {"data": data, "solutions": solutions}), capture_output=True, text=True, check=True, cwd=str(ROOT))
    measured = json.loads(run.stdout)
    assert (len(data["quizzes"]), len(data["exercises"])) == (16, 7)
    assert measured["length"] <= 4096 and measured["left"] == []  # every edit travels too
    assert measured["verdicts"] < 1024  # the verdicts alone: a quarter of what a platform must keep
    record = measured["record"]
    assert sorted(record["q"]) == sorted(quiz["key"] for quiz in data["quizzes"])
    assert all(verdict == 2 for _, verdict in record["q"].values())
    assert record["c"] == {exercise["key"]: [True, 2, exercise["hints"]] for exercise in data["exercises"]}
    assert not re.search(r"x{90}", json.dumps(record))  # no checker's message
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    stated = re.search(r"Lesson 004 with all 16 quizzes and 7 challenges done takes\s+([\d,]+) characters, ([\d,]+) with",
                       readme)
    assert stated, "README.md's section for teachers no longer states lesson 004's record size"
    assert [int(n.replace(",", "")) for n in stated.groups()] == [measured["verdicts"], measured["length"]]


def test_the_readme_gives_the_math_font_every_package_ships_at_its_size():
    font = ROOT / "site" / "fonts" / "course-math.woff"
    stated = re.search(r"`site/fonts/course-math.woff`, ([\d,]+) bytes", (ROOT / "README.md").read_text(encoding="utf-8"))
    assert stated and int(stated.group(1).replace(",", "")) == font.stat().st_size


def test_a_package_holds_the_page_and_what_it_loads_but_no_other_lesson(scorm_site):
    _, members = manifest_of(scorm_site)
    assert {LESSON + "/index.html", "assets/page.js", "assets/style.css", "assets/lesson-varias_cabezas.json",
            "assets/course-math.woff", "assets/OFL.txt", "runtime/pyodide.asm.wasm"} <= members
    assert not any(name.startswith("003-") or name in ("sw.js", "index.html", "offline.json") for name in members)
    with zipfile.ZipFile(str(scorm_site / "scorm" / PACKAGE)) as archive:
        page = archive.read(LESSON + "/index.html").decode("utf-8")
    assert 'href="../index.html"' not in page and "/en/index.html" not in page  # no link out of the package
    data = json.loads(re.search(r'<script type="application/json" id="page-data">(.*?)</script>', page, re.S).group(1))
    needed = {"runtime/" + entry["name"] for entry in data["runtime"]["files"]}
    needed |= {"runtime/" + wheel["file"] for wheel in data["runtime"]["wheels"]}
    needed |= {"assets/" + name for name in data["libraries"] + [data["runtime"]["entry"]]}
    assert needed <= members  # every file the page's start reads


def open_platform(browser, platform, record=None, shape=None):
    """A fresh browser (another machine: nothing saved) on the platform page; the lesson's frame. `shape`
    "wagtail": the platform's API object has LMSTerminate instead of LMSFinish; "throwing": its LMSSetValue,
    LMSCommit and LMSFinish throw."""
    context = browser.new_context()
    page = context.new_page()
    if record is not None:
        page.add_init_script("window.platformRecord = {};".format(json.dumps(record)))
    if shape is not None:
        page.add_init_script("window.platformShape = {};".format(json.dumps(shape)))
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(platform.url("index.html"))
    page.wait_for_function("() => window.platformCalls.some((call) => call[0] === 'LMSCommit')")  # the first report
    return context, page, page.frame_locator("#sco"), requests


def test_a_student_answers_and_passes_and_the_platform_records_it_then_restores_it(browser, platform):
    context, page, lesson, requests = open_platform(browser, platform)
    assert page.evaluate("window.recorded()")["status"] == "incomplete"
    quiz = lesson.locator("#quiz-1")
    quiz_option(quiz, RIGHT).check()
    quiz.locator("button[type=submit]").click()
    expect(quiz.locator(".quiz-verdict")).to_have_text("Correcto.")
    page.wait_for_function("() => window.recorded().interactions.length === 1")
    first = page.evaluate("window.recorded()")
    # The response names the option by its letter in source order (b: the second), whatever order the page showed.
    assert first["interactions"] == [{"id": "quiz-cabeza3-gatos", "type": "choice", "result": "correct",
                                      "response": "b"}]
    quizzes = page.evaluate("document.querySelector('#sco').contentWindow.document.querySelectorAll('.quiz').length")
    challenges = 1
    assert first["raw"] == str(round(100 * 1 / (quizzes + challenges)))
    shown = quiz.locator(".quiz-inputs input").evaluate_all("(inputs) => inputs.map((input) => input.value)")

    frame = page.frame_locator("#sco")
    submit_exercise(_FrameAsPage(page, frame), "multi_head", SOLUTION.read_text(encoding="utf-8"))
    expect(frame.locator("#exercise-multi_head .check-verdict")).to_have_text(
        "Superado: todas las comprobaciones son correctas.")
    page.wait_for_function("() => window.recorded().interactions.length === 2")
    second = page.evaluate("window.recorded()")
    assert second["interactions"][1] == {"id": "challenge-multi_head", "type": "performance", "result": "correct",
                                         "response": ""}
    assert second["raw"] == str(round(100 * 2 / (quizzes + challenges)))
    assert second["status"] == "incomplete"  # the other quizzes are not answered yet
    saved = json.loads(second["suspend"])
    assert saved["q"]["cabeza3-gatos"] == [quiz.locator("input:checked").get_attribute("value"), 2]  # by option id
    assert isinstance(saved["s"], str) and saved["c"]["multi_head"] == [True, 1, 0]
    assert "exercise-code:multi_head" in saved["e"] and "message" not in second["suspend"]
    assert all(url.startswith(platform.origin) for url in requests)  # nothing from another origin
    assert not [url for url in requests if url.endswith("sw.js")]  # a package registers no service worker
    page.goto("about:blank")  # the student leaves: the page ends its session
    context.close()

    record = {"core": {"lesson_status": second["status"], "entry": "resume"}, "suspend_data": second["suspend"]}
    context, page, lesson, _ = open_platform(browser, platform, record)
    expect(lesson.locator("#quiz-1 .quiz-verdict")).to_have_text("Correcto.")
    # The seed came back with the record: the options in the order this student saw them, on another machine.
    assert lesson.locator("#quiz-1 .quiz-inputs input").evaluate_all(
        "(inputs) => inputs.map((input) => input.value)") == shown
    expect(lesson.locator("#exercise-multi_head .check-verdict")).to_have_text(
        "Superado: todas las comprobaciones son correctas.")
    expect(lesson.locator("#exercise-multi_head .cell-code code")).to_contain_text("np.stack(mapas)")
    page.wait_for_function("() => window.recorded().raw === '{}'".format(second["raw"]))
    assert page.evaluate("window.recorded()")["interactions"] == []  # nothing new: no result is sent again
    context.close()


def test_an_edit_too_long_for_the_platform_stays_in_the_browser_and_the_page_says_so(browser, platform, scorm_site):
    with zipfile.ZipFile(str(scorm_site / "scorm" / PACKAGE)) as archive:
        page = archive.read(LESSON + "/index.html").decode("utf-8")
    data = json.loads(re.search(r'<script type="application/json" id="page-data">(.*?)</script>', page, re.S).group(1))
    cell = data["cells"][0]
    edit = {"code": cell["code"] + "\n" + "# " + "x" * 5000, "original": cell["code"], "at": "2026-12-07T00:00:00Z"}
    context = browser.new_context()
    context.add_init_script("localStorage.setItem({}, {})".format(
        json.dumps("course:v1:{}:cell:{}".format(LESSON, cell["key"])), json.dumps(json.dumps(edit))))
    tab = context.new_page()
    tab.goto(platform.url("index.html"))
    lesson = tab.frame_locator("#sco")
    expect(lesson.locator(".saved-notice-scorm")).to_have_text(data["strings"]["scorm_edits_left"])
    assert data["strings"]["scorm_edits_left"].startswith("Tu código editado")  # the page's language
    assert "xxxx" not in tab.evaluate("window.recorded()")["suspend"]
    context.close()


def test_leaving_the_page_suspends_and_finishes_the_session(browser, platform):
    context, page, lesson, _ = open_platform(browser, platform)
    quiz_option(lesson.locator("#quiz-1"), WRONG).check()
    lesson.locator("#quiz-1 button[type=submit]").click()
    expect(lesson.locator("#quiz-1 .quiz-verdict")).to_have_text("No es correcto.")
    page.evaluate("document.querySelector('#sco').src = 'about:blank'")
    page.wait_for_function("() => window.platformCalls.some((call) => call[0] === 'LMSFinish')")
    recorded = page.evaluate("window.recorded()")
    assert recorded["exit"] == "suspend"
    assert recorded["interactions"][0]["result"] == "wrong" and recorded["raw"] == "0"
    context.close()


def watch_errors(page):
    """The uncaught errors of the page and of the lesson's frame, as they come."""
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.add_init_script("addEventListener('error', (event) => (top.frameErrors = top.frameErrors || [])"
                         ".push(String(event.message)));")
    return lambda: errors + (page.evaluate("window.frameErrors || []"))


def test_a_platform_without_lms_finish_ends_the_session_with_lms_terminate_and_no_page_error(browser, platform):
    context, page, lesson, _ = open_platform(browser, platform, shape="wagtail")
    errors = watch_errors(page)
    quiz_option(lesson.locator("#quiz-1"), RIGHT).check()
    lesson.locator("#quiz-1 button[type=submit]").click()
    expect(lesson.locator("#quiz-1 .quiz-verdict")).to_have_text("Correcto.")
    page.evaluate("document.querySelector('#sco').src = 'about:blank'")
    page.wait_for_function("() => window.recorded().exit === 'suspend'")
    assert page.evaluate("window.API.isTerminated()")  # the page ended its session with LMSTerminate
    assert errors() == []
    context.close()


def test_a_platform_whose_calls_throw_leaves_the_page_working(browser, platform):
    context, page, lesson, _ = open_platform(browser, platform, shape="throwing")
    errors = watch_errors(page)
    quiz = lesson.locator("#quiz-1")
    quiz_option(quiz, WRONG).check()
    quiz.locator("button[type=submit]").click()
    expect(quiz.locator(".quiz-verdict")).to_have_text("No es correcto.")
    quiz_option(quiz, RIGHT).check()
    quiz.locator("button[type=submit]").click()
    expect(quiz.locator(".quiz-verdict")).to_have_text("Correcto.")
    page.evaluate("document.querySelector('#sco').src = 'about:blank'")
    page.wait_for_function("() => window.platformCalls.some((call) => call[0] === 'LMSFinish')")
    assert errors() == []
    context.close()


def test_a_reloaded_frame_the_platform_will_not_initialise_again_says_work_stays_in_this_browser(browser, platform):
    context, page, lesson, _ = open_platform(browser, platform)
    errors = watch_errors(page)
    page.evaluate("document.querySelector('#sco').contentWindow.location.reload()")
    # The reload finished the session; scorm-again, as SCORM 1.2 has it, refuses LMSInitialize after LMSFinish.
    page.wait_for_function("() => window.platformCalls.filter((call) => call[0] === 'LMSInitialize').length === 2")
    strings = json.loads((ROOT / "site" / "i18n" / "es.json").read_text(encoding="utf-8"))
    expect(lesson.locator(".saved-notice-scorm")).to_have_text(strings["scorm_not_recorded"])
    calls = page.evaluate("window.platformCalls.length")
    quiz = lesson.locator("#quiz-1")
    quiz_option(quiz, RIGHT).check()
    quiz.locator("button[type=submit]").click()
    expect(quiz.locator(".quiz-verdict")).to_have_text("Correcto.")
    frame = next(frame for frame in page.frames if "/package/" in frame.url)
    frame.wait_for_function("() => Object.keys(localStorage).some((name) => name.includes(':quiz:'))")
    assert page.evaluate("window.platformCalls.length") == calls  # nothing more went to the platform
    assert page.evaluate("window.recorded()")["interactions"] == [] and errors() == []
    context.close()


def test_a_number_typed_as_spanish_writes_it_goes_normalised_and_a_failed_status_stays(browser, platform):
    context, page, lesson, _ = open_platform(browser, platform, {"core": {"lesson_status": "failed"}})
    quiz = lesson.locator(".quiz:has(input[type=text])").first
    answer = quiz.evaluate("(form) => JSON.parse(document.getElementById('page-data').textContent)"
                           ".quizzes.find((one) => 'quiz-' + one.id === form.id).answer")
    assert answer == int(answer) and answer >= 1000
    quiz.locator("input[type=text]").fill("{:,}".format(int(answer)).replace(",", "."))  # "262.144", as in Spanish
    quiz.locator("button[type=submit]").click()
    expect(quiz.locator(".quiz-verdict")).to_have_text("Correcto.")
    page.wait_for_function("() => window.recorded().interactions.length === 1")
    recorded = page.evaluate("window.recorded()")
    assert [(one["type"], one["result"], one["response"]) for one in recorded["interactions"]] == [
        ("numeric", "correct", str(int(answer)))]
    assert recorded["status"] == "failed"  # the platform's verdict, not the page's "incomplete"
    context.close()


def test_without_a_platform_the_packaged_page_works_as_the_site_does(page, platform):
    page.goto(platform.url("package/{}/index.html".format(LESSON)))
    quiz = page.locator("#quiz-1")
    quiz_option(quiz, RIGHT).check()
    quiz.locator("button[type=submit]").click()
    expect(quiz.locator(".quiz-verdict")).to_have_text("Correcto.")
    assert page.evaluate("typeof window.API") == "undefined"


class _FrameAsPage:
    """What submit_exercise uses of a page (locator, keyboard), for a lesson inside the platform's frame."""

    def __init__(self, page, frame):
        self.keyboard = page.keyboard
        self.locator = frame.locator
