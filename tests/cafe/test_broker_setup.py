"""``xobo broker-setup`` (``cafe.brokersetup``): the configuration docs/remote.md quotes is
the one the command writes; each café's settings file is its own (mode 600) and keeps its
password when cafés are added; a bad name or a missing TLS file is a clear error."""

import json
import os
import pathlib
import re
import subprocess
import sys

import pytest
from xobo_testing import wait_for

from xobo_host.cafe.brokersetup import ACL, SetupError, config_text, write_config

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "remote.md"
MOSQUITTO_PASSWD = "/usr/bin/mosquitto_passwd"


def _block_after(text, heading):
    """The code block that follows the line ``heading`` in docs/remote.md."""
    at = text.index(heading)
    m = re.compile(r"```\n(.*?)```", re.S).search(text, at)
    return m.group(1)


def test_the_configuration_quoted_in_the_docs_is_what_the_command_writes():
    doc = DOC.read_text()
    tls = ("/etc/letsencrypt/live/broker.example.org/fullchain.pem",
           "/etc/letsencrypt/live/broker.example.org/privkey.pem")
    assert _block_after(doc, "`/etc/mosquitto/xobo/mosquitto.conf`:") == config_text(
        "/etc/mosquitto/xobo", 8883, "0.0.0.0", tls=tls)
    assert _block_after(doc, "`/etc/mosquitto/xobo/acl`:") == ACL
    # (the command line the docs give: those arguments)
    assert "--tls-cert %s" % tls[0] in doc and "--tls-key %s" % tls[1] in doc


@pytest.mark.skipif(not os.path.exists(MOSQUITTO_PASSWD), reason="mosquitto_passwd absent")
def test_each_cafe_gets_its_own_login_kept_when_cafes_are_added(tmp_path):
    out = write_config(str(tmp_path), ["corner-cafe", "harbour"], port=1999)
    first = json.loads(open(out["cafes"]["corner-cafe"]).read())
    assert first["username"] == "corner-cafe" and len(first["password"]) >= 20
    assert os.stat(out["cafes"]["corner-cafe"]).st_mode & 0o777 == 0o600
    again = write_config(str(tmp_path), ["corner-cafe", "harbour", "third"], port=1999)
    assert json.loads(open(again["cafes"]["corner-cafe"]).read()) == first
    users = [line.split(":")[0] for line in open(tmp_path / "passwords")]
    assert sorted(users) == ["corner-cafe", "harbour", "third"]
    assert all("$7$" in line for line in open(tmp_path / "passwords"))  # (hashed)
    assert "allow_anonymous false" in open(out["conf"]).read()


def test_a_bad_name_or_a_missing_tls_file_is_refused(tmp_path):
    with pytest.raises(SetupError, match="1-32 letters"):
        write_config(str(tmp_path), ["a/b"])
    with pytest.raises(SetupError, match="no TLS file"):
        write_config(str(tmp_path), ["a"], tls=(str(tmp_path / "x.crt"),
                                                 str(tmp_path / "x.key")))
    assert not (tmp_path / "mosquitto.conf").exists()


def test_the_command_needs_the_key_with_the_certificate(tmp_path):
    done = subprocess.run([sys.executable, "-m", "xobo_host.cli.main", "broker-setup",
                           str(tmp_path), "--cafe", "a", "--tls-cert", "x.crt"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and "go together" in done.stderr


def _certificates(where):
    """A CA and the broker's certificate for 127.0.0.1 it signed (``cryptography``):
    (ca, cert, key) paths."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    now = datetime.datetime.now(datetime.timezone.utc)
    ca_key, key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(
        ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "a café network's CA")])
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name)
          .public_key(ca_key.public_key()).serial_number(x509.random_serial_number())
          .not_valid_before(now - datetime.timedelta(days=1))
          .not_valid_after(now + datetime.timedelta(days=2))
          .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
          .sign(ca_key, hashes.SHA256()))
    cert = (x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")]))
            .issuer_name(ca_name).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=2))
            .add_extension(x509.SubjectAlternativeName(
                [x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
            .sign(ca_key, hashes.SHA256()))
    paths = [str(where / n) for n in ("ca.crt", "server.crt", "server.key")]
    pem = serialization.Encoding.PEM
    open(paths[0], "wb").write(ca.public_bytes(pem))
    open(paths[1], "wb").write(cert.public_bytes(pem))
    open(paths[2], "wb").write(key.private_bytes(pem, serialization.PrivateFormat.PKCS8,
                                                 serialization.NoEncryption()))
    return paths


def test_a_cafe_reaches_the_brokers_tls_listener_with_its_settings_file(tmp_path):

    from cafe.remotekit import Broker
    from xobo_host.cafe.broker import BrokerLink

    ca, cert, key = _certificates(tmp_path)
    broker = Broker(tmp_path, tls=(cert, key), ca_file=ca).start()
    try:
        assert "certfile %s" % cert in open(broker.conf).read()
        settings = broker.settings("cafe-a")
        assert settings.tls and settings.ca_file == ca and settings.username == "cafe-a"
        link = BrokerLink("cafe-a", settings).start()
        try:  # connected over TLS, logged in, its own probe read back
            wait_for(lambda: link.health()[0], "cafe-a healthy over TLS", 20)
        finally:
            link.stop()
    finally:
        broker.kill()
