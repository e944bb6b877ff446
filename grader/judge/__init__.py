"""The judge's tier: one process per warm judge, trusted, holding the hidden checks.

``_judge`` runs an assignment's hidden checks (pytest and hypothesis) against
one notebook through ``_plugin``, its one pytest plugin (the ``student``
fixture, the verdict, and ``_replay``'s recorded examples); ``_remote`` is its
handle on the student's process (every call a round trip over the wire), over one
``_channel`` (a confined worker and its two pipes, with deadlines), noting each call in
the ``_call_record`` the plugin owns (no call state lives in a module);
``_describe`` turns a failure into feedback; ``_misconceptions`` names the
wrong answer a student's failures look like;
``_judge_server`` keeps judges warm for the grading command. Nothing here runs
student code: it only hears the student's answers.
"""
