"""Code run in a user's own kernel on the hub, from their browser session.

The page starts a kernel through the user's Jupyter server (``POST /api/kernels``,
with the server's XSRF cookie as JupyterLab sends it), sends one ``execute_request``
over the kernel's WebSocket (Jupyter's JSON messages), gathers what it prints until
the kernel is idle again, and shuts the kernel down: what a student's notebook cell
could do, with the student's rights.
"""

__all__ = ["run_in_kernel"]

_RUN = """async ([base, code]) => {
  const xsrf = (document.cookie.match(/(?:^|; )_xsrf=([^;]*)/) || [])[1] || "";
  const headers = {"X-XSRFToken": decodeURIComponent(xsrf), "Content-Type": "application/json"};
  const made = await fetch(`${base}/api/kernels`, {method: "POST", headers, body: "{}"});
  if (!made.ok) throw new Error(`POST /api/kernels: ${made.status}`);
  const kernel = (await made.json()).id;
  const url = new URL(`${base}/api/kernels/${kernel}/channels`, location.href);
  url.protocol = url.protocol.replace("http", "ws");
  const socket = new WebSocket(url);
  const msgId = crypto.randomUUID();
  const printed = await new Promise((resolve, reject) => {
    let text = "";
    socket.onerror = () => reject(new Error("kernel websocket failed"));
    socket.onopen = () => socket.send(JSON.stringify({
      header: {msg_id: msgId, msg_type: "execute_request", session: crypto.randomUUID(),
               username: "", version: "5.3", date: new Date().toISOString()},
      parent_header: {}, metadata: {}, channel: "shell", buffers: [],
      content: {code, silent: false, store_history: false, user_expressions: {},
                allow_stdin: false, stop_on_error: true}}));
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.parent_header.msg_id !== msgId) return;
      const kind = message.header.msg_type;
      if (kind === "stream") text += message.content.text;
      if (kind === "error") text += message.content.ename + ": " + message.content.evalue;
      if (kind === "status" && message.content.execution_state === "idle") resolve(text);
    };
  });
  socket.close();
  await fetch(`${base}/api/kernels/${kernel}`, {method: "DELETE", headers});
  return printed;
}"""


def run_in_kernel(page, base: str, code: str) -> str:
    """What ``code`` prints in a new kernel of the server at ``base`` (``/user/<name>``),
    run from ``page``, which must be logged in to that server."""
    return page.evaluate(_RUN, [base, code])
