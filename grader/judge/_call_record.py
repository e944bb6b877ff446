"""The last call of the check now running, kept by the one who asks about it.

Every call of a student's function through a ``RemoteStudent`` handle notes itself in
the handle's ``LastCall``: its arguments as it starts, its request and reply once
answered. The grading plugin (``_plugin.Grading``) owns one record, hands it to every
handle it grades with, empties it before each check and reads it after a failure: the
failing input as data (``_describe.inputs_as_data``) and the student's answer to it
(``_misconceptions``). A handle made without one keeps a record of its own, so that no
call is ever seen by another handle's reader.
"""

__all__ = ["LastCall"]


class LastCall:
    """``arguments``: (args, kwargs) of the last call, replied to or not: the judge's own
    objects, referenced, not copied. ``exchange``: (request, reply) of that call if it got
    its reply, as they crossed the wire (nothing copied); None for a call that timed out or
    crashed, which shows no answer."""

    def __init__(self):
        self.forget()

    def forget(self) -> None:
        """No call yet: a new check's calls are its own."""
        self.arguments: tuple[list, dict] | None = None
        self.exchange: tuple[dict, dict] | None = None

    def sent(self, args: list, kwargs: dict) -> None:
        self.arguments, self.exchange = (args, kwargs), None

    def answered(self, request: dict, reply: dict) -> None:
        self.exchange = request, reply
