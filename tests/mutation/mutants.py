"""Deliberate breakages of the product, and the tests that must catch each one.

Each mutant is a few exact text replacements in one file: plain patches, not a
mutation tool's random operators, because each stands for a way the guarantees
could really be lost (the confinement, a namespace, what the student's root
holds, where student code runs, how NaN compares, what a verdict counts, how
the GPU check reports). A replacement whose text is no longer in the file
fails the gate: the code moved on and the mutant must follow.
"""

from dataclasses import dataclass

__all__ = ["Mutant", "MUTANTS"]


@dataclass(frozen=True)
class Mutant:
    name: str
    path: str
    edits: tuple[tuple[str, str], ...]  # (exact text, replacement), each found exactly once
    tests: tuple[str, ...]  # pytest node ids, at least one of which must fail


MUTANTS = [
    Mutant(
        "the student's process is not confined at all",
        "grader/student/_sandbox.py",
        (("    libc, unconfined = _libc(), unconfined_allowed()  # read before the scrub below\n",
          "    return  # MUTANT\n"),),
        # Reads only: safe.
        ("tests/student/test_limits.py::test_the_students_process_is_confined",),
    ),
    Mutant(
        "no network namespace",
        "grader/student/_namespaces.py",
        (("    flags = NEWNS | NEWNET | NEWIPC | NEWPID | NEWUTS",
          "    flags = NEWNS | NEWIPC | NEWPID | NEWUTS  # MUTANT"),),
        ("tests/student/test_escape.py::"
         "test_the_student_is_alone_offline_unprivileged_and_keeps_no_environment",),
    ),
    Mutant(
        "the student's root holds the whole course, nothing covered",
        "grader/student/_namespaces.py",
        (('    paths.append(str(package_root / "grader" / "givens"))',
          "    paths.append(str(package_root))  # MUTANT"),
         ('    if os.path.isdir(root + path):\n        _mount(libc, "tmpfs"',
          '    if False:  # MUTANT\n        _mount(libc, "tmpfs"')),
        ("tests/student/test_limits.py::test_the_students_process_is_confined",
         "tests/student/test_reachable.py::test_the_graded_process_reads_only_the_givens"),
    ),
    Mutant(
        "a NaN answer compares equal to any number",
        "grader/checks/_compare.py",
        (("        return math.isnan(truth) and math.isnan(value)",
          "        return True  # MUTANT"),
         ("    both_nan = mine.isnan() & torchs.isnan()",
          "    both_nan = mine.isnan() | torchs.isnan()  # MUTANT")),
        ("tests/checks/test_compare.py",),
    ),
    Mutant(
        "the judge runs the student's notebook in an nbgrader kernel first",
        "grader/bridge/_nbgrader.py",
        (('        assignment = resources["nbgrader"]["assignment"]\n'
          '        instructor = Course.find().instructor',
          '        assignment = resources["nbgrader"]["assignment"]\n'
          "        from nbgrader.preprocessors import Execute  # MUTANT\n"
          "        Execute(allow_errors=True).preprocess(nb, resources)\n"
          '        instructor = Course.find().instructor'),),
        ("tests/bridge/test_nbgrader_bridge.py::test_student_code_never_runs_in_an_nbgrader_kernel",),
    ),
    Mutant(
        "a failed check is dropped from the verdict",
        "grader/judge/_plugin.py",
        (('            if name is None or entry.pop("skipped", False):',
          '            if name is None or entry.pop("skipped", False) or not entry["passed"]:'),),
        ("tests/judge/test_hostile.py::test_every_attack_gets_exactly_its_deserved_score",),
    ),
    Mutant(
        "the GPU verification's judge cannot start",
        "tests/gpu_verify.py",
        (('        return judge(nb, ASSIGNMENT, timeout=600), "judge"',
          '        raise RuntimeError("MUTANT: the judge could not start")'),),
        ("tests/course/test_gpu_verify.py::test_gpu_verify_passes_on_this_machines_path",),
    ),
    Mutant(
        "a misconception is named whatever the student answered",
        "grader/judge/_misconceptions.py",
        (("    return _same(students, wrongs, inputs_a, inputs_b)",
          "    return True  # MUTANT"),),
        ("tests/judge/test_misconceptions.py::"
         "test_answers_are_the_same_when_their_values_types_and_views_are",
         "tests/judge/test_misconceptions.py::test_a_failure_no_wrong_answer_gives_is_named_nothing"),
    ),
    Mutant(
        "a test cell swallows a wrong answer as if it were not attempted yet",
        "grader/checks/_test_cell.py",
        (("        if kind is not None and issubclass(kind, NotImplementedError) and "
          "_is_stub(error):",
          "        if kind is not None:  # MUTANT"),),
        ("tests/checks/test_unfinished.py::test_a_finished_exercise_passes_and_a_wrong_one_still_fails",),
    ),
    Mutant(
        "any NotImplementedError, torch's own included, is taken for the stub",
        "grader/checks/_test_cell.py",
        (("    return isinstance(error, NotAttempted) or not str(error)",
          "    return True  # MUTANT"),),
        ("tests/checks/test_unfinished.py::"
         "test_a_not_implemented_error_from_torch_is_a_mistake_not_the_stub",),
    ),
    Mutant(
        "the widgets derive contiguous strides by hand again, importable by students",
        "anatomy_widgets/_layout.py",
        (("def _meta_view(shape, stride, offset=0) -> torch.Tensor:\n",
          "def contiguous_strides(shape):  # MUTANT\n"
          "    strides, step = [], 1\n"
          "    for size in reversed(shape):\n"
          "        strides.append(step)\n"
          "        step *= max(size, 1)\n"
          "    return tuple(reversed(strides))\n\n\n"
          "def _meta_view(shape, stride, offset=0) -> torch.Tensor:\n"),),
        ("tests/course/test_no_answer_importable.py::"
         "test_no_function_of_the_edition_passes_a_public_check",),
    ),
    Mutant(
        "the zygote carries the wrong answers (the judge imports its matcher at the top)",
        "grader/judge/_judge.py",
        (("from grader.judge._plugin import Grading\n",
          "from grader.judge._misconceptions import name_misconceptions  # MUTANT\n"
          "from grader.judge._plugin import Grading\n"),),
        ("tests/student/test_reachable.py::test_in_its_memory_is_only_the_machinery_it_runs_on",),
    ),
    Mutant(
        "a task's Read-first line, once written, keeps its titles when a section is renamed",
        "grader/_read_first.py",
        (('    return without_line(text) + "\\n\\n" + line',
          '    return text if "**Read first:**" in text else text + "\\n\\n" + line  # MUTANT'),),
        ("tests/course/test_consistency.py::test_a_section_renamed_or_gone_is_caught",),
    ),
    Mutant(
        "a submission of a translated notebook reads as tampered with (its cells not accepted)",
        "grader/bridge/_structure.py",
        (("        translated = _translated(fixed, translations)\n",
          "        translated = {}  # MUTANT\n"),),
        ("tests/translation/test_translated_grading.py::"
         "test_a_translated_notebook_is_restored_to_the_english_code",),
    ),
    Mutant(
        "a translated release keeps the English docstrings",
        "grader/translation/_exercises.py",
        (("            cell[\"source\"] = _lines(with_docstrings(source(cell), wanted))\n",
          "            cell[\"source\"] = _lines(source(cell))  # MUTANT\n"),),
        ("tests/translation/test_translated_exercises.py::test_the_translated_exercises_are_what_release_writes",),
    ),
    Mutant(
        "a Chinese kernel shows a translation whose English has changed (a fuzzy entry)",
        "anatomy_widgets/_language.py",
        (("        if translated and not fuzzy:\n            table.setdefault(context, {})",
          "        if translated:  # MUTANT\n            table.setdefault(context, {})"),),
        ("tests/widgets/test_language.py::test_a_fuzzy_or_empty_entry_is_not_used",),
    ),
    Mutant(
        "a printed template's translation may drop or rename its {fields}",
        "grader/translation/_catalogue.py",
        (("              and fields(entries[k].string) != fields(k[1])]",
          "              and False]  # MUTANT"),),
        ("tests/translation/test_translation.py::test_each_problem_of_a_printed_template_is_caught",),
    ),
    Mutant(
        "a submission's language is whatever its metadata says (its cells not read)",
        "grader/_language.py",
        (("                kept[lang] += texts[lang][cell[\"id\"]] == _notebook.source(cell)\n",
          "                pass  # MUTANT\n"),),
        ("tests/translation/test_grading_language.py::"
         "test_a_submission_is_in_the_language_of_the_release_whose_text_it_holds",),
    ),
    Mutant(
        "a Chinese student's feedback page keeps the English release's Markdown",
        "grader/bridge/_feedback_language.py",
        (("                cell.source = _notebook.source(given[cell.id])\n",
          "                pass  # MUTANT\n"),),
        ("tests/translation/test_grading_language.py::"
         "test_a_page_is_in_the_language_of_the_release_the_student_worked_in",),
    ),
    Mutant(
        "the feedback page shows the autograded score, not the gradebook's",
        "grader/bridge/_feedback_verdict.py",
        (('            given = _notebook.nbgrader_metadata(cell).get("score")\n',
          '            given = None  # MUTANT\n'),),
        ("tests/bridge/test_feedback_pages.py::test_the_verdict_says_the_gradebooks_score",),
    ),
    Mutant(
        "missing_verdicts believes a verdict a student wrote into a test cell's metadata",
        "grader/bridge/_nbgrader.py",
        (('            and exercises.get(name) == verdict["record"]\n',
          '            and True  # MUTANT: the store not asked\n'),),
        ("tests/bridge/test_nbgrader_bridge.py::"
         "test_a_verdict_a_student_forged_in_a_test_cell_is_not_believed",),
    ),
    Mutant(
        "a hub leaves the solutions readable by students",
        "grader/edition/hub_modes.py",
        (('SHARED_WITH_EVERY_USER = (".venv", "deploy")',
          'SHARED_WITH_EVERY_USER = (".venv", "deploy", "solutions")  # MUTANT'),),
        ("tests/course/test_hub_modes.py::"
         "test_every_path_holding_an_answer_is_closed_and_what_students_run_is_not",),
    ),
    Mutant(
        "a deep dive leans on an import another deep dive made",
        "course/06_pitfalls.ipynb",
        (('    "import weakref\\n",\n    "\\n",\n    "\\n",\n    "def graph_size(t):\\n",',
          '    "\\n",\n    "\\n",\n    "def graph_size(t):\\n",'),),
        ("tests/course/test_deep_dives_alone.py",),
    ),
    Mutant(
        "zip_collect extracts a symbolic link member",
        "grader/collect/_zip_extract.py",
        (('    if kind == stat.S_IFLNK:\n        return "a symbolic link"\n',
          '    if False:  # MUTANT\n        return "a symbolic link"\n'),),
        ("tests/collect/test_hostile_zip.py::test_a_symlink_member_is_never_extracted",),
    ),
    Mutant(
        "zip_collect writes a member whole, however far it expands",
        "grader/collect/_zip_extract.py",
        (("                    if written > limit:\n",
          "                    if False:  # MUTANT\n"),),
        ("tests/collect/test_hostile_zip.py::test_a_zip_bomb_costs_its_owner_alone",),
    ),
    Mutant(
        "zip_collect keeps the oldest Canvas re-upload",
        "grader/collect/_zip_names.py",
        (("        last = max(upload for upload, _ in candidates)",
          "        last = min(upload for upload, _ in candidates)  # MUTANT"),),
        ("tests/collect/test_hostile_zip.py::test_only_the_newest_canvas_reupload_is_kept_and_said",),
    ),
    Mutant(
        "zip_collect takes a Moodle id from a folder a student named",
        "grader/collect/_zip_names.py",
        (('    "moodle": r"[^/]+_(?P<student_id>',
          '    "moodle": r"(?:.*/)?[^/]+_(?P<student_id>'),),
        ("tests/collect/test_hostile_zip.py::"
         "test_an_id_spelt_deeper_in_a_folder_a_student_named_is_never_filed",),
    ),
    Mutant(
        "the LMS exports write what a student typed as is, formulas included",
        "grader/batch/_export.py",
        (('    return spreadsheet_cell(value or "")', '    return value or ""  # MUTANT'),),
        ("tests/batch/test_export.py::test_no_cell_a_student_typed_opens_as_a_formula",),
    ),
    Mutant(
        "grading takes every submitted student id as it is",
        "grader/batch/_run.py",
        (('            self.refused = _student_ids.check_ids(submitted, self.assignments)',
          "            self.refused = {}  # MUTANT"),),
        ("tests/batch/test_hostile_ids.py::"
         "test_a_refused_id_costs_only_its_submission_with_a_line_saying_why",),
    ),
    Mutant(
        "collect takes a folder for the student its name claims, whoever made it",
        "grader/collect/_inbound.py",
        (("    return _owner_problem(candidate) if check_owner else None",
          "    return None  # MUTANT"),),
        ("tests/collect/test_hostile_handin.py::"
         "test_a_folder_filed_under_a_classmates_name_is_refused_and_she_keeps_her_feedback",),
    ),
    Mutant(
        "collect keeps the time a student wrote in timestamp.txt",
        "grader/collect/_exchange.py",
        (("        when = _inbound.changed_at(changed_ns, gettz(self.timezone))\n",
          "        return  # MUTANT\n"),),
        ("tests/collect/test_hostile_handin.py::"
         "test_the_time_is_the_newest_change_of_the_folder_and_a_forged_one_is_logged",),
    ),
    Mutant(
        "one refused submission stops the whole class's collect",
        "grader/collect/_exchange.py",
        (("        except Refused as why:\n            self._refuse(candidate, str(why))\n",
          "        except Refused:  # MUTANT\n            raise\n"),),
        ("tests/collect/test_hostile_handin.py::"
         "test_one_collect_exits_0_and_collects_every_student_whose_folder_is_theirs",),
    ),
    Mutant(
        "collected copies keep the student's modes, set-id bits included",
        "grader/collect/_student_files.py",
        (("                os.fchmod(out.fileno(), FILE_MODE)",
          "                os.fchmod(out.fileno(), os.fstat(fd).st_mode & 0o7777)  # MUTANT"),),
        ("tests/collect/test_hostile_handin.py::"
         "test_copies_are_written_fresh_by_the_instructor_without_the_students_modes",),
    ),
    Mutant(
        "the formgrader renders a student's Markdown uncleaned",
        "grader/bridge/_sanitize_html.py",
        (('                         for name in ("clean_html", "markdown2html")}}',
          '                         for name in ()}}  # MUTANT'),),
        ("tests/bridge/test_page_payloads.py::"
         "test_nothing_a_student_or_roster_wrote_runs_in_the_formgrader",),
    ),
    Mutant(
        "the feedback page renders a student's Markdown uncleaned",
        "grader/bridge/_feedback_page.py",
        (("        return _with_alt(markdown2html(context, source), words)\n",
          '        return _with_alt(__import__("nbconvert.filters.markdown", fromlist=["_"])'
          ".markdown2html(source), words)  # MUTANT\n"),),
        ("tests/bridge/test_page_payloads.py::test_nothing_a_student_wrote_runs_in_their_feedback_page",),
    ),
    Mutant(
        "the old seccomp rule on shared anonymous mmap is back (CUDA: out of memory)",
        "grader/student/_syscalls.py",
        (('    _deny(filter_, "socket", seccomp.Arg(0, seccomp.NE, _AF_UNIX))\n',
          '    _deny(filter_, "mmap", seccomp.Arg(3, seccomp.MASKED_EQ, 0x21, 0x21))  # MUTANT\n'
          '    _deny(filter_, "socket", seccomp.Arg(0, seccomp.NE, _AF_UNIX))\n'),),
        ("tests/student/test_memory_bound.py::test_what_cuda_needs_is_allowed_in_the_students_process",),
    ),
    Mutant(
        "no Landlock rule for the student's own /proc/self/task (CUDA: Error 304)",
        "grader/student/_landlock.py",
        (("        _allow_own_threads(libc, ruleset, handled)\n", "        pass  # MUTANT\n"),),
        ("tests/student/test_memory_bound.py::test_what_cuda_needs_is_allowed_in_the_students_process",),
    ),
    Mutant(
        "the judge's memory watch is off",
        "grader/judge/_memory_watch.py",
        (("                if mapped_bytes(pid) > self._budget:",
          "                if False:  # MUTANT"),),
        ("tests/student/test_memory_bound.py::"
         "test_6_gib_of_memory_no_rlimit_counts_costs_only_its_cell[shared anonymous]",),
    ),
    Mutant(
        "a judge with CUDA grades although the student's process cannot start it",
        "grader/judge/_judge.py",
        (("    require_student_cuda()  # with CUDA here", "    # MUTANT  # with CUDA here"),),
        ("tests/judge/test_no_silent_gpu_skip.py::"
         "test_grading_stops_where_the_judge_has_cuda_and_the_students_process_cannot",),
    ),
    Mutant(
        "a GPU check is skipped when the student's code broke CUDA in its process",
        "grader/judge/_plugin.py",
        (("        if entry is not None and report.skipped and not _cuda_lost_by_student(call):",
          "        if entry is not None and report.skipped:  # MUTANT"),),
        ("tests/judge/test_no_silent_gpu_skip.py::"
         "test_once_the_probe_started_cuda_a_student_without_it_fails_its_gpu_checks",),
    ),
    Mutant(
        "a cell's code changes and its GPU recording is still shown",
        "course/04_devices.ipynb",
        (("torch.tensor([1], device=DEVICE) // torch.tensor([0], device=DEVICE)",
          "torch.tensor([1], device=DEVICE) % torch.tensor([0], device=DEVICE)"),),
        ("tests/widgets/test_gpu_outputs.py::"
         "test_every_recorded_output_was_printed_by_its_cells_current_code",),
    ),
    Mutant(
        "late days spent in name order, not due-date order",
        "grader/batch/_late_policy.py",
        (("    return sorted(due, key=lambda name: (due[name] is None,",
          "    return sorted(due, key=lambda name: (False,  # MUTANT"),),
        ("tests/batch/test_late_policy.py::"
         "test_a_sample_class_spends_late_days_in_due_order_then_pays_per_day",),
    ),
    Mutant(
        "the late-day budget overspent, the penalty uncapped",
        "grader/batch/_late_policy.py",
        (("            spent = 0 if refused else min(late, left)",
          "            spent = 0 if refused else late  # MUTANT"),
         ("    return min(policy.max_penalty, policy.penalty_per_day * charged)",
          "    return policy.penalty_per_day * charged  # MUTANT"),
         ("max(0.0, hand_in.raw * (1 - penalty))", "hand_in.raw * (1 - penalty)")),
        ("tests/batch/test_late_policy.py::"
         "test_the_penalised_score_stays_between_0_and_the_raw_and_no_budget_is_overspent",),
    ),
    Mutant(
        "Canvas and Moodle get the raw score, the late policy ignored",
        "grader/batch/_export.py",
        (("    return [_number(_penalised(book.grades.get((student, n)))) for n in names]",
          "    return [_number((book.grades.get((student, n)) or {}).get('total'))"
          " for n in names]  # MUTANT"),),
        ("tests/batch/test_late_policy.py::"
         "test_the_exports_keep_the_raw_score_beside_the_penalised_one",),
    ),
    Mutant(
        "the namespaces probe says yes without trying: a container grades unconfined",
        "grader/student/_namespaces.py",
        (('    return "" if answer == "ok" else answer',
          '    return ""  # MUTANT'),),
        ("tests/student/test_no_namespaces.py::"
         "test_grading_in_a_container_stops_saying_what_was_refused_and_the_remedies",),
    ),
    Mutant(
        "the Gradescope score is the autograded one: a grade changed by hand ignored",
        "grader/batch/_result_files.py",
        (('            "score": exercise.score, "status": "passed" if _passed(exercise)',
          '            "score": round((exercise.max or 0) * (exercise.record or {})'
          '.get("passed", 0) / max(1, (exercise.record or {}).get("total", 0)), 2),'
          ' "status": "passed" if _passed(exercise)'),),
        ("tests/batch/test_result_files.py::"
         "test_the_scores_are_the_gradebooks_a_score_changed_by_hand_included",),
    ),
    Mutant(
        "the width rule back to Chinese ideographs only: kana and hangul one column",
        "anatomy_widgets/_language.py",
        (('    return unicodedata.east_asian_width(char) in "WF"\n',
          '    return "\\u3000" <= char <= "\\u303f" or "\\u3400" <= char <= "\\u9fff"'
          '  # MUTANT\n'),),
        ("tests/widgets/test_language.py::test_the_points_table_lines_up_names_in_kana_and_hangul",
         "tests/widgets/test_language.py::test_fill_joins_japanese_words_and_keeps_koreans_spaces"),
    ),
    Mutant(
        "fill() joins hangul too: a Korean template loses the spaces between its words",
        "anatomy_widgets/_language.py",
        (('    return is_wide(char) and not unicodedata.name(char, "").startswith("HANGUL")\n',
          '    return is_wide(char)  # MUTANT\n'),),
        ("tests/widgets/test_language.py::test_fill_joins_japanese_words_and_keeps_koreans_spaces",),
    ),
    Mutant(
        "grading ignores the submitting id: every student graded on the whole list",
        "grader/bridge/_nbgrader.py",
        (("        variants = variants_of(instructor, assignment, "
          'resources["nbgrader"].get("student"))',
          "        variants = {}  # MUTANT"),),
        ("tests/bridge/test_variant_delivery.py::"
         "test_the_grader_takes_the_variant_from_the_submitting_id_never_the_notebook",),
    ),
    Mutant(
        "the batch takes every submission's variant from one folder name, not its student's",
        "grader/batch/_parallel.py",
        (("            variants = variants_of(folder.parent, assignment, path.parents[1].name)",
          "            variants = variants_of(folder.parent, assignment, path.parents[2].name)"
          "  # MUTANT"),),
        ("tests/bridge/test_variant_delivery.py::"
         "test_the_batch_judges_each_submission_on_its_folders_id",),
    ),
    Mutant(
        "the hidden checks grade every item, not the student's variant",
        "grader/hidden/_variant_items.py",
        (("    graded = [item for item in items if item in yours]\n",
          "    graded = list(items)  # MUTANT\n"),),
        ("tests/bridge/test_variants.py::test_own_table_scores_full_and_only_the_variant_is_graded",
         "tests/bridge/test_variants.py::"
         "test_a_copied_table_scores_as_wrong_for_the_items_it_lacks_and_says_why",
         "tests/bridge/test_variants.py::test_predict_verdicts_grades_the_variants_claims_of_each_group"),
    ),
    Mutant(
        "predict_verdicts' group checks grade every claim of the group, not the variant's",
        "grader/hidden/pitfalls/test.py",
        (('    claims = yours_among(variant, "predict_verdicts", GROUPS[group], CLAIMS,\n',
          '    claims = GROUPS[group] or yours_among(variant, "predict_verdicts", GROUPS[group], '
          'CLAIMS,  # MUTANT\n'),),
        ("tests/bridge/test_variants.py::test_predict_verdicts_grades_the_variants_claims_of_each_group",),
    ),
    Mutant(
        "predict_verdicts' variant drawn at large: one student's group of 3, another's of 1",
        "grader/bridge/_variants.py",
        (("    if exercise in GROUPED:\n", "    if False:  # MUTANT\n"),),
        ("tests/bridge/test_variants.py::test_predict_verdicts_variants_take_two_claims_of_every_group",),
    ),
    Mutant(
        "the feedback page never says that a pasted table is for another variant",
        "grader/bridge/_verdict_text.py",
        (('    if record.get("another_variant"):\n', "    if False:  # MUTANT\n"),),
        ("tests/bridge/test_variant_grading.py::"
         "test_a_pasted_table_loses_the_points_and_the_page_says_why_once",),
    ),
    Mutant(
        "a table made for another variant gets no line of feedback",
        "grader/judge/_plugin.py",
        (('            exercises[name]["another_variant"] = True',
          "            pass  # MUTANT"),),
        ("tests/bridge/test_variants.py::"
         "test_a_copied_table_scores_as_wrong_for_the_items_it_lacks_and_says_why",),
    ),
    Mutant(
        "the regrade report swaps before and after: a student who gained is shown losing",
        "grader/batch/_regrade.py",
        (('    scores = (score(old["record"], old["points"]), score(new["record"], new["points"]))',
          '    scores = (score(new["record"], new["points"]), score(old["record"], old["points"]))'
          '  # MUTANT'),),
        ("tests/batch/test_regrade_report.py::"
         "test_a_check_that_now_passes_moves_its_students_up_and_no_one_else",),
    ),
    Mutant(
        "the regrade report lists students who did not move",
        "grader/batch/_regrade.py",
        (("    if scores[0] == scores[1] and not (now_passing or now_failing or dropped):",
          "    if False:  # MUTANT"),),
        ("tests/batch/test_regrade_report.py::"
         "test_a_check_that_now_passes_moves_its_students_up_and_no_one_else",),
    ),
    Mutant(
        "the regrade report hides that a score set by hand stands",
        "grader/batch/_regrade.py",
        (("    by_hand = _hand_changed(db_url, assignment) if found else {}",
          "    by_hand = {}  # MUTANT"),),
        ("tests/batch/test_regrade_report.py::"
         "test_the_report_files_from_autograded_notebooks_formula_safe_hand_scores_kept",),
    ),
    Mutant(
        "a first grading writes a regrade report",
        "grader/batch/_regrade.py",
        (("    if not before:\n        return None\n", ""),),
        ("tests/batch/test_regrade_report.py::"
         "test_the_report_files_from_autograded_notebooks_formula_safe_hand_scores_kept",),
    ),
    Mutant(
        "any edit of the grader judges every assignment again",
        "grader/store/_verdict_sources.py",
        (("                           if chapter != own)) & every",
          "                           if chapter != own)) & set()  # MUTANT"),),
        ("tests/store/test_verdict_sources.py::"
         "test_an_edit_of_chapter_1s_own_files_judges_chapter_1_again_and_keeps_chapter_2",),
    ),
    Mutant(
        "an assignment's own hidden checks left out of its verdict key",
        "grader/store/_verdict_sources.py",
        (("                           if chapter != own)) & every",
          "                           )) & every  # MUTANT"),),
        ("tests/store/test_verdict_sources.py::"
         "test_an_edit_of_chapter_1s_own_files_judges_chapter_1_again_and_keeps_chapter_2",),
    ),
    Mutant(
        "another chapter's folder is its named pieces only: a file beside them counts for all",
        "grader/store/_verdict_sources.py",
        (("    return {path for path in every if path.is_relative_to(folder)} | {givens}",
          "    return {folder / f\"{piece}.py\" for piece in (\"test\", \"strategies\", "
          "\"oracles\", \"wrong_answers\")} | {givens}  # MUTANT"),),
        ("tests/store/test_verdict_sources.py::"
         "test_an_edit_of_chapter_1s_own_files_judges_chapter_1_again_and_keeps_chapter_2",
         "tests/store/test_verdict_sources.py::"
         "test_another_chapters_file_counts_where_a_counted_file_imports_it"),
    ),
    Mutant(
        "an imported chapter package is read as a module file: its __init__.py is left out",
        "grader/store/_verdict_sources.py",
        (("    return base / \"__init__.py\" if base.is_dir() else base.with_suffix(\".py\")",
          "    return base.with_suffix(\".py\")  # MUTANT"),),
        ("tests/store/test_verdict_sources.py::"
         "test_another_chapters_file_counts_where_a_counted_file_imports_it",),
    ),
    Mutant(
        "the verdict key reads only the imports at a module's top, not those in functions",
        "grader/store/_verdict_sources.py",
        (("    for node in _statements(ast.parse(source)):",
          "    for node in ast.parse(source).body:  # MUTANT"),),
        ("tests/store/test_verdict_sources.py::"
         "test_another_chapters_file_counts_where_a_counted_file_imports_it",),
    ),
    Mutant(
        "feedback's time is counted as autograde's: the phase table loses a phase",
        "grader/bridge/_steps.py",
        (('"generate_feedback": "feedback"}',
          '"generate_feedback": "nbgrader autograde"}  # MUTANT'),),
        ("tests/batch/test_grading_phases.py::test_a_graded_class_records_every_phase_on_its_lane",),
    ),
    Mutant(
        "the phases count no live child process (the warm judges)",
        "grader/batch/_phases.py",
        (("    for process in psutil.Process().children(recursive=True):",
          "    for process in ():  # MUTANT"),),
        ("tests/batch/test_grading_phases.py::"
         "test_a_child_process_is_counted_alive_and_after_it_ended",),
    ),
    Mutant(
        "the bench prints core-seconds per run, not per notebook",
        "benchmarks/grading_bench.py",
        (("""f"{phase['cpu_s'] / notebooks:17.2f}")""",
          """f"{phase['cpu_s']:17.2f}")  # MUTANT"""),),
        ("tests/batch/test_grading_phases.py::"
         "test_the_bench_prints_core_seconds_per_notebook_from_the_record",),
    ),
    Mutant(
        "allow-unconfined left out of the verdict key: a confined verdict reused unconfined",
        "grader/_settings.py",
        (('                for each in fields(self) if each.metadata["verdict"]}',
          '                for each in fields(self) if each.metadata["verdict"]'
          ' and each.name != "allow_unconfined"}  # MUTANT'),),
        ("tests/store/test_verdict_cache.py::"
         "test_every_setting_a_verdict_depends_on_is_in_its_key_and_no_other",),
    ),
    Mutant(
        "a second reader of the environment: the LMS read in collect, beside Settings",
        "grader/collect/_zip_names.py",
        (("    lms = Settings.from_environment().lms",
          '    lms = os.environ.get("TENSOR_ANATOMY_LMS", "canvas").lower()  # MUTANT'),),
        ("tests/core/test_settings.py::"
         "test_the_settings_module_is_the_graders_only_reader_of_its_variables",),
    ),
    Mutant(
        "python -m grader settings prints the gradebook's URL, password and all",
        "grader/_settings.py",
        (('        return "" if value is None else "(set, not shown)"',
          '        return "" if value is None else str(value)  # MUTANT'),),
        ("tests/core/test_settings.py::"
         "test_the_settings_command_lists_every_setting_with_its_help",),
    ),
    Mutant(
        "the regrade report blames the grader where the student handed in again",
        "grader/batch/_regrade.py",
        (("            again = earlier.answers != graded.answers",
          "            again = False  # MUTANT"),),
        ("tests/batch/test_regrade_report.py::"
         "test_a_student_who_handed_in_again_is_told_apart_from_the_graders_move",),
    ),
    Mutant(
        "the phases miss the students' processes, which the kernel reaps",
        "grader/batch/_phases.py",
        (("            with self._reaped.sampling():\n                yield",
          "            with contextlib.nullcontext():  # MUTANT\n                yield"),),
        ("tests/batch/test_grading_phases.py::"
         "test_a_process_the_kernel_reaps_is_counted_while_it_lived",),
    ),
    Mutant(
        "a cell's source kept as its list of lines: code and titles read wrong everywhere",
        "grader/_notebook.py",
        (('    return "".join(text) if isinstance(text, list) else str(text)',
          '    return str(text)  # MUTANT'),),
        ("tests/core/test_cell_helpers.py::test_a_cells_source_is_one_string",),
    ),
    Mutant(
        "a private copy of a cell's source again, beside grader._notebook.source",
        "grader/_navigation.py",
        (('    return _notebook.source(nb["cells"][0]).splitlines()[0].lstrip("# ").strip()',
          '    return "".join(nb["cells"][0]["source"]).splitlines()[0].lstrip("# ").strip()'
          '  # MUTANT'),),
        ("tests/core/test_cell_helpers.py::test_no_other_module_keeps_its_own_copy",),
    ),
    Mutant(
        "the run's unjudged check looks a verdict up on no variant",
        "grader/batch/_run.py",
        (("        variants = variants_of(course.instructor, assignment, path.parents[1].name)",
          "        variants = None  # MUTANT"),),
        ("tests/bridge/test_variant_delivery.py::"
         "test_the_runs_unjudged_check_finds_each_verdict_on_its_students_variant",),
    ),
    Mutant(
        "a check compared with stored answers in a chapter whose folder holds no oracles.py",
        "grader/checks/storage_strides/__init__.py",
        (('              redraw=_contiguous_strides_redrawn)\n',
          '              redraw=_contiguous_strides_redrawn, stored=True)  # MUTANT\n'),),
        ("tests/judge/test_hidden_layout.py::"
         "test_every_chapters_folder_holds_the_same_pieces[storage_strides]",),
    ),
    Mutant(
        "an exercise's oracle lost its decorator (ORACLES is derived from them)",
        "grader/hidden/devices/oracles.py",
        (('@oracle("unpack")\n', ""),),
        ("tests/checks/test_public_examples.py::"
         "test_the_stored_checks_are_the_twelve_with_an_oracle_each",),
    ),
    Mutant(
        "a failed check's input is not kept as data: the feedback draws nothing",
        "grader/judge/_plugin.py",
        (('            entry["inputs"] = inputs_as_data(self.last_call.arguments)',
          '            entry["inputs"] = []  # MUTANT'),),
        ("tests/judge/test_failing_inputs.py::"
         "test_a_failing_tensor_input_is_kept_as_its_layout_and_drawn",),
    ),
    Mutant(
        "every handle made without a record notes its calls in one module global: "
        "one handle's reader sees another's calls",
        "grader/judge/_remote.py",
        (("        self.last_call = LastCall() if last_call is None else last_call",
          "        self.last_call = _EVERY_CALL if last_call is None else last_call  # MUTANT"),
         ("class RemoteStudent:\n", "_EVERY_CALL = LastCall()\n\n\nclass RemoteStudent:\n")),
        ("tests/judge/test_call_record.py::"
         "test_a_handle_notes_its_calls_in_its_own_record_or_the_one_handed_to_it",),
    ),
    Mutant(
        "the plugin never forgets a call: a check that calls nothing shows the last one's input",
        "grader/judge/_plugin.py",
        (("        self.last_call.forget()  # the calls a check makes are its own ...",
          "        pass  # MUTANT"),
         ("        # notebooks, and the arguments are the judge's tensors, referenced.\n"
          "        self.last_call.forget()",
          "        pass  # MUTANT")),
        ("tests/judge/test_call_record.py::"
         "test_each_check_of_a_session_has_its_own_last_call_and_none_is_kept",),
    ),
    Mutant(
        "the judge's handle hands the plugin none of its calls: failures lose their inputs",
        "grader/judge/_plugin.py",
        (("            remote.last_call = self.last_call", "            pass  # MUTANT"),),
        ("tests/judge/test_call_record.py::"
         "test_each_check_of_a_session_has_its_own_last_call_and_none_is_kept",),
    ),
    Mutant(
        "a call's arguments kept in a module global again, beside the handle's record",
        "grader/judge/_remote.py",
        (("        self.last_call.sent(args, kwargs)\n",
          "        global last_arguments  # MUTANT\n"
          "        last_arguments = args, kwargs\n"
          "        self.last_call.sent(args, kwargs)\n"),),
        ("tests/judge/test_call_record.py::test_no_module_of_the_judge_writes_a_global_at_run_time",),
    ),
    Mutant(
        "a failing tensor's data loses its storage offset: drawn from the storage's start",
        "grader/judge/_describe.py",
        (('                       "offset": t.storage_offset(),',
          '                       "offset": 0,  # MUTANT'),),
        ("tests/judge/test_failing_inputs.py::"
         "test_a_failing_tensor_input_is_kept_as_its_layout_and_drawn",),
    ),
    Mutant(
        "storage_position's picture ignores the offset argument",
        "grader/bridge/_drawn_inputs.py",
        (("        offset = 0 if offset_at is None else inputs[offset_at]",
          "        offset = 0  # MUTANT"),),
        ("tests/bridge/test_feedback_pages.py::"
         "test_shapes_that_broadcast_are_drawn_lined_up_and_layouts_in_numbers_too",),
    ),
    Mutant(
        "a verdict stored before inputs were kept is read as if it had them",
        "grader/bridge/_drawn_inputs.py",
        (('for check in failures if isinstance(check.get("inputs"), list)]',
          'for check in failures]  # MUTANT'),),
        ("tests/bridge/test_feedback_pages.py::"
         "test_a_verdict_stored_before_inputs_were_kept_has_no_picture_and_no_error",),
    ),
    Mutant(
        "the run's parallel judging writes the verdict store itself again",
        "grader/batch/_parallel.py",
        (("        _verdicts.verdict_for(Path(folder), nb, assignment,\n"
          "                              lambda: judge(nb, assignment, variants=variants, "
          "kept=kept),\n                              variants)\n",
          "        verdict = judge(nb, assignment, variants=variants)\n"
          "        _verdicts.store_verdict(Path(folder), nb, assignment, verdict, variants)"
          "  # MUTANT\n"),),
        ("tests/store/test_run_state.py::test_only_the_store_writes_a_verdict",),
    ),
    Mutant(
        "restored notebooks kept in a module-level cache",
        "grader/bridge/_structure.py",
        (("def _identity(path: Path) -> tuple:\n",
          "_kept: dict = {}  # MUTANT\n\n\ndef _identity(path: Path) -> tuple:\n"),),
        ("tests/store/test_run_state.py::"
         "test_no_module_of_the_run_holds_state_filled_at_run_time",),
    ),
    Mutant(
        "nbgrader's sanitize step is not given the run's restored notebooks",
        "grader/bridge/_nbgrader.py",
        (("    restore = RestoreStructure if ahead is None else type(",
          "    restore = RestoreStructure if True else type(  # MUTANT"),),
        ("tests/store/test_run_state.py::"
         "test_the_run_s_restored_notebooks_survive_nbgrader_s_config_copy",
         "tests/bridge/test_structure.py::"
         "test_a_submission_judged_ahead_is_not_restored_again_by_nbgrader"),
    ),
    Mutant(
        "nbgrader's steps are made without the run's restored notebooks",
        "grader/bridge/_steps.py",
        (("            config.Autograde.sanitize_preprocessors = sanitize_pipeline(ahead)\n",
          "            pass  # MUTANT\n"),),
        ("tests/store/test_run_state.py::test_nbgrader_s_steps_take_the_run_s_restored_notebooks",),
    ),
    Mutant(
        "check() tries the fixed examples whatever variant the student was published",
        "grader/checks/_registry.py",
        (("self.examples(), your_example_seed(), self.redraw)",
          "self.examples(), None, self.redraw)  # MUTANT"),),
        ("tests/checks/test_variant_examples.py::test_two_students_are_shown_different_examples",
         "tests/checks/test_variant_examples.py::"
         "test_check_tries_the_students_examples_and_the_seed_is_no_key"),
    ),
    Mutant(
        "every student's examples drawn alike, whatever their seed",
        "grader/checks/_variant_examples.py",
        (("    rng = random.Random(hashlib.sha256(f\"{seed}:{name}\".encode()).digest())",
          "    rng = random.Random(name)  # MUTANT"),),
        ("tests/checks/test_variant_examples.py::test_two_students_are_shown_different_examples",),
    ),
    Mutant(
        "an exercise's own redraw rule ignored: only float tensors are drawn again",
        "grader/checks/_variant_examples.py",
        (("    redraw = redraw or floats_redrawn", "    redraw = floats_redrawn  # MUTANT"),),
        ("tests/checks/test_variant_examples.py::test_two_students_are_shown_different_examples",
         "tests/checks/test_variant_examples.py::test_the_solution_passes_every_variants_examples"),
    ),
    Mutant(
        "a redrawn shape's sizes renamed many-to-one: a clash may broadcast",
        "grader/checks/_redraw.py",
        (("    new = dict(zip(old, rng.sample(range(2, 8), len(old))))",
          "    new = dict(zip(old, rng.choices(range(2, 8), k=len(old))))  # MUTANT"),),
        ("tests/checks/test_variant_examples.py::test_a_redrawn_example_keeps_its_verdict",),
    ),
    Mutant(
        "check() tries a stored-truth exercise's fixed examples whatever was published",
        "grader/checks/_registry.py",
        (("            return _public_examples.decode(your_stored_examples(self.name))",
          "            return _public_examples.decode([])  # MUTANT"),),
        ("tests/checks/test_variant_examples.py::test_two_students_are_shown_different_examples",
         "tests/checks/test_variant_examples.py::"
         "test_check_tries_the_students_examples_and_the_seed_is_no_key"),
    ),
    Mutant(
        "check()'s success line shows an example everyone gets, not the student's own",
        "grader/checks/__init__.py",
        (("            call=shown(name, tried.yours[0])))",
          "            call=shown(name, entry.fixed()[0][0])))  # MUTANT"),),
        ("tests/checks/test_variant_examples.py::"
         "test_checks_success_line_shows_the_students_own_example",),
    ),
    Mutant(
        "the judge shrinks a failure even where the instructor asked for the first one",
        "grader/judge/_plugin.py",
        (("[Phase.shrink] * SHRINKS,", "[Phase.shrink],  # MUTANT"),),
        ("tests/judge/test_first_failure.py::"
         "test_the_first_failing_input_scores_what_the_smallest_scores",),
    ),
    Mutant(
        "an input never shrunk is called the smallest failing input",
        "grader/judge/_describe.py",
        (("        smallest = shrunk and not unfinished(exc)",
          "        smallest = not unfinished(exc)  # MUTANT"),),
        ("tests/judge/test_first_failure.py::"
         "test_the_first_failing_input_scores_what_the_smallest_scores",),
    ),
    Mutant(
        "add_at_'s redrawn rows are drawn anew: a row indexed twice may not be any more",
        "grader/checks/shape_ops_broadcasting/__init__.py",
        (("    rows = renamed_ints(index, rng, 0, target.shape[0] - 1)",
          "    rows = new_ints(index, rng, 0, target.shape[0] - 1)  # MUTANT"),),
        ("tests/checks/test_variant_examples.py::"
         "test_a_redrawn_example_keeps_indices_in_range_and_repeated",),
    ),
    Mutant(
        "last_tokens' redrawn lengths may be 0, outside the contract",
        "grader/checks/shape_ops_broadcasting/__init__.py",
        (("    return new_values(x, rng), new_ints(lengths, rng, 1, x.shape[1])",
          "    return new_values(x, rng), new_ints(lengths, rng, 0, x.shape[1])  # MUTANT"),),
        ("tests/checks/test_variant_examples.py::"
         "test_a_redrawn_example_keeps_indices_in_range_and_repeated",),
    ),
    Mutant(
        "a kept strategy's key forgets types: shapes(max_dims=True) would be shapes(max_dims=1)",
        "grader/hidden/_reused.py",
        (("    return type(value), value\n",
          "    return value  # MUTANT\n"),),
        ("tests/judge/test_reused_strategies.py::"
         "test_equal_values_of_other_types_are_other_arguments",),
    ),
    Mutant(
        "a tensor is kept as a strategy's key: every tensor drawn would live as long as the judge",
        "grader/hidden/_reused.py",
        (("        raise TypeError(\"a tensor is no key\")",
          "        pass  # MUTANT"),),
        ("tests/judge/test_reused_strategies.py::"
         "test_arguments_that_are_no_key_make_a_new_strategy",),
    ),
    Mutant(
        "the bench compares our fastest run, not the median",
        "benchmarks/grading_bench.py",
        (("    return runs[len(runs) // 2]\n", "    return runs[0]  # MUTANT\n"),),
        ("tests/batch/test_grading_phases.py::"
         "test_the_bench_compares_the_median_of_our_runs_and_refuses_runs_that_disagree",),
    ),
    Mutant(
        "examples kept on disk without reading them back first",
        "grader/judge/_replay_file.py",
        (("    exact = {key: log for key, log in recorded.items() if _reads_back_exactly(log)}\n",
          "    exact = dict(recorded)  # MUTANT\n"),),
        ("tests/judge/test_replay_file.py::test_what_torch_save_would_change_is_not_kept",),
    ),
    Mutant(
        "the comparison of kept examples blind to the conjugate and negative bits",
        "grader/judge/_replay_file.py",
        (("    return (t.dtype, t.shape, t.stride(), t.storage_offset(), t.device, t.is_conj(),\n"
          "            t.is_neg(), t.requires_grad,",
          "    return (t.dtype, t.shape, t.stride(), t.storage_offset(), t.device,  # MUTANT\n"
          "            t.requires_grad,"),),
        ("tests/judge/test_replay_file.py::test_the_comparison_sees_every_difference",),
    ),
    Mutant(
        "the comparison of kept examples blind to storage sharing",
        "grader/judge/_replay_file.py",
        (("    if storages.setdefault(ours, theirs) != theirs or storages.setdefault(theirs, ours) "
          "!= ours:\n",
          "    if False:  # MUTANT\n"),),
        ("tests/judge/test_replay_file.py::test_the_comparison_sees_every_difference",),
    ),
    Mutant(
        "kept examples read with the unpickler that runs code",
        "grader/judge/_replay_file.py",
        (("            stored = torch.load(path, weights_only=True)\n",
          "            stored = torch.load(path, weights_only=False)  # MUTANT\n"),),
        ("tests/judge/test_replay_file.py::test_a_file_that_would_run_code_is_not_read",),
    ),
    Mutant(
        "the feedback page's pictures drawn without their alternative text",
        "grader/bridge/templates/feedback_page.html.j2",
        (("alt=\"{{ output | get_metadata('alt', 'image/svg+xml') | escape_html }}\">",
          ">{# MUTANT #}"),),
        ("tests/bridge/test_feedback_pages.py::"
         "test_every_picture_on_the_feedback_page_says_what_it_shows_in_the_student_s_language",),
    ),
    Mutant(
        "a Markdown image on the feedback page left without alternative text",
        "grader/bridge/_feedback_page.py",
        (('    if "<img" not in html:  # most cells: nothing to parse\n',
          "    if True:  # MUTANT\n"),),
        ("tests/bridge/test_feedback_pages.py::"
         "test_every_picture_on_the_feedback_page_says_what_it_shows_in_the_student_s_language",),
    ),
    Mutant(
        "nbgrader's metadata check, its schema checked once, lets a broken cell through",
        "grader/bridge/_cell_metadata.py",
        (("        if error is not None:\n            raise error\n",
          "        if False:  # MUTANT\n            raise error\n"),),
        ("tests/bridge/test_cell_metadata.py::"
         "test_every_cell_gets_nbgrader_s_own_verdict[01_storage_strides]",),
    ),
    Mutant(
        "nbconvert validates each notebook after every one of nbgrader's preprocessors",
        "nbgrader_config.py",
        (("c.Exporter.optimistic_validation = True\n",
          "c.Exporter.optimistic_validation = False  # MUTANT\n"),),
        ("tests/bridge/test_steps.py::"
         "test_nbgrader_s_steps_validate_a_notebook_once_and_still_refuse_an_invalid_one",),
    ),
    Mutant(
        "nbgrader's start-up puts its scripts on PATH again, beside the judges starting",
        "grader/bridge/_steps.py",
        (("    if path.split(os.pathsep)[0] != scripts:\n",
          "    if True:  # MUTANT\n"),),
        ("tests/bridge/test_steps.py::"
         "test_nbgrader_s_start_up_changes_nothing_a_judge_is_started_with",),
    ),
    Mutant(
        "the grading command builds RFC 3987's grammar as it starts",
        "grader/_iri_grammar.py",
        (("    if _NAME in sys.modules:\n        return\n",
          "    if True:  # MUTANT\n        return\n"),),
        ("tests/core/test_iri_grammar.py::"
         "test_the_grading_command_starts_without_building_the_grammar",),
    ),
    Mutant(
        "the IRI stand-in has no __file__: importing torch builds the grammar",
        "grader/_iri_grammar.py",
        (("    stand_in.__file__ = spec.origin\n",
          "    pass  # MUTANT\n"),),
        ("tests/core/test_iri_grammar.py::"
         "test_importing_torch_after_it_does_not_build_the_grammar_either",),
    ),
    Mutant(
        "the IRI check's stand-in answers every value as valid",
        "grader/_iri_grammar.py",
        (("    return _real().is_valid_syntax(term, value)\n",
          "    return True  # MUTANT\n"),),
        ("tests/core/test_iri_grammar.py::"
         "test_an_iri_check_answers_as_without_the_stand_in",),
    ),
    Mutant(
        "judges are handed every variable of the grading command's environment",
        "grader/student/_sandbox.py",
        (("            if name in _JUDGE_VARIABLES or name.startswith(_JUDGE_PREFIXES)}\n",
          "            if True}  # MUTANT\n"),),
        ("tests/student/test_escape.py::"
         "test_the_judge_never_holds_the_grading_commands_secrets",),
    ),
    Mutant(
        "every judge starts an interpreter of its own, the template unused",
        "grader/judge/_judge_server.py",
        (('        if "judge-template" in speed_pieces_off():\n',
          "        if True:  # MUTANT\n"),),
        ("tests/judge/test_judge_template.py::"
         "test_two_judges_are_forks_of_one_template_and_grade_in_parallel",),
    ),
    Mutant(
        "the template keeps its copies of a judge's pipes: a killed judge's answers never end",
        "grader/judge/_judge_template.py",
        (("            for own in (*fds, pidfd):",
          "            for own in (pidfd,):  # MUTANT"),),
        ("tests/judge/test_judge_template.py::test_a_killed_judge_s_answers_end_at_once",),
    ),
    Mutant(
        "a forked judge outlives its template",
        "grader/judge/_judge_template.py",
        (("        _sandbox.die_with(template)\n", "        pass  # MUTANT\n"),),
        ("tests/judge/test_judge_template.py::"
         "test_judges_stop_with_their_template_and_a_stopped_template_is_started_again",),
    ),
    Mutant(
        "a stopped template is not started again: every judge after it fails",
        "grader/judge/_judge_server.py",
        (("        for attempt in (1, 2):\n", "        for attempt in (2,):  # MUTANT\n"),),
        ("tests/judge/test_judge_template.py::"
         "test_judges_stop_with_their_template_and_a_stopped_template_is_started_again",),
    ),
    Mutant(
        "templates of earlier configurations are never stopped",
        "grader/judge/_judge_server.py",
        (("        _stop_idle_templates(keep=key)\n", "        pass  # MUTANT\n"),),
        ("tests/judge/test_judge_template.py::"
         "test_a_template_no_judge_of_which_runs_is_stopped_when_another_configuration_starts_one",),
    ),
    Mutant(
        "judges started ahead and not taken idle on, never stopped",
        "grader/judge/_judge_server.py",
        (("        for warm in untaken:\n            warm.close()\n",
          "        for warm in untaken:\n            pass  # MUTANT\n"),),
        ("tests/judge/test_warm.py::"
         "test_judges_started_ahead_grade_the_batch_and_those_not_taken_are_stopped",),
    ),
    Mutant(
        "the grading run starts its judges only when judging starts",
        "grader/batch/_run.py",
        (("            self._judges.enter_context(started_ahead(self._judges_wanted()))\n",
          "            pass  # MUTANT\n"),),
        ("tests/batch/test_batch_grading.py::"
         "test_the_run_starts_a_judge_per_worker_before_judging_and_stops_them_after",),
    ),
    Mutant(
        "a free worker searches an assignment another worker is searching now",
        "grader/batch/_dealing.py",
        (("        ready = [a for a in self._left if a in self._judged or not others_judging]\n",
          "        ready = list(self._left)  # MUTANT\n"),),
        ("tests/batch/test_dealing.py::"
         "test_a_free_worker_waits_for_a_search_then_helps_with_its_queue",),
    ),
    Mutant(
        "a worker leaves its assignment's queue to start another",
        "grader/batch/_dealing.py",
        (("        for choices in (own, fresh):\n",
          "        for choices in (fresh, own):  # MUTANT\n"),),
        ("tests/batch/test_dealing.py::"
         "test_a_worker_keeps_to_its_assignment_and_a_free_one_starts_another",),
    ),
    Mutant(
        "judges run at the priority of nbgrader's lane",
        "grader/judge/_judge_server.py",
        (('    return 0 if "lane-first" in speed_pieces_off() else 10\n',
          "    return 0  # MUTANT\n"),),
        ("tests/judge/test_warm.py::test_judges_and_their_students_run_below_nbgrader_s_lane",),
    ),
    Mutant(
        "kept examples: a sequence compared once stands for any copy it meets later",
        "grader/judge/_replay_file.py",
        (('    pair = ("compared", id(recorded), id(back))',
          '    pair = ("compared", id(recorded))  # MUTANT'),),
        ("tests/judge/test_replay_file.py::"
         "test_sequences_of_numbers_and_shared_ones_compare_as_element_by_element",),
    ),
    Mutant(
        "kept examples: numbers compared by == alone, True as 1",
        "grader/judge/_replay_file.py",
        (("        same = list(map(type, recorded)) == list(map(type, back)) "
          "and recorded == back\n",
          "        same = recorded == back  # MUTANT\n"),),
        ("tests/judge/test_replay_file.py::"
         "test_sequences_of_numbers_and_shared_ones_compare_as_element_by_element",),
    ),
    Mutant(
        "nbgrader's warnings printed on the terminal, not kept in its step's log",
        "grader/bridge/_step_warnings.py",
        (("        if running and threading.get_ident() == step:\n",
          "        if False:  # MUTANT\n"),),
        ("tests/bridge/test_steps.py::"
         "test_a_step_keeps_its_own_warnings_and_other_threads_still_show_theirs",),
    ),
    Mutant(
        "a step keeps the warnings of every thread, the judges' client's too",
        "grader/bridge/_step_warnings.py",
        (("        if running and threading.get_ident() == step:\n",
          "        if running:  # MUTANT\n"),),
        ("tests/bridge/test_steps.py::"
         "test_a_step_keeps_its_own_warnings_and_other_threads_still_show_theirs",),
    ),
    Mutant(
        "a step's hook, left in a chain by another thread's step, keeps warnings after it",
        "grader/bridge/_step_warnings.py",
        (("        running = False\n", "        pass  # MUTANT\n"),),
        ("tests/bridge/test_steps.py::"
         "test_steps_in_two_threads_at_once_keep_their_own_and_leave_warnings_shown_after",),
    ),
    Mutant(
        "a failure among replayed examples searched again without shrinking first",
        "grader/judge/_replay.py",
        (("        if failure is not None and _shrinks(pyfuncitem.obj):",
          "        if False and _shrinks(pyfuncitem.obj):  # MUTANT"),),
        ("tests/judge/test_replay.py::"
         "test_a_failure_among_replayed_examples_is_searched_and_shrunk",),
    ),
    Mutant(
        "an unfinished stub's failure among replayed examples is searched, not decided there",
        "grader/judge/_replay.py",
        (("            if failure is None or unfinished(failure):",
          "            if failure is None:  # MUTANT"),),
        ("tests/judge/test_replay.py::"
         "test_a_stub_s_failure_among_replayed_examples_is_decided_there",),
    ),
    Mutant(
        "a stub's failing input is read from hypothesis's note, which a replay has not",
        "grader/judge/_describe.py",
        (("    if unfinished(exc) and getattr(exc, \"call\", None):",
          "    if False:  # MUTANT"),),
        ("tests/judge/test_replay.py::"
         "test_a_stub_s_failure_among_replayed_examples_is_decided_there",),
    ),
    Mutant(
        "the bench's run with failures not shrunk shrinks them after all",
        "benchmarks/grading_bench.py",
        (("""                          settings={variable("first_failure"): "1"})\n""",
          """                          settings={})  # MUTANT\n"""),),
        ("tests/batch/test_grading_phases.py::"
         "test_the_bench_grades_once_more_with_failures_not_shrunk_and_compares_the_scores",),
    ),
    Mutant(
        "nbgrader's gradebooks get an engine each inside the shared-engines context",
        "grader/bridge/_engines.py",
        (("            made[key] = own(url, poolclass=NullPool, **options)\n"
          "        return made[key]",
          "            pass\n"
          "        return own(url, poolclass=NullPool, **options)  # MUTANT"),),
        ("tests/bridge/test_engines.py::"
         "test_gradebooks_of_one_database_share_an_engine_and_see_each_other_s_rows",),
    ),
    Mutant(
        "the grading run opens its gradebooks without shared engines",
        "grader/batch/_run.py",
        (("        with self._engines():\n",
          "        with contextlib.nullcontext():  # MUTANT\n"),),
        ("tests/bridge/test_engines.py::"
         "test_the_grading_run_opens_its_gradebooks_with_shared_engines",),
    ),
]
