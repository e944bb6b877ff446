"""The student edition's own README, Makefile, requirements and .gitignore."""

import tomllib

from grader._course import Course

__all__ = ["edition_files"]

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

_README = """\
# Tensor Anatomy (student edition)

An interactive course on the PyTorch tensor: storage, strides, views, devices,
autograd. Every claim in a lesson is a cell whose output was produced by the
torch you will run ({torch}).

## Start

```bash
make lab     # sets up .venv (a few minutes the first time), opens JupyterLab
make test    # re-runs every lesson and compares it with its stored outputs
```

You need `python3` (3.11 or newer) and `make`.
`make lab PORT=9999 TOKEN=secret BROWSER=no` picks another port, a fixed token,
no browser.

## How to work

1. Read and run a lesson in `course/`, in order (`course/00_start.ipynb`, which
   `make lab` opens, links each with its exercises and a time estimate):
{lessons}
2. Open its assignment in `exercises/` and replace each
   `raise NotImplementedError()` with your code.
3. The cell under each exercise (`with checking(your_function):`) runs a few
   visible checks and `check(your_function)`: instant feedback, either a line
   starting with `✓`, or one line `Mismatch: ...` with a small counterexample
   (the input, your result, torch's). An exercise you have not started says
   `not attempted yet`, and Run All goes on to the end. For exercises with a
   fixed set of answers ({withheld}) `check` tells you whether your answer has
   the right form only: whether it is right is for the grader. Where the
   answer is an algorithm for you to write, `check` tries a fixed set of
   examples whose expected results were stored when the course was released.
4. Before you submit, **Validate** (the notebook's toolbar) runs the whole
   notebook in a fresh kernel and lists each test cell that fails, one line each.
5. Your grade comes from hidden checks run by your instructor on many more
   inputs, outside your notebook. Passing `check` is a good sign, not a
   guarantee.

## Hand in

Your instructor releases each assignment through nbgrader's exchange. In
JupyterLab, **Nbgrader > Assignment List**: *Fetch* an assignment (it lands in
a folder of that name here), work on it, *Validate*, then *Submit* (as often
as you like: the last one before the due date counts). After grading, *Fetch
Feedback* shows each check your code passed or failed. The same from a
terminal in this folder:

```bash
.venv/bin/python -m nbgrader fetch_assignment 01_storage_strides
.venv/bin/python -m nbgrader submit 01_storage_strides
.venv/bin/python -m nbgrader fetch_feedback 01_storage_strides
```

The course's name and exchange are in `nbgrader_config.py`.

This edition holds no solution and no hidden check.
"""

_NBGRADER_CONFIG = '''"""nbgrader settings for students: the course's name and the exchange that its
assignments are fetched from and submitted to (JupyterLab's Assignment List, or
``nbgrader fetch_assignment`` / ``submit`` / ``fetch_feedback`` run in this folder).
Your instructor says if yours differ: set the two variables."""

import os

c = get_config()  # noqa: F821 - provided by nbgrader when it loads this file
c.CourseDirectory.course_id = os.environ.get("TENSOR_ANATOMY_COURSE_ID", {course_id!r})
c.Exchange.root = os.environ.get("TENSOR_ANATOMY_EXCHANGE", {exchange!r})
'''

# Fetched assignments and feedback are the student's own work, not the edition's.
_GITIGNORE = ".venv/\n__pycache__/\n.ipynb_checkpoints/\n.pytest_cache/\n/[0-9][0-9]_*/\n"


def requirements(course: Course) -> list[str]:
    """The course's own dependencies, less what only grading needs."""
    project = tomllib.loads((course.root / "pyproject.toml").read_text(encoding="utf-8"))
    return [r for r in project["project"]["dependencies"]
            if r.split("=")[0].split(">")[0].split("<")[0] not in _GRADER_ONLY]


def edition_files(course: Course) -> dict[str, str]:
    """file name → text, at the edition's top level."""
    from grader.checks import _digests

    needs = requirements(course)
    torch = next(r for r in needs if r.startswith("torch=="))
    lessons = "\n".join(f"   - `course/{path.name}`"
                        for path in sorted(course.root.glob("course/*.ipynb")))
    withheld = ", ".join(f"`{name}`" for name in sorted(_digests.finite_exercises()))
    return {
        "README.md": _README.format(torch=torch, lessons=lessons, withheld=withheld),
        "Makefile": _MAKEFILE,
        "requirements.txt": "\n".join(needs) + "\n",
        ".gitignore": _GITIGNORE,
        # The instructor's settings as this edition's defaults.
        "nbgrader_config.py": _NBGRADER_CONFIG.format(course_id=course.course_id,
                                                       exchange=str(course.exchange)),
    }
