"""Files on the board's flash, written atomically.

``write_atomic(name, data)`` writes ``name.tmp`` in chunks, closes it, then ``os.rename``s it
over ``name`` (LittleFS on the Pico replaces the target atomically; on FAT, where rename cannot
replace, the old file is removed first, and ``xobo.runtime.storage`` keeps two slots for that
window). A power cut at any instant leaves either the old or the new file, plus perhaps a stray
``.tmp`` that the next write replaces.

On the Pico every flash erase/program stalls both cores with interrupts masked (a 4 KiB sector
erase takes ~50 ms): write between scans, never in the scan timing.

``FlashBase`` holds the logic over five primitives (create, write a chunk, close, rename,
remove); ``Flash`` implements them with ``os``; ``xobo.drivers.virtual.VirtualFlash`` with an
in-memory directory where a power cut can be injected at any primitive.

Usage::

    >>> from xobo.drivers.flash import Flash
    >>> import tempfile
    >>> fl = Flash(tempfile.mkdtemp())      # a directory (on the device: Flash(""), its root)
    >>> fl.write_atomic("game.a", b"...")
    >>> fl.read("game.a")                   # bytes, or None when missing (OSError: unreadable)
    b'...'
    >>> fl.size("game.a")                  # its length in bytes (-1 when missing), without reading
    3
    >>> # (OSError: unreadable, or not a file)
    >>> fl.write_parts("game.a", (b"x", b"yz"))  # the same atomic write, from pieces
"""

import os

from xobo.compat import const

CHUNK = 64
_ENOENT = const(2)  # (errno's numbers: the same on the Pico's port, Linux and macOS)
_EISDIR = const(21)


class FlashBase:
    chunk = CHUNK

    def write_atomic(self, name, data):
        tmp = name + ".tmp"
        h = self._create(tmp)
        try:
            mv = memoryview(data)
            for i in range(0, len(data), self.chunk):
                self._write(h, mv[i:i + self.chunk])
        finally:
            self._close(h)
        self._rename(tmp, name)

    def write_parts(self, name, parts):
        """``write_atomic`` of the concatenation of ``parts`` (an iterable of bytes), written
        in the same chunks without ever holding the whole file (a long game's save)."""
        tmp = name + ".tmp"
        chunk = self.chunk
        buf = bytearray(chunk)
        n = 0
        h = self._create(tmp)
        try:
            for part in parts:
                i = 0
                k = len(part)
                while i < k:
                    take = min(chunk - n, k - i)
                    buf[n:n + take] = part[i:i + take]
                    n += take
                    i += take
                    if n == chunk:
                        self._write(h, buf)
                        n = 0
            if n:
                self._write(h, memoryview(buf)[:n])
        finally:
            self._close(h)
        self._rename(tmp, name)

    def size(self, name):
        """The length of file ``name`` in bytes, -1 when missing (read nothing: a file too
        large for the heap is refused before it is read)."""
        data = self.read(name)
        return -1 if data is None else len(data)

    # primitives, overridden
    def _create(self, path):
        raise NotImplementedError

    def _write(self, h, chunk):
        raise NotImplementedError

    def _close(self, h):
        raise NotImplementedError

    def _rename(self, src, dst):
        raise NotImplementedError

    def read(self, name):
        raise NotImplementedError

    def remove(self, name):
        raise NotImplementedError

    def exists(self, name):
        return self.read(name) is not None

    def listdir(self):
        raise NotImplementedError


class Flash(FlashBase):
    """Real files under ``root`` ("" = the current directory, the flash root on the device)."""

    def __init__(self, root=""):
        self.root = root

    def _path(self, name):
        if not self.root:
            return name
        return self.root.rstrip("/") + "/" + name

    def _create(self, path):
        return open(self._path(path), "wb")

    def _write(self, h, chunk):
        h.write(chunk)

    def _close(self, h):
        h.close()

    def _rename(self, src, dst):
        try:
            os.rename(self._path(src), self._path(dst))
        except OSError:  # FAT: the target must not exist; or it is a directory (not ours)
            self.remove(dst)
            os.rename(self._path(src), self._path(dst))
        try:
            os.sync()
        except AttributeError:
            pass

    def read(self, name):
        """The bytes of file ``name``, None when it is missing; OSError when it is there but
        cannot be read (a directory in its place, an I/O error): the caller says so rather
        than take it for missing."""
        try:
            with open(self._path(name), "rb") as f:
                return f.read()
        except OSError as exc:
            if exc.args and exc.args[0] == _ENOENT:
                return None
            raise

    def size(self, name):
        try:
            st = os.stat(self._path(name))
        except OSError as exc:
            if exc.args and exc.args[0] == _ENOENT:
                return -1
            raise
        if st[0] & 0o170000 != 0o100000:  # not a regular file (a directory in its place)
            raise OSError(_EISDIR, "not a file (a directory)")
        return st[6]

    def remove(self, name):
        """Remove the file ``name``; a directory in its place (a slot name is ours: whatever
        made it, it would make every later save fail) is removed with what it holds."""
        path = self._path(name)
        try:
            os.remove(path)
        except OSError:
            _remove_tree(path)

    def listdir(self):
        return sorted(os.listdir(self.root or "."))


def _remove_tree(path):
    try:
        entries = os.listdir(path)
    except OSError:
        return  # missing, or not a directory
    for entry in entries:
        sub = path + "/" + entry
        try:
            os.remove(sub)
        except OSError:
            _remove_tree(sub)
    try:
        os.rmdir(path)
    except OSError:
        pass
