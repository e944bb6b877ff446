"""nbgrader configuration for Tensor Anatomy.

Instructors author in ``solutions/`` (nbgrader's source) and release to
``exercises/``. Everything a grading run creates (submissions, autograded
notebooks, feedback, the gradebook) lives in one instructor folder that is
never committed: ``instructor/`` by default, or ``$TENSOR_ANATOMY_INSTRUCTOR_DIR``.
"""

import os
import sys
from pathlib import Path

from grader._course import Course
from grader.bridge._csv_export import SafeCsvExportPlugin
from grader.bridge._feedback_page import FeedbackExporter
from grader.bridge._nbgrader import (
    autograde_pipeline,
    feedback_pipeline,
    sanitize_pipeline,
)
from grader.bridge._sanitize_html import SAFE_PAGE
from grader.bridge._steps import scripts_first_on_path
from grader.collect._zip_names import named_regexp

c = get_config()  # noqa: F821 - provided by nbgrader when it loads this file

# nbgrader runs `alembic` by name when it creates a gradebook: a stock `nbgrader`
# command run as .venv/bin/nbgrader, without the venv activated, must find it too
# (or `generate_assignment --force` deletes exercises/<assignment> and then fails).
scripts_first_on_path()

HERE = Path(__file__).resolve().parent
COURSE = Course(HERE)  # the one reader of the instructor folder and gradebook settings
INSTRUCTOR = COURSE.instructor
INSTRUCTOR.mkdir(parents=True, exist_ok=True)  # a stock nbgrader command opens the gradebook here

# Hand-in through nbgrader's exchange: set once, here and in the student edition's
# nbgrader_config.py, from $TENSOR_ANATOMY_EXCHANGE and $TENSOR_ANATOMY_COURSE_ID.
c.CourseDirectory.course_id = COURSE.course_id
c.Exchange.root = str(COURSE.exchange)
# The inbound folder is writable by every student: collect follows no link, reads no
# folder that is not its student's, and takes no time a student wrote (grader/collect/).
c.ExchangeFactory.collect = "grader.collect.SafeCollect"
# Or an LMS's "download all submissions" zip, in instructor/downloaded/<assignment>/archive/:
# nbgrader zip_collect <assignment>, with $TENSOR_ANATOMY_LMS (canvas or moodle) its layout.
# (nbgrader joins this to the course root as text: it must be relative.)
c.ZipCollectApp.downloaded_directory = os.path.relpath(INSTRUCTOR / "downloaded", HERE)
# Every member was named and filled by a student: extracted bounded, no link, no nested
# archive, modes reset; each filed by the id the LMS wrote in its name (grader/collect/).
c.ZipCollectApp.extractor_plugin = "grader.collect.SafeZipExtractor"
c.ZipCollectApp.collector_plugin = "grader.collect.LmsNameCollector"
try:
    c.FileNameCollectorPlugin.named_regexp = named_regexp()
except ValueError as unknown:
    # nbgrader would log an error in a config file and go on without it: stop instead.
    sys.exit(f"nbgrader_config.py: {unknown}")
c.CourseDirectory.root = str(HERE)
c.CourseDirectory.source_directory = "solutions"
c.CourseDirectory.release_directory = "exercises"
# Absolute paths: os.path.join(root, absolute) is the absolute path itself.
c.CourseDirectory.submitted_directory = str(INSTRUCTOR / "submitted")
c.CourseDirectory.autograded_directory = str(INSTRUCTOR / "autograded")
c.CourseDirectory.feedback_directory = str(INSTRUCTOR / "feedback")
c.CourseDirectory.db_url = COURSE.db_url  # or PostgreSQL, for concurrent graders

# Student code runs only in the judge's sandboxed worker (grader/judge/_judge.py),
# never in a kernel: our preprocessor takes the place of nbgrader's Execute.
c.Autograde.autograde_preprocessors = autograde_pipeline()
# Before nbgrader reads any metadata: the submission in the release's shape,
# so that deleted, edited, reordered or forged grade cells change nothing.
c.Autograde.sanitize_preprocessors = sanitize_pipeline()
c.GenerateFeedback.preprocessors = feedback_pipeline()
c.GenerateFeedback.exporter_class = FeedbackExporter  # nbconvert's HTML, templates compiled once
# nbconvert validates the whole notebook after each preprocessor (15 in feedback, 11 in
# autograde): once, after the last, is enough to fail a step on an invalid notebook, and
# saves about 1 s of nbgrader's lane per 30 notebooks (cProfile: 942 validations).
c.Exporter.optimistic_validation = True
# The formgrader renders each submission with a stock HTMLExporter, in the instructor's
# session: what the student wrote or displayed cleaned through nh3, names escaped, each
# time the page is made (grader/bridge/_sanitize_html.py, _bounded_data.py, _page_names.py).
c.HTMLExporter.sanitize_html = SAFE_PAGE["sanitize_html"]
c.HTMLExporter.filters = SAFE_PAGE["filters"]
c.HTMLExporter.preprocessors = ["grader.bridge._bounded_data.BoundEmbeddedData",
                                "grader.bridge._sanitize_html.SanitizeOutputs",
                                "grader.bridge._page_names.NamesAsText"]

# `nbgrader export` too: grades.csv through the csv module, no cell read as a formula
# (nbgrader's own plugin joins cells with ",": a comma in an id shifted the columns).
c.ExportApp.plugin_class = SafeCsvExportPlugin

c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\nraise NotImplementedError()"}
