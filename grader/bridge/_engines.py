"""One SQLAlchemy engine per gradebook for a grading run, not one per nbgrader ``Gradebook``.

nbgrader opens a ``Gradebook`` nine times per autograde, and each one makes a new engine
(``nbgrader.api.create_engine``), which compiles every SQL statement it runs again: the
compiled statements are cached per engine. Sharing one engine per database URL keeps
them. Measured, one notebook's steps, 3 x 5 notebooks: autograde 0.102 -> 0.078 s of CPU,
feedback 0.072 -> 0.063 s, about 1 core-s for the bench's 30 notebooks.

The shared engine opens a connection for each use and closes it after (``NullPool``), as
each ``Gradebook``'s own engine did until it was disposed: SQLite's locks and a server's
connections are held no longer than before. Engines are safe to share between threads;
each ``Gradebook`` still has its own session.
"""

import contextlib

__all__ = ["shared_engines"]


@contextlib.contextmanager
def shared_engines():
    """While open, every nbgrader ``Gradebook`` of one database URL shares one engine."""
    import nbgrader.api
    from sqlalchemy.pool import NullPool

    made, own = {}, nbgrader.api.create_engine

    def engine_for(url, **options):
        key = (str(url), tuple(sorted(options.items())))
        if key not in made:
            made[key] = own(url, poolclass=NullPool, **options)
        return made[key]

    nbgrader.api.create_engine = engine_for
    try:
        yield
    finally:
        nbgrader.api.create_engine = own
        for engine in made.values():
            engine.dispose()
