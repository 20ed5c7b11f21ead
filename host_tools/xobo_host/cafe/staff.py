"""The staff's password and login sessions.

The password is set at the first start (``xobo cafe`` asks for it, or ``xobo cafe
--set-password``) and stored hashed: ``hashlib.scrypt`` (n=2**14, r=8, p=1) with a random
16-byte salt, in a JSON file readable by its owner only (0600) next to the games database.
A login gives a random session token (``secrets``), sent as the cookie ``xobo_staff``
(HttpOnly: no script reads it; SameSite=Strict: no other site's page sends it), valid for
``SESSION_S``; the sessions live in memory (a restarted host asks for the login again).
After ``MAX_FAILURES`` wrong passwords from one client address in ``FAILURE_WINDOW_S``,
logins from that address are refused for the rest of the window (a guessing program gets
nowhere: each guess also costs an scrypt); other addresses are not refused, so someone
else's guesses never lock the staff's own browser out.

Usage::

    >>> from xobo_host.cafe.staff import Staff
    >>> Staff.load("staff.json")
    Traceback (most recent call last):
    ...
    xobo_host.cafe.staff.StaffError: no staff password yet (staff.json): run 'xobo cafe ...'
    >>> staff = Staff.create("staff.json", "correct horse")   # stored hashed (scrypt), 0600
    >>> staff = Staff.load("staff.json")
    >>> staff.login("wrong horse", "192.168.1.20") is None    # a wrong password: no session
    True
    >>> token = staff.login("correct horse", "192.168.1.20")
    >>> staff.valid(token), staff.locked("192.168.1.20")      # locked: too many wrong ones
    (True, False)
    >>> staff.logout(token); staff.valid(token)
    False
"""

import hashlib
import hmac
import json
import os
import secrets
import threading
import time

SCRYPT = {"n": 2 ** 14, "r": 8, "p": 1}
MIN_PASSWORD = 8
SESSION_S = 12 * 3600
MAX_FAILURES = 10
FAILURE_WINDOW_S = 60.0
COOKIE = "xobo_staff"


class StaffError(ValueError):
    """No staff password yet, a password too short, or a damaged password file."""


def _hash(password, salt, params):
    return hashlib.scrypt(password.encode("utf-8"), salt=salt, n=params["n"], r=params["r"],
                          p=params["p"], maxmem=64 * 1024 * 1024, dklen=32)


class Staff:
    def __init__(self, path, salt, digest, params):
        self.path = path
        self.salt = salt
        self.digest = digest
        self.params = params
        self.sessions = {}  # token -> expiry (time.time())
        self.failures = {}  # client address -> times of its recent wrong passwords
        self.lock = threading.Lock()

    @classmethod
    def create(cls, path, password):
        if len(password) < MIN_PASSWORD:
            raise StaffError("the staff password must have at least %d characters"
                             % MIN_PASSWORD)
        salt = secrets.token_bytes(16)
        digest = _hash(password, salt, SCRYPT)
        data = {"kdf": "scrypt", "salt": salt.hex(), "hash": digest.hex(), **SCRYPT}
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        tmp = path + ".tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            json.dump(data, f)
        os.replace(tmp, path)  # a crash leaves the old file or the new one, never half
        return cls(path, salt, digest, dict(SCRYPT))

    @classmethod
    def load(cls, path):
        if not os.path.exists(path):
            raise StaffError("no staff password yet (%s): run 'xobo cafe --set-password'"
                             % path)
        try:
            with open(path) as f:
                data = json.load(f)
            if data.get("kdf") != "scrypt":
                raise ValueError("unknown kdf %r" % data.get("kdf"))
            params = {k: int(data[k]) for k in ("n", "r", "p")}
            return cls(path, bytes.fromhex(data["salt"]), bytes.fromhex(data["hash"]), params)
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise StaffError("%s is no staff password file (%s): set the password again with "
                             "'xobo cafe --set-password'" % (path, exc)) from None

    def _recent(self, client, now):
        """(the lock held) The recent wrong passwords from ``client``; the addresses whose
        window has passed are forgotten."""
        for addr in [a for a, ts in self.failures.items() if now - ts[-1] >= FAILURE_WINDOW_S]:
            del self.failures[addr]
        times = [t for t in self.failures.get(client, ()) if now - t < FAILURE_WINDOW_S]
        if times:
            self.failures[client] = times
        return times

    def login(self, password, client=""):
        """A new session token, or None (wrong password, or too many tries from this client
        address: ``locked``)."""
        now = time.time()
        with self.lock:
            if len(self._recent(client, now)) >= MAX_FAILURES:
                return None
        if not isinstance(password, str) or not hmac.compare_digest(
                _hash(password, self.salt, self.params), self.digest):
            with self.lock:
                self.failures.setdefault(client, []).append(now)
            return None
        token = secrets.token_urlsafe(32)
        with self.lock:
            self.sessions = {t: e for t, e in self.sessions.items() if e > now}
            self.sessions[token] = now + SESSION_S
        return token

    def locked(self, client=""):
        """Whether logins from ``client`` (an address) are refused now."""
        with self.lock:
            return len(self._recent(client, time.time())) >= MAX_FAILURES

    def valid(self, token):
        if not token:
            return False
        with self.lock:
            expiry = self.sessions.get(token)
            return expiry is not None and expiry > time.time()

    def logout(self, token):
        with self.lock:
            self.sessions.pop(token, None)
