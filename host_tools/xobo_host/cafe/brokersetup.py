"""A mosquitto configuration for a network of cafés (docs/remote.md, "The broker"): the one
``xobo broker-setup`` writes, and the one the remote-play tests and ``make remote-bench``
run.

It writes into a directory:

- ``mosquitto.conf``: the listener (TLS with the given certificate and key), no anonymous
  client, the password file and the access list;
- ``passwords``: one login per café, its user name the café's name, hashed by Debian's
  ``mosquitto_passwd``;
- ``acl``: ``pattern`` lines (every client's own rule, not an anonymous one): a café reads
  the café network and writes only under its own name (``xobo/v1/<its name>/...``);
- ``<cafe>.broker.json``: each café's settings for ``xobo cafe --broker`` (its password in
  it: readable by its owner only, to be given to that café alone).

Running it again with more cafés adds them; a café already there keeps its password.

Usage::

    >>> import json
    >>> from xobo_host.cafe.brokersetup import write_config
    >>> paths = write_config("broker", ["corner-cafe", "bar-du-port"],
    ...                      address="broker.example.org")   # tls=("server.crt", "server.key")
    >>> paths["conf"]
    'broker/mosquitto.conf'
    >>> settings = json.load(open(paths["cafes"]["corner-cafe"]))   # for corner-cafe alone
    >>> settings["host"], settings["port"], settings["username"]
    ('broker.example.org', 1883, 'corner-cafe')
    >>> # then, on the broker's machine: mosquitto -c broker/mosquitto.conf
"""

import json
import os
import secrets
import shutil
import subprocess

from xobo_host.cafe.broker import BrokerError, check_cafe_name

MOSQUITTO_PASSWD = "/usr/bin/mosquitto_passwd"

ACL = """\
# The access list of a café network (written by xobo broker-setup; docs/remote.md).
# "pattern" lines apply to every logged-in client; %u is its user name, its café's name.
# Every café reads the network (invitations, answers, matches, floors): what it reads is
# sealed with an invitation's code or signed by the café that sent it.
pattern read xobo/v1/#
# Each café writes only under its own name: nobody publishes a floor, an invitation or a
# match message in another café's name.
pattern write xobo/v1/%u/#
"""


class SetupError(ValueError):
    """A broker setup that cannot be written (the message says why)."""


def _write(path, text, mode=0o644):
    tmp = path + ".tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(fd, "w") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.chmod(tmp, mode)
    os.replace(tmp, path)  # (whole or not at all)


def config_text(directory, port, bind, tls=None, ca_file=None, persistence=True,
                open_network=False, run_as=None):
    """mosquitto.conf's text (paths absolute: mosquitto reads them from anywhere)."""
    d = os.path.abspath(directory)
    lines = ["# A café network's broker (written by xobo broker-setup; docs/remote.md).",
             "per_listener_settings false",
             "listener %d %s" % (port, bind)]
    if run_as:  # (started as root, mosquitto runs as this user: default "mosquitto")
        lines.insert(1, "user %s" % run_as)
    if tls:
        lines += ["certfile %s" % os.path.abspath(tls[0]), "keyfile %s" % os.path.abspath(tls[1])]
        if ca_file:
            lines.append("cafile %s" % os.path.abspath(ca_file))
    if open_network:
        lines += ["# an open broker: anyone connects and writes anywhere (a test network:",
                  "# the cafés still take only what is sealed or signed)",
                  "allow_anonymous true"]
    else:
        lines += ["allow_anonymous false",
                  "password_file %s" % os.path.join(d, "passwords"),
                  "acl_file %s" % os.path.join(d, "acl")]
    if persistence:
        lines += ["persistence true", "persistence_location %s/" % os.path.join(d, "data")]
    else:
        lines.append("persistence false")
    # the cafés' persistent sessions keep what arrives while a host is away: a hundred
    # matches' moves, more than mosquitto's default of 1000 queued
    lines.append("max_queued_messages 100000")
    return "\n".join(lines) + "\n"


def write_config(directory, cafes, port=1883, bind="0.0.0.0", address=None, tls=None,
                 ca_file=None, persistence=True, open_network=False, run_as=None):
    """Writes the broker's files and each café's settings into ``directory``; returns
    {"conf": path, "cafes": {cafe: settings path}}. ``address``: the name the cafés connect
    to (default: ``bind``, 127.0.0.1 for 0.0.0.0); ``run_as``: the user mosquitto runs as
    when started by root (default its own, ``mosquitto``: the files are then made readable
    by its group)."""
    for cafe in cafes:
        try:
            check_cafe_name(cafe)
        except BrokerError as exc:
            raise SetupError(str(exc)) from None
    if tls is not None:
        for path in tls:
            if not os.path.isfile(path):
                raise SetupError("no TLS file %s" % path)
    if ca_file is not None and not os.path.isfile(ca_file):
        raise SetupError("no CA file %s" % ca_file)
    os.makedirs(directory, exist_ok=True)
    if persistence:
        os.makedirs(os.path.join(directory, "data"), exist_ok=True)
    address = address or ("127.0.0.1" if bind in ("0.0.0.0", "::") else bind)
    out = {"conf": os.path.join(directory, "mosquitto.conf"), "cafes": {}}
    _write(out["conf"], config_text(directory, port, bind, tls, ca_file, persistence,
                                    open_network, run_as))
    new = {}
    for cafe in cafes:
        path = os.path.join(directory, cafe + ".broker.json")
        old = None
        if os.path.exists(path):
            try:
                with open(path) as f:
                    old = json.load(f).get("password")
            except (OSError, ValueError, AttributeError):
                old = None
        password = old or secrets.token_urlsafe(18)
        new[cafe] = password
        settings = {"host": address, "port": port, "tls": tls is not None,
                    "ca_file": os.path.abspath(ca_file) if ca_file else None}
        if not open_network:
            settings.update(username=cafe, password=password)
        _write(path, json.dumps(settings, indent=1) + "\n", mode=0o600)
        out["cafes"][cafe] = path
    if not open_network:
        _write(os.path.join(directory, "acl"), ACL)
        _passwords(os.path.join(directory, "passwords"), new)
        if run_as is None:
            _readable_by_mosquitto(directory)
    return out


def _readable_by_mosquitto(directory):
    """Written by root for a mosquitto that runs as its own user: the password file, the
    access list and the persistence directory its group's."""
    try:
        import grp

        gid = grp.getgrnam("mosquitto").gr_gid
    except (ImportError, KeyError):
        return
    if os.geteuid() != 0:
        return
    for name in ("passwords", "acl", "data"):
        path = os.path.join(directory, name)
        if os.path.exists(path):
            os.chown(path, -1, gid)
            if name == "data":
                os.chmod(path, 0o770)


def _passwords(path, logins):
    """The password file with ``logins`` ({user: password}) added or changed, hashed by
    mosquitto_passwd (``-U``: a file of user:password lines hashed in place)."""
    exe = MOSQUITTO_PASSWD if os.path.exists(MOSQUITTO_PASSWD) else \
        shutil.which("mosquitto_passwd")
    if not exe:
        raise SetupError("mosquitto_passwd is not installed (apt-get install mosquitto)")
    kept = []
    if os.path.exists(path):
        with open(path) as f:
            kept = [line for line in f if line.strip() and line.split(":", 1)[0] not in logins]
    tmp = path + ".new"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.writelines("%s:%s\n" % (u, p) for u, p in logins.items())
    try:
        done = subprocess.run([exe, "-U", tmp], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise SetupError("mosquitto_passwd failed: %s" % exc) from None
    if done.returncode != 0:
        os.unlink(tmp)
        raise SetupError("mosquitto_passwd failed: %s" % (done.stderr or done.stdout).strip())
    with open(tmp) as f:
        hashed = f.read()
    os.unlink(tmp)
    # (mosquitto reads the file as the user it runs as: readable by its owner and group)
    _write(path, "".join(kept) + hashed, mode=0o640)
