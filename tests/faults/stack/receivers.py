"""The other parties of the fault suite: a webhook receiver that counts what it acknowledged,
hostile ones (a tarpit, a mail server that trickles or hangs) and a port that refuses. Only 127.0.0.1 is ever contacted."""

from __future__ import annotations

import socket
import threading
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class CountingReceiver:
    """Answers 200 and counts, per X-Darkroom-Delivery id, the requests received and answered.
    With `hold` set, it takes requests but answers none of them until `release()`."""

    def __init__(self):
        self.received: Counter = Counter()
        self.answered: Counter = Counter()
        self.hold = threading.Event()
        self.released = threading.Event()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers["Content-Length"]))
                delivery = int(self.headers["X-Darkroom-Delivery"])
                receiver.received[delivery] += 1
                if receiver.hold.is_set():
                    receiver.released.wait(120)
                    return  # the connection is dropped unanswered
                self.send_response(200)
                self.end_headers()
                receiver.answered[delivery] += 1

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.released.set()
        self.server.shutdown()
        self.server.server_close()


class Tarpit:
    """Hostile receivers on 127.0.0.1, one listening socket each: `hang` reads the request and
    never answers, `trickle` sends its status line a byte a second, `redirect` answers 302 to
    itself, `flood` sends a 10 MB header line."""

    MODES = ("hang", "trickle", "redirect", "flood")

    def __init__(self, count: int):
        self.sockets, self.urls, self.conns = [], [], []
        self.closed = threading.Event()
        for i in range(count):
            sock = socket.socket()
            sock.bind(("127.0.0.1", 0))
            sock.listen(64)
            mode = self.MODES[i % len(self.MODES)]
            self.sockets.append(sock)
            self.urls.append(f"http://127.0.0.1:{sock.getsockname()[1]}/{mode}")
            threading.Thread(target=self._accept, args=(sock, mode), daemon=True).start()

    def _accept(self, sock: socket.socket, mode: str) -> None:
        while not self.closed.is_set():
            try:
                conn, _ = sock.accept()
            except OSError:
                return
            self.conns.append(conn)
            threading.Thread(target=self._serve, args=(conn, mode, sock.getsockname()[1]), daemon=True).start()

    def _serve(self, conn: socket.socket, mode: str, port: int) -> None:
        try:
            conn.recv(65536)
            if mode == "hang":
                self.closed.wait(300)
            elif mode == "trickle":
                for byte in b"HTTP/1.1 200 OK\r\nX-Slow: " + b"a" * 1000:
                    if self.closed.wait(1):
                        return
                    conn.sendall(bytes([byte]))
            elif mode == "redirect":
                conn.sendall(
                    f"HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:{port}/redirect\r\n"
                    "Content-Length: 0\r\n\r\n".encode()
                )
            elif mode == "flood":
                conn.sendall(b"HTTP/1.1 200 OK\r\nX-Flood: ")
                chunk = b"a" * 65536
                for _ in range(160):  # 10 MB
                    conn.sendall(chunk)
        except OSError:
            pass
        finally:
            conn.close()

    def close(self) -> None:
        self.closed.set()
        for sock in self.sockets + self.conns:
            try:
                sock.close()
            except OSError:
                pass


class MailTarpit:
    """A mail server on 127.0.0.1: its connections take `modes` in turn (the last one for every
    connection after): `trickle` sends its greeting a byte a second, `hang` says nothing at all,
    `accept` speaks enough SMTP to take each message (kept in `messages`, with its recipients).
    `connections` counts them."""

    GREETING = b"220 tarpit.localhost ESMTP the test's own\r\n"

    def __init__(self, *modes: str):
        self.modes = list(modes or ["accept"])
        self.connections = 0
        self.messages: list[tuple[list[str], bytes]] = []
        self.lock = threading.Lock()
        self.closed = threading.Event()
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.conns: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self.closed.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with self.lock:
                mode = self.modes[min(self.connections, len(self.modes) - 1)]
                self.connections += 1
                self.conns.append(conn)
            threading.Thread(target=self._serve, args=(conn, mode), daemon=True).start()

    def _serve(self, conn: socket.socket, mode: str) -> None:
        try:
            if mode == "hang":
                self.closed.wait(300)
            elif mode == "trickle":
                for byte in self.GREETING * 100:
                    if self.closed.wait(1):
                        return
                    conn.sendall(bytes([byte]))
            else:
                self._converse(conn)
        except OSError:
            pass
        finally:
            conn.close()

    def _converse(self, conn: socket.socket) -> None:
        file = conn.makefile("rb")
        conn.sendall(self.GREETING)
        recipients: list[str] = []
        while line := file.readline():
            verb = line[:4].upper()
            if verb == b"DATA":
                conn.sendall(b"354 go on\r\n")
                body = b""
                while (part := file.readline()) not in (b".\r\n", b""):
                    body += part
                with self.lock:
                    self.messages.append((recipients, body))
                recipients = []
                conn.sendall(b"250 queued\r\n")
            elif verb == b"QUIT":
                conn.sendall(b"221 bye\r\n")
                return
            else:
                if verb == b"RCPT":
                    recipients.append(line.split(b":", 1)[1].strip().strip(b"<>").decode())
                conn.sendall(b"250 ok\r\n")

    def close(self) -> None:
        self.closed.set()
        for sock in [self.sock, *self.conns]:
            try:
                sock.close()
            except OSError:
                pass


def closed_port() -> int:
    """A port nothing listens on: connections are refused at once (SMTP refusing)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
