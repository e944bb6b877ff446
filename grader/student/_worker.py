"""The student's process: runs the notebook's cells, then answers calls.

Everything here is untrusted once the first cell runs: the student may patch
torch, builtins, this module or the wire format. That is harmless by design,
because this process only ever hears inputs and only ever says answers; the
oracle and the verdict live in the judge (``_remote``, ``_judge``).
"""

import ast
import builtins
import contextlib
import io
import os
import random

from grader import _wire


def _read_exactly(fd: int):
    def read(n: int) -> bytes:
        chunks = []
        while n:
            chunk = os.read(fd, n)
            if not chunk:
                raise EOFError
            chunks.append(chunk)
            n -= len(chunk)
        return b"".join(chunks)

    return read


def _describe(exc: BaseException) -> dict:
    try:
        message = str(exc)[:500]
    except BaseException:  # noqa: BLE001 - a student's __str__ may itself raise
        message = "<unprintable>"
    return {"status": "raised", "type": type(exc).__name__[:100], "message": message}


class _BoundedText(io.StringIO):
    """Keeps the first ``_wire.CELL_OUTPUT_LIMIT`` characters written; megabytes cost
    nothing."""

    def write(self, text) -> int:
        text = str(text)
        room = _wire.CELL_OUTPUT_LIMIT - self.tell()
        if room > 0:
            super().write(text[:room])
        return len(text)


def _compile_cell(source: str, filename: str):
    """The cell as (statements, last expression or None), like a kernel sees it."""
    tree = ast.parse(source, filename)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    body = compile(tree, filename, "exec")
    return body, compile(ast.Expression(last.value), filename, "eval") if last else None


def _bounded_repr(value) -> str:
    try:
        return repr(value)[:_wire.CELL_OUTPUT_LIMIT]
    except BaseException:  # noqa: BLE001 - a student's __repr__ may itself raise
        return "<unprintable>"


def _run_cell(namespace: dict, msg: dict) -> dict:
    printed, reply = _BoundedText(), {"status": "ok"}
    with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
        try:
            body, last = _compile_cell(msg["source"], f"<cell {msg.get('cell', '?')}>")
            exec(body, namespace)
            value = eval(last, namespace) if last is not None else None
            if value is not None:
                reply["result"] = _bounded_repr(value)
        except BaseException as exc:  # noqa: BLE001 - SystemExit in a cell is just an error
            reply = _describe(exc)
    return {**reply, "stdout": printed.getvalue()}


def _storages_as_sent(arguments) -> list:
    """A byte view of each argument's storage, in ``tensors_in`` order, taken before the call.

    The judge rebuilds a result over its own copy of these: one the call swaps in
    (``set_``, ``.data =``) or a list argument it reorders must not be mistaken for them.
    """
    import torch

    return [torch.empty(0, dtype=torch.uint8, device=t.device).set_(t.untyped_storage())
            for t in _wire.tensors_in(arguments)]


def _answer(fn, msg: dict, *before) -> dict:
    """Call ``fn(*before, *args, **kwargs)`` with the message's arguments; encode the answer.

    With ``inputs_after``, the answer is ``[result, args, kwargs]`` as the call
    left them, encoded together so that their sharing of storage shows.
    """
    # Decoded as one value: arguments that share a storage share it here too.
    args, kwargs = _wire.decode([msg["args"], msg["kwargs"]])
    shared_with = _storages_as_sent([args, kwargs])
    try:
        result = fn(*before, *args, **kwargs)
    except BaseException as exc:  # noqa: BLE001 - every failure is the student's answer
        return _describe(exc)
    try:
        value = (_wire.encode([result, args, kwargs]) if msg.get("inputs_after")
                 else _wire.encode(result, shared_with))
    except Exception as exc:  # noqa: BLE001
        return {"status": "ungradable", "message": str(exc)[:500]}
    return {"status": "ok", "value": value}


def _call(namespace: dict, msg: dict) -> dict:
    fn = namespace.get(msg["name"])
    return {"status": "missing"} if fn is None else _answer(fn, msg)


def _harness(namespace: dict, msg: dict) -> dict:
    """Run an instructor's harness on the student's function, here in the student's process.

    The harness only gathers facts the wire cannot carry (a graph, a callable's
    behaviour); whatever it returns is judged like any other answer.
    """
    fn = namespace.get(msg["name"])
    if fn is None:
        return {"status": "missing"}
    harness_namespace = {"__name__": "harness", "__builtins__": builtins}
    try:
        exec(compile(msg["source"], "<harness>", "exec"), harness_namespace)
        harness = harness_namespace[msg["entry"]]
    except BaseException as exc:  # noqa: BLE001 - the student may have broken exec or compile
        return _describe(exc)
    return _answer(harness, msg, fn)


def serve(requests: int, replies: int) -> None:
    """Answer the judge's messages on these pipes until it hangs up.

    0/1/2 go to /dev/null, so that whatever the student prints cannot
    interleave with replies.
    """
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    import torch

    torch.set_num_threads(1)
    torch.manual_seed(0)
    random.seed(0)
    namespace = {"__name__": "__main__", "__builtins__": builtins}
    read = _read_exactly(requests)
    _wire.send(replies, {"id": 0, "status": "ready"})
    handlers = {"exec": _run_cell, "call": _call, "harness": _harness}
    while True:
        try:
            msg = _wire.receive(read)
        except EOFError:
            return
        reply = handlers[msg["op"]](namespace, msg)
        _wire.send(replies, {"id": msg["id"], **reply})
