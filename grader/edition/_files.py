"""The student edition's own README, Makefile, requirements and .gitignore."""

import tomllib

from grader._course import Course
from grader._language import ENGLISH, localized, marked
from grader._settings import variable

__all__ = ["edition_files", "readme", "start_page"]

# What only grading needs (the judge, its cluster, its gradebook, its sandbox).
_GRADER_ONLY = {"hypothesis", "distributed", "psycopg[binary]", "pyseccomp", "latex2mathml"}

_MAKEFILE = """\
# Tensor Anatomy, student edition: two commands on a fresh machine.
#   make lab    set up .venv (progress shown) and open JupyterLab on the course
#   make test   set up .venv and re-run every lesson against its stored outputs
# Options: make lab PORT=9999 TOKEN=secret BROWSER=no
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
PORT   ?= 8888
LAB_OPTIONS := --port=$(PORT) $(if $(TOKEN),--IdentityProvider.token=$(TOKEN)) \\
\t$(if $(filter no,$(BROWSER)),--no-browser)
export PYTHONPATH := $(CURDIR)
# nbgrader's instructor server extension: off, in a file read after nbgrader's own (zz-).
FORMGRADER := "nbgrader.server_extensions.formgrader"

.PHONY: setup lab test

$(STAMP): requirements.txt
\t$(PYTHON) -m venv $(VENV)
\t$(PY) -m pip install --disable-pip-version-check -r requirements.txt
\t@# Instructors' tools stay out of the students' JupyterLab.
\t$(PY) -m jupyterlab.labextensions disable --level=sys_prefix \\
\t\t@jupyter/nbgrader:formgrader @jupyter/nbgrader:create-assignment
\tmkdir -p $(VENV)/etc/jupyter/jupyter_server_config.d
\techo '{"ServerApp": {"jpserver_extensions": {$(FORMGRADER): false}}}' \\
\t\t> $(VENV)/etc/jupyter/jupyter_server_config.d/zz-student-edition.json
\ttouch $(STAMP)

setup: $(STAMP)

# JupyterLab refuses root unless told; containers often are root.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root)

# KernelMetadataContents: opening a notebook does not mark it modified (grader/lab).
lab: setup
\t$(PY) -m jupyterlab $(ROOT_FLAG) $(LAB_OPTIONS) --ServerApp.root_dir="$(CURDIR)" \\
\t\t--ServerApp.contents_manager_class=grader.lab.KernelMetadataContents \\
\t\t--LabApp.default_url=/lab/tree/course/00_start.ipynb

test: setup
\t$(PY) -m pytest -p no:cacheprovider -p nbval --nbval course \\
\t\t--nbval-sanitize-with course/nbval_sanitize.cfg
"""

# The README, block by block (joined by a blank line): each block through the grading
# catalogue (``grader._language``, grader/locale/<language>.po), so a language's README is
# this template with its translated text, and a block changed here is stale there.
_README = (
    marked("# Tensor Anatomy (student edition)", "edition"),
    marked("An interactive course on the PyTorch tensor: storage, strides, views, devices,\n"
           "autograd. Every claim in a lesson is a cell whose output was produced by the\n"
           "torch you will run ({torch}).", "edition"),
    marked("## Start", "edition"),
    marked("```bash\n"
           "make lab     # sets up .venv (a few minutes the first time), opens JupyterLab\n"
           "make test    # re-runs every lesson and compares it with its stored outputs\n"
           "```", "edition"),
    marked("You need `python3` (3.11 or newer) and `make`.\n"
           "`make lab PORT=9999 TOKEN=secret BROWSER=no` picks another port, a fixed token,\n"
           "no browser.", "edition"),
    marked("## How to work", "edition"),
    marked("1. Read and run a lesson in `{course}`, in order (`{start}`, which\n"
           "   `make lab` opens, links each with its exercises and a time estimate):\n"
           "{lessons}\n"
           "2. Open its assignment in `{exercises}` and replace each\n"
           "   `raise NotImplementedError()` with your code.\n"
           "3. The cell under each exercise (`with checking(your_function):`) runs a few\n"
           "   visible checks and `check(your_function)`: instant feedback, either a line\n"
           "   starting with `✓`, or one line `Mismatch: ...` with a small counterexample\n"
           "   (the input, your result, torch's). An exercise you have not started says\n"
           "   `not attempted yet`, and Run All goes on to the end. For exercises with a\n"
           "   fixed set of answers ({withheld}) `check` tells you whether your answer has\n"
           "   the right form only: whether it is right is for the grader. Where the\n"
           "   answer is an algorithm for you to write, `check` tries a fixed set of\n"
           "   examples whose expected results were stored when the course was released.\n"
           "4. Before you submit, **Validate** (the notebook's toolbar) runs the whole\n"
           "   notebook in a fresh kernel and lists each test cell that fails, one line each.\n"
           "5. Your grade comes from hidden checks run by your instructor on many more\n"
           "   inputs, outside your notebook. Passing `check` is a good sign, not a\n"
           "   guarantee.", "edition"),
    marked("## Hand in", "edition"),
    marked("Your instructor releases each assignment through nbgrader's exchange. In\n"
           "JupyterLab, **Nbgrader > Assignment List**: *Fetch* an assignment (it lands in\n"
           "a folder of that name here), work on it, *Validate*, then *Submit* (as often\n"
           "as you like: the last one before the due date counts). After grading, *Fetch\n"
           "Feedback* shows each check your code passed or failed. The same from a\n"
           "terminal in this folder:", "edition"),
    "```bash\n"
    ".venv/bin/python -m nbgrader fetch_assignment 01_storage_strides\n"
    ".venv/bin/python -m nbgrader submit 01_storage_strides\n"
    ".venv/bin/python -m nbgrader fetch_feedback 01_storage_strides\n"
    "```",
    marked("The course's name and exchange are in `nbgrader_config.py`.", "edition"),
    marked("This edition holds no solution and no hidden check.", "edition"),
)


def readme(language: str, **values: str) -> str:
    """The edition's README in ``language``, its ``{fields}`` filled in."""
    return "\n\n".join(localized(block, "edition", language).format(**values)
                       for block in _README) + "\n"


_NBGRADER_CONFIG = '''"""nbgrader settings for students: the course's name and the exchange that its
assignments are fetched from and submitted to (JupyterLab's Assignment List, or
``nbgrader fetch_assignment`` / ``submit`` / ``fetch_feedback`` run in this folder).
Your instructor says if yours differ: set the two variables."""

import os

c = get_config()  # noqa: F821 - provided by nbgrader when it loads this file
c.CourseDirectory.course_id = os.environ.get("{course_id_variable}", {course_id!r})
c.Exchange.root = os.environ.get("{exchange_variable}", {exchange!r})
'''

# Fetched assignments and feedback are the student's own work, not the edition's.
_GITIGNORE = ".venv/\n__pycache__/\n.ipynb_checkpoints/\n.pytest_cache/\n/[0-9][0-9]_*/\n"


def requirements(course: Course) -> list[str]:
    """The course's own dependencies, less what only grading needs."""
    project = tomllib.loads((course.root / "pyproject.toml").read_text(encoding="utf-8"))
    return [r for r in project["project"]["dependencies"]
            if r.split("=")[0].split(">")[0].split("<")[0] not in _GRADER_ONLY]


def start_page(language: str) -> str:
    """Where ``make lab`` opens: the start page of ``language``'s lessons."""
    return "course/00_start.ipynb" if language == ENGLISH else f"course/{language}/00_start.ipynb"


def edition_files(course: Course, language: str = ENGLISH) -> dict[str, str]:
    """file name → text, at the edition's top level, for students of ``language``."""
    from grader.checks import _digests

    needs = requirements(course)
    torch = next(r for r in needs if r.startswith("torch=="))
    folder = "course" if language == ENGLISH else f"course/{language}"
    lessons = "\n".join(f"   - `{folder}/{path.name}`"
                        for path in sorted(course.root.glob(f"{folder}/*.ipynb")))
    withheld = ", ".join(f"`{name}`" for name in sorted(_digests.finite_exercises()))
    exercises = "exercises/" if language == ENGLISH else f"exercises/{language}/"
    return {
        "README.md": readme(language, torch=torch, lessons=lessons, withheld=withheld,
                            course=f"{folder}/", start=start_page(language),
                            exercises=exercises),
        "Makefile": _MAKEFILE.replace(start_page(ENGLISH), start_page(language)),
        "requirements.txt": "\n".join(needs) + "\n",
        ".gitignore": _GITIGNORE,
        # The instructor's settings as this edition's defaults.
        "nbgrader_config.py": _NBGRADER_CONFIG.format(
            course_id=course.course_id, course_id_variable=variable("course_id"),
            exchange=str(course.exchange), exchange_variable=variable("exchange")),
    }
