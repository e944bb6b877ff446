"""Servers on the host that a student's connection attempt would reach, bare."""

import socket
import threading

__all__ = ["serve_forever"]


def _accept_forever(server: socket.socket) -> None:
    while True:
        try:
            server.accept()
        except OSError:
            return  # closed


def serve_forever(server: socket.socket) -> socket.socket:
    """Accept every connection to ``server`` (listening) on a daemon thread; ``server``."""
    threading.Thread(target=_accept_forever, args=(server,), daemon=True).start()
    return server
