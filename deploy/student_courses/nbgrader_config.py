"""nbgrader on a student's server when the hub serves several courses.

``deploy/jupyterhub_config.py`` puts this folder on the student's ``JUPYTER_CONFIG_PATH``
(after ``deploy/student/``) when ``TENSOR_ANATOMY_HUB_COURSES`` names a course list. Their
server runs in ``~/tensor-anatomy-student/``, which holds a clone of each of their courses'
student editions, named by the course id. nbgrader's multi-course settings:

- no course id: the Assignment List offers every course of the exchange...
- ...that JupyterHub says the student is enrolled in (the hub group ``nbgrader-<course>``,
  asked by ``JupyterHubAuthPlugin`` with the server's own token);
- each course's assignments fetched into ``<course>/<assignment>``, its clone
  (``Exchange.path_includes_course``): two courses' ``01_storage_strides`` never meet.
"""

import os

c = get_config()  # noqa: F821 - provided by nbgrader when it loads this file

c.CourseDirectory.course_id = ""
c.Exchange.root = os.environ.get("TENSOR_ANATOMY_EXCHANGE", "/srv/nbgrader/exchange")
c.Exchange.path_includes_course = True
c.Authenticator.plugin_class = "nbgrader.auth.JupyterHubAuthPlugin"
