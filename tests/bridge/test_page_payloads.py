"""Nothing a student typed runs in anyone's browser (issue 29, findings 2 and 9).

One submission carries every payload (an ``onerror`` image, a script, an ``onload``
SVG, an ``srcdoc`` frame, a style, a ``javascript:`` link, a 5 MB ``data:`` image);
its roster names are payloads too. Each payload, had it run, would note its name in
``window.top.ran`` and write a file through ``/api/contents`` with the instructor's
session (the image's also starts a kernel). One grading run (``grader.cli grade``),
one Jupyter server with the formgrader; in Chromium, the feedback page and the
formgrader's pages: nothing ran, no dialog, no request to ``/api/``.
"""

import json
import urllib.request

import pytest
from lab.running import CHROMIUM, Lab, chromium, offline_page
from support import ASSIGNMENTS, COURSE, ROOT, load_notebook
from support.batch import blank_stub, file_and_grade

from grader.bridge._sanitize_html import DATA_BUDGET

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian chromium not installed")

ASSIGNMENT = ASSIGNMENTS[0]
NOTEBOOK = COURSE.release_notebook(ASSIGNMENT).stem
STUDENT = "mallory"  # a plain id: ids with markup are refused before grading (_student_ids)
BIG_IMAGE = "data:image/png;base64," + "A" * (5 * 1024 * 1024)


def _run(name: str) -> str:
    """JavaScript that, if it ever runs, says so and writes pwned_<name>.txt as the viewer."""
    return ("window.top.ran=(window.top.ran||[]).concat('" + name + "');"
            "fetch('/api/contents/pwned_" + name + ".txt',{method:'PUT',headers:{'X-XSRFToken':"
            "(document.cookie.match(/_xsrf=([^;]+)/)||[])[1]||''},body:JSON.stringify("
            "{type:'file',format:'text',content:'" + name + "'})})")


PAYLOADS = "\n\n".join([
    f'<img src=x onerror="{_run("img")};fetch(\'/api/kernels\',{{method:\'POST\'}})">',
    f"<script>{_run('script')}</script>",
    f'<svg onload="{_run("svg")}"></svg>',
    f'<iframe srcdoc="<script>{_run("iframe")}</script>"></iframe>',
    "<style>@import url('/api/contents/style_import');</style>",
    f"[a link to click](javascript:{_run('link')})",
    f"![a 5 MB picture]({BIG_IMAGE})",
])
NAMES = {"first_name": f'<img src=x onerror="{_run("first_name")}">',
         "last_name": f"<script>{_run('last_name')}</script>"}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """One grading run of a blank stub holding the payloads; the roster's names added after
    (as ``nbgrader db student import`` or the formgrader would, at any time)."""
    instructor = tmp_path_factory.mktemp("instructor")
    stub = blank_stub()
    stub["cells"].append({"cell_type": "markdown", "metadata": {}, "source": PAYLOADS})
    done = file_and_grade(instructor, {STUDENT: stub})
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{instructor / 'gradebook.db'}") as gradebook:
        gradebook.update_or_create_student(STUDENT, **NAMES)
        submission = gradebook.find_submission_notebook(NOTEBOOK, ASSIGNMENT, STUDENT).id
    return instructor, NOTEBOOK, submission


@pytest.fixture(scope="module")
def server(graded, tmp_path_factory):
    instructor = graded[0]
    with Lab(tmp_path_factory.mktemp("lab"), ROOT,
             env={"TENSOR_ANATOMY_INSTRUCTOR_DIR": str(instructor)}) as lab:
        yield lab
    for written in ROOT.glob("pwned_*.txt"):  # only where a payload ran
        written.unlink()


@pytest.fixture(scope="module")
def browser(server):
    with chromium() as launched:
        yield launched


def _visit(browser, server: Lab, path: str, body: str | None = None) -> dict:
    """Open ``path`` logged in as the instructor (``body``: serve that HTML there); what ran."""
    page = offline_page(browser, timeout_ms=30_000)
    seen = {"api": [], "dialogs": []}
    page.on("request", lambda r: seen["api"].append(r.url)
            if "/api/" in r.url and "/formgrader/api/" not in r.url else None)
    page.on("dialog", lambda d: (seen["dialogs"].append(d.message), d.dismiss()))
    page.goto(f"{server.base}/api/status?token={server.token}")  # the session's cookies
    seen["api"].clear()
    if body is not None:
        page.route(f"{server.base}/{path}", lambda route: route.fulfill(
            status=200, content_type="text/html", body=body))
    page.goto(f"{server.base}/{path}")
    page.wait_for_load_state("load")
    page.wait_for_timeout(1500)  # onerror, onload and frames fire after load
    seen["ran"] = page.evaluate("window.ran || []")
    seen["text"] = page.evaluate("document.body.textContent")  # hidden names too
    seen["links"] = page.eval_on_selector_all("a[href^='javascript']", "els => els.length")
    page.close()
    return seen


def _kernels(server: Lab) -> list:
    with urllib.request.urlopen(f"{server.base}/api/kernels?token={server.token}") as reply:
        return json.load(reply)


def _nothing_ran(seen: dict, server: Lab) -> None:
    assert seen["ran"] == [] and seen["dialogs"] == [] and seen["api"] == [], seen
    assert seen["links"] == 0
    assert list(ROOT.glob("pwned_*.txt")) == [] and _kernels(server) == []


def test_nothing_a_student_wrote_runs_in_their_feedback_page(graded, server, browser):
    instructor, notebook, _ = graded
    page = instructor / "feedback" / STUDENT / ASSIGNMENT / f"{notebook}.html"
    html = page.read_text(encoding="utf-8")
    _nothing_ran(_visit(browser, server, "feedback-page.html", body=html), server)
    assert len(html) < 2 * DATA_BUDGET  # the 5 MB picture is not on it


def test_nothing_a_student_or_roster_wrote_runs_in_the_formgrader(graded, server, browser):
    _, notebook, submission = graded
    for path in (f"formgrader/submissions/{submission}/",  # the manual grading view
                 "formgrader/manage_students",
                 f"formgrader/manage_students/{STUDENT}/{ASSIGNMENT}",
                 f"formgrader/gradebook/{ASSIGNMENT}/{notebook}",
                 f"formgrader/manage_submissions/{ASSIGNMENT}"):
        seen = _visit(browser, server, path)
        _nothing_ran(seen, server)
        if path.startswith("formgrader/submissions"):
            assert "<script>" in seen["text"]  # the roster's name shown, as text


def test_the_autograded_notebook_keeps_a_bounded_picture_per_cell(graded):
    instructor, notebook, _ = graded
    autograded = instructor / "autograded" / STUDENT / ASSIGNMENT / f"{notebook}.ipynb"
    cells = load_notebook(autograded)["cells"]
    theirs = [c for c in cells if "a 5 MB picture" in "".join(c["source"])]
    assert len(theirs) == 1 and len("".join(theirs[0]["source"])) < DATA_BUDGET
