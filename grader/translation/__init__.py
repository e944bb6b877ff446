"""The course in other languages, from one source: the English lessons and a catalogue each.

Build time, on the instructor's machine; no student's process imports it.

    course/01_storage_strides.ipynb             the source: English, edited by hand
    course/zh-CN/po/01_storage_strides.po       its catalogue: gettext, one entry per
                                                Markdown cell, keyed by cell id
    course/zh-CN/language.toml                  navigation words and the glossary
    course/zh-CN/01_storage_strides.ipynb       generated, never edited by hand

``python -m grader.translation update`` brings each catalogue up to date with
its lesson (``_merge``: a changed cell's translation is kept, marked fuzzy);
``build`` writes the lesson of each complete catalogue (``_generate``) and runs
it for its outputs (``_build``). A catalogue is complete when no entry is
missing, stale (fuzzy, or translating other English) or orphaned
(``_catalogue.problems``); ``tests/translation/test_translation.py`` fails otherwise, and
nbval re-proves the generated lessons with the English ones.

Code cells are the English ones, so what they print is English but for their
printed conclusions (chapter 4's NOTE lines, chapter 6's verdicts):

* a lesson prints such a line with ``anatomy_widgets.say(template, **values)``
  (or builds a piece of one with ``words``), which prints ``template.format(**values)``
  with the template translated: the widgets package, because the student edition
  ships it and lessons already import from it;
* its language is ``$TENSOR_ANATOMY_LANG`` if set, else the kernel's working
  directory's (nbval, nbconvert and JupyterLab start a kernel in its notebook's
  folder: ``course/zh-CN`` means Chinese), else English (``anatomy_widgets._language``);
* its translation is the entry with msgctxt ``<cell id>:say`` and msgid the
  template (flagged python-brace-format; ``_catalogue`` calls one whose ``{fields}``
  differ broken) in ``po/*.po`` beside the notebook; ``_catalogue`` extracts the
  templates from each code cell's ``say("...")`` and ``words("...")`` calls (a literal
  first argument), so they go stale and missing like Markdown, and ``_merge`` gives a
  changed template the old one's translation, fuzzy, as msgmerge does; at run time the
  template alone finds its entry (the kernel does not know its cell id), read from
  the same ``.po`` files, so nothing compiled can drift from them;
* ``build`` runs each generated lesson, so its stored outputs hold the translated
  lines and nbval checks them.
"""

from ._build import build, catalogues, complete, expected, skeleton, update
from ._catalogue import Problems, problems, translatable
from ._generate import translated
from ._glossary import glosses, untranslated
from ._merge import merged

__all__ = ["Problems", "build", "catalogues", "complete", "expected", "glosses",
           "merged", "problems", "skeleton", "translatable", "translated",
           "untranslated", "update"]
