"""The connections of the page servers (the simulator's, the monitor's, the café's): every
request is read whole before a worker thread takes it.

A thread pool serves requests (``sim.server.PooledHTTPServer``); a client that connects and
sends its request slowly, half of it or nothing at all, must not hold one of its workers, or a
few hundred such clients hold them all and every page waits. So one thread here watches every
open connection with ``selectors`` (the standard library's readiness API: no thread per
client) and gathers each request's bytes: its head up to the blank line, and its body when
the head says how long it is (``Content-Length``, up to the server's largest body). A request
that is complete goes to the pool, with the bytes already read; a worker then parses it with
``http.server`` as before (nothing here interprets a request beyond finding its end). A
connection kept alive after its response comes back here to wait for its next request.

A client has ``timeout_s`` to send a whole request from when it connected (or from its last
response): past it the connection is closed (with ``408 Request Timeout`` when it had sent a
part of a request). At most ``max_open`` connections are open at once; a new one past that is
closed at once.

Usage (the server's)::

    >>> import queue, socket
    >>> from xobo_host.sim.connections import RequestReader
    >>> complete = queue.Queue()                  # the server's: pool.submit(worker, conn)
    >>> reader = RequestReader(submit=complete.put, timeout_s=5.0, max_body=65536, max_open=1024)
    >>> reader.start()
    >>> server_end, client = socket.socketpair()  # (an accepted connection and its client)
    >>> reader.add(server_end, ("127.0.0.1", 50000))
    True
    >>> client.sendall(b"GET /state HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\n")   # not whole yet
    >>> client.sendall(b"\\r\\n")
    >>> conn = complete.get(timeout=5)            # in the worker, once the request is whole:
    >>> reader.rfile(conn).readline()             # what http.server reads it from
    b'GET /state HTTP/1.1\\r\\n'
    >>> reader.close(conn)                        # after a response (keep(conn): kept alive)
    >>> reader.open_count()
    0
    >>> client.close(); reader.stop()
"""

import json
import re
import selectors
import socket
import threading
import time
from collections import deque

HEAD_MAX = 65536 + 8192  # a request line and headers longer than http.server reads (it says so)
_CONTENT_LENGTH = re.compile(rb"^content-length[ \t]*:[ \t]*([0-9]{1,12})[ \t]*\r?$",
                             re.IGNORECASE | re.MULTILINE)
_SWEEP_S = 0.25  # how often connections are checked against their time


class Connection:
    """One client's connection: its socket and address, the bytes received and not yet
    used, and until when it may take to send a request."""

    def __init__(self, sock, address):
        self.sock = sock
        self.address = address
        self.buf = bytearray()
        self.deadline = 0.0

    def name(self):
        a = self.address
        return "%s:%s" % (a[0], a[1]) if isinstance(a, tuple) and len(a) >= 2 else str(a)


class RequestReader:
    """Reads requests for a pool (above). ``submit(conn)`` hands a connection whose request is
    complete to a worker; ``on_close(conn)`` is told of every connection closed (the server's
    count of open ones)."""

    def __init__(self, submit, timeout_s, max_body, max_open, on_close=None):
        self.submit = submit
        self.timeout_s = timeout_s
        self.max_body = max_body
        self.max_open = max_open
        self.on_close = on_close
        self._sel = selectors.DefaultSelector()
        self._incoming = deque()  # connections to watch, from other threads
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._sel.register(self._wake_r, selectors.EVENT_READ, None)
        self._watched = set()
        self._lock = threading.Lock()
        self._open = 0
        self._stop = False
        self._thread = None

    # -- from other threads ------------------------------------------------------------------
    def start(self):
        self._thread = threading.Thread(target=self._run, name="xobo-http-reader",
                                        daemon=True)
        self._thread.start()

    def add(self, sock, address):
        """An accepted connection: watched until its first request is complete. False (and
        closed) when ``max_open`` connections are open already."""
        with self._lock:
            if self._open >= self.max_open or self._stop:
                full = True
            else:
                self._open += 1
                full = False
        if full:
            _close_socket(sock)
            return False
        self._give(Connection(sock, address))
        return True

    def keep(self, conn):
        """After a response that keeps the connection alive: it waits here for its next
        request (the bytes already received past the last one are kept)."""
        self._give(conn)

    def close(self, conn):
        """The connection is done with."""
        _close_socket(conn.sock)
        self._closed(conn)

    def rfile(self, conn):
        """The request's reader for ``http.server``: the bytes received, then the socket."""
        return _RequestFile(conn)

    def open_count(self):
        with self._lock:
            return self._open

    def stop(self):
        self._stop = True
        self._wake()
        if self._thread is not None:
            self._thread.join(2)
        for conn in list(self._watched) + list(self._incoming):
            _close_socket(conn.sock)
        self._watched.clear()
        self._incoming.clear()
        self._sel.close()
        self._wake_r.close()
        self._wake_w.close()

    def _give(self, conn):
        conn.deadline = time.monotonic() + self.timeout_s
        self._incoming.append(conn)
        self._wake()

    def _wake(self):
        try:
            self._wake_w.send(b"\0")
        except OSError:  # (full: the thread is awake already; closed: stopping)
            pass

    def _closed(self, conn):
        with self._lock:
            self._open -= 1
        if self.on_close is not None:
            self.on_close(conn)

    # -- the reading thread ------------------------------------------------------------------
    def _run(self):
        next_sweep = time.monotonic() + _SWEEP_S
        while not self._stop:
            for key, _ in self._sel.select(_SWEEP_S):
                if key.data is None:
                    self._drain_wake()
                else:
                    self._receive(key.data)
            while self._incoming:
                self._watch(self._incoming.popleft())
            now = time.monotonic()
            if now >= next_sweep:
                next_sweep = now + _SWEEP_S
                for conn in [c for c in self._watched if c.deadline <= now]:
                    self._time_out(conn)

    def _drain_wake(self):
        try:
            while self._wake_r.recv(4096):
                pass
        except OSError:
            pass

    def _watch(self, conn):
        if self._stop:
            self._unwatched(conn)
            return
        if self._complete(conn):  # (a request sent along with the last one)
            self._hand_over(conn)
            return
        try:
            conn.sock.setblocking(False)
            self._sel.register(conn.sock, selectors.EVENT_READ, conn)
        except (OSError, ValueError):  # closed meanwhile
            self._unwatched(conn)
            return
        self._watched.add(conn)

    def _receive(self, conn):
        try:
            data = conn.sock.recv(65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:  # the client stopped sending before its request was whole
            self._forget(conn)
            if conn.buf:  # a part of one: the worker's parser says what is wrong with it
                self._hand_over(conn)
            else:
                self._unwatched(conn)
            return
        conn.buf += data
        if self._complete(conn):
            self._forget(conn)
            self._hand_over(conn)

    def _complete(self, conn):
        """True when ``conn.buf`` holds a whole request (its head and the body its head
        announces), or more than any request this server reads (the worker's parser then
        refuses it, saying why)."""
        buf = conn.buf
        end = buf.find(b"\r\n\r\n")
        skip = 4
        if end < 0:
            end = buf.find(b"\n\n")
            skip = 2
        if end < 0:
            return len(buf) > HEAD_MAX
        m = _CONTENT_LENGTH.search(buf, 0, end + 1)
        body = int(m.group(1)) if m else 0
        if body > self.max_body:
            return True  # refused from its head: the body is not waited for
        return len(buf) >= end + skip + body

    def _hand_over(self, conn):
        try:
            conn.sock.setblocking(True)
            conn.sock.settimeout(self.timeout_s)
        except OSError:
            self._unwatched(conn)
            return
        try:
            self.submit(conn)
        except RuntimeError:  # the pool is shut down: the server is stopping
            self._unwatched(conn)

    def _forget(self, conn):
        self._watched.discard(conn)
        try:
            self._sel.unregister(conn.sock)
        except (KeyError, ValueError, OSError):
            pass

    def _unwatched(self, conn):
        _close_socket(conn.sock)
        self._closed(conn)

    def _time_out(self, conn):
        self._forget(conn)
        if conn.buf:  # a part of a request: say why it is closed
            body = json.dumps({"ok": False, "error": "the request did not arrive whole within "
                               "%g s: closed" % self.timeout_s}).encode()
            try:
                conn.sock.send(b"HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json"
                               b"\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s"
                               % (len(body), body))
            except OSError:
                pass
        self._unwatched(conn)


class _RequestFile:
    """What ``http.server`` reads a request from (``readline``, ``read``): the bytes the
    reader received, then the socket (a blocking one, with the server's timeout). What is left
    after the request stays in the connection's buffer for the next one."""

    def __init__(self, conn):
        self.conn = conn
        self.closed = False

    def _more(self):
        data = self.conn.sock.recv(65536)
        if data:
            self.conn.buf += data
        return bool(data)

    def _take(self, n):
        buf = self.conn.buf
        out = bytes(buf[:n])
        del buf[:n]
        return out

    def readline(self, limit=-1):
        buf = self.conn.buf
        while True:
            i = buf.find(b"\n")
            if i >= 0 and (limit < 0 or i < limit):
                return self._take(i + 1)
            if 0 <= limit <= len(buf):
                return self._take(limit)
            if not self._more():
                return self._take(len(buf))

    def read(self, n=-1):
        buf = self.conn.buf
        while n < 0 or len(buf) < n:
            if not self._more():
                break
        return self._take(len(buf) if n < 0 else min(n, len(buf)))

    def close(self):
        self.closed = True


def _close_socket(sock):
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    try:
        sock.close()
    except OSError:
        pass
