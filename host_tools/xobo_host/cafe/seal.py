"""What makes a match between cafés independent of the broker's honesty (docs/remote.md,
"Security"): every café's own Ed25519 key pair, invitations sealed with a key derived from
their code, and a replay guard. The cryptography is ``cryptography``'s (Ed25519,
ChaCha20-Poly1305) and the standard library's scrypt: nothing of our own making.

- **The café's key** (``CafeKey``): made once, kept in the café's database; its public half
  travels inside the sealed invitation (the inviter's) and the sealed answer (the invited
  café's), so the cafés of a match learn each other's keys from the code only they hold.
- **An invitation's code** (``InviteSecret``): scrypt turns it into a topic name (the code is
  never seen on the broker) and a ChaCha20-Poly1305 key; the invitation and the answers to it
  (accept, decline) are sealed with it: a café without the code reads none of them and
  writes none that the others take.
- **A match's message** (``sign`` / ``open_signed``): its JSON, with its match, its sender and
  a sequence number, signed with the sender's key; a café takes a message only from a café
  of the match, checked with the key it learnt for that café.
- **A café's floor** (``sign_floor`` / ``open_floor``): the floor it publishes for
  spectators, signed the same way with its key (which travels with it) and a sequence number
  of the same count; another café shows it only once checked (``floorwatch``).
- **A replay** (``ReplayGuard``): a message's sequence number (microseconds of the sender's
  clock, always growing) is taken once; one older than the guard's window is refused.

Usage::

    >>> import json
    >>> from xobo_host.cafe.seal import (CafeKey, InviteSecret, ReplayGuard, fingerprint,
    ...                                  open_floor, open_signed, sign, sign_floor)
    >>> key = CafeKey.new()                       # once; kept in the café's database
    >>> secret = InviteSecret("ABCD-EFGH")        # an invitation's code
    >>> box = secret.seal({"t": "invite", "key": key.public_hex})   # bytes for the broker
    >>> secret.open(json.loads(box)) == {"t": "invite", "key": key.public_hex}
    True
    >>> InviteSecret("ABCD-EFGX").open(json.loads(box))   # another code reads nothing
    Traceback (most recent call last):
    ...
    xobo_host.cafe.seal.SealError: not sealed with this invitation's code
    >>> env = sign(key, "cafe-a", "0123abcd", 17, {"t": "move", "n": 1})   # bytes too
    >>> open_signed(json.loads(env), key.public_hex, "cafe-a", "0123abcd")
    (17, {'t': 'move', 'n': 1, 'match': '0123abcd', 'from': 'cafe-a', 'seq': 17})
    >>> floor = sign_floor(key, "cafe-a", 18, {"tables": []})   # the floor it publishes
    >>> open_floor(json.loads(floor), key.public_hex, "cafe-a")
    (18, {'tables': []})
    >>> len(fingerprint(key.public_hex).split())  # "ab12 cd34 ...": the key, for people
    8
    >>> guard = ReplayGuard()
    >>> guard.take(17), guard.take(17)            # a message is taken once
    (True, False)
"""

import base64
import functools
import hashlib
import json
import os
from concurrent.futures import ThreadPoolExecutor

from cryptography.exceptions import InvalidSignature, InvalidTag
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

# scrypt's cost for a code (RFC 7914's interactive setting): about 50 ms and 16 MB each, so
# that trying the 2^40 codes against a topic name or a sealed invitation is out of reach
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2 ** 14, 8, 1
SCRYPT_SALT = b"xobo/v1 invitation"
# a message's sequence number older than the newest taken from its sender by more than this
# (microseconds) is refused: messages cross each other a little (threads, QoS 0 and 1), a
# replay of an old one does not get in
REPLAY_WINDOW_US = 30 * 1000 * 1000
SEEN_KEPT = 4096  # sequence numbers remembered per sender inside the window, at most
# every scrypt on one thread of its own: its 16 MB are taken from one allocator arena and
# given back to it. Run by the page's request threads, each kept its own arena's 16 MB: the
# café host's memory went from 82 to 171 MB in the matches' benchmark (100 invitations),
# and 8 threads of 10 codes each held 308 MB (one thread: 62 MB)
_DERIVING = ThreadPoolExecutor(1, thread_name_prefix="xobo-scrypt")


class SealError(ValueError):
    """A message that is not what it claims (the text says why): it is refused."""


def _b64(data):
    return base64.b64encode(data).decode("ascii")


def _unb64(text):
    if not isinstance(text, str):
        raise SealError("not base64 text")
    try:
        return base64.b64decode(text.encode("ascii"), validate=True)
    except (ValueError, UnicodeError):
        raise SealError("not base64 text") from None


class CafeKey:
    """A café's Ed25519 key pair."""

    def __init__(self, private):
        self.private = private
        self.public_hex = private.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw).hex()

    @classmethod
    def new(cls):
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def from_bytes(cls, raw):
        return cls(Ed25519PrivateKey.from_private_bytes(bytes(raw)))

    def to_bytes(self):
        return self.private.private_bytes(serialization.Encoding.Raw,
                                           serialization.PrivateFormat.Raw,
                                           serialization.NoEncryption())

    def sign(self, data):
        return self.private.sign(data)


def public_key(hex_text):
    """A café's public key as another café sent it (64 hex digits), or SealError."""
    try:
        raw = bytes.fromhex(hex_text) if isinstance(hex_text, str) else b""
        if len(raw) != 32:
            raise ValueError
        return _public_key(raw)
    except ValueError:
        raise SealError("no public key (64 hex digits)") from None


# (every message of a match is checked with one of a few keys: each made once, not at every
# message; the keys of a café's matches fit, and one more evicts the least used)
@functools.lru_cache(maxsize=1024)
def _public_key(raw):
    return Ed25519PublicKey.from_public_bytes(raw)


class InviteSecret:
    """What an invitation's code gives: the topic name its invitation and answers travel
    under (``topic_id``) and the key that seals them."""

    def __init__(self, code):
        derived = _DERIVING.submit(
            hashlib.scrypt, code.encode("ascii"), salt=SCRYPT_SALT, n=SCRYPT_N, r=SCRYPT_R,
            p=SCRYPT_P, maxmem=64 * 1024 * 1024, dklen=48).result()
        self.topic_id = derived[:16].hex()
        self._aead = ChaCha20Poly1305(derived[16:])

    def seal(self, msg):
        """``msg`` (a dict) sealed: JSON bytes {"nonce", "box"}; the topic id is bound in."""
        nonce = os.urandom(12)
        box = self._aead.encrypt(nonce, json.dumps(msg, separators=(",", ":")).encode(),
                                 self.topic_id.encode())
        return json.dumps({"nonce": _b64(nonce), "box": _b64(box)},
                          separators=(",", ":")).encode()

    def open(self, sealed):
        """The dict sealed in ``sealed`` (a dict {"nonce", "box"}, as the broker's JSON
        gave it), or SealError when it was not sealed with this code."""
        try:
            nonce, box = _unb64(sealed.get("nonce")), _unb64(sealed.get("box"))
        except (SealError, AttributeError):
            nonce = box = b""
        if len(nonce) != 12:
            raise SealError("not sealed with this invitation's code")
        try:
            plain = self._aead.decrypt(nonce, box, self.topic_id.encode())
        except InvalidTag:
            raise SealError("not sealed with this invitation's code") from None
        try:
            msg = json.loads(plain)
        except ValueError:
            raise SealError("sealed, but no JSON inside") from None
        if not isinstance(msg, dict):
            raise SealError("sealed, but no JSON object inside")
        return msg


def _signed(key, fields, beside=None):
    """``fields`` (a dict) signed with ``key``: JSON bytes {"signed": TEXT, "sig": BASE64}
    (and ``beside``'s, unsigned)."""
    text = json.dumps(fields, separators=(",", ":"))
    return json.dumps(dict(beside or {}, signed=text, sig=_b64(key.sign(text.encode()))),
                      separators=(",", ":")).encode()


def _opened(envelope, public_hex, cafe):
    """The message of a signed ``envelope`` (a dict, as the broker's JSON gave it), checked
    with ``public_hex``: signed by that key, sent as café ``cafe``'s, with a sequence number;
    SealError when it is not so."""
    if not isinstance(envelope, dict) or not isinstance(envelope.get("signed"), str):
        raise SealError("an unsigned message")
    text = envelope["signed"]
    try:
        public_key(public_hex).verify(_unb64(envelope.get("sig")), text.encode())
    except InvalidSignature:
        raise SealError("a signature that is not %s's" % cafe) from None
    try:
        msg = json.loads(text)
    except ValueError:
        raise SealError("signed, but no JSON") from None
    if not isinstance(msg, dict):
        raise SealError("signed, but no JSON object")
    if msg.get("from") != cafe:
        raise SealError("signed by %s, sent as %s's" % (str(msg.get("from"))[:32], cafe))
    seq = msg.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
        raise SealError("no sequence number")
    return msg


def sign(key, cafe, match_id, seq, msg):
    """The message ``msg`` of café ``cafe`` about ``match_id``, signed: JSON bytes
    {"signed": TEXT, "sig": BASE64} where TEXT is the message with "from", "match" and
    "seq"."""
    return _signed(key, dict(msg, match=match_id, **{"from": cafe, "seq": seq}))


def open_signed(envelope, public_hex, cafe, match_id):
    """(seq, message) of a signed ``envelope`` (a dict, as the broker's JSON gave it) that
    café ``cafe`` (whose public key is ``public_hex``) said about ``match_id``; SealError
    when the signature, the sender or the match is not so."""
    msg = _opened(envelope, public_hex, cafe)
    if msg.get("match") != match_id:
        raise SealError("signed by %s for %s, sent as about %s" % (
            cafe, str(msg.get("match"))[:20], match_id))
    return msg["seq"], msg


def sign_floor(key, cafe, seq, floor):
    """Café ``cafe``'s floor (a dict, for spectators) signed: as ``sign``, TEXT being
    {"t": "floor", "from", "seq", "key": the signer's public key, "floor": the floor}, and
    the key beside it too ("key": read without reading the floor). The key travels with it
    so that a café that never met ``cafe`` can keep it at first sight (``floorwatch``); no
    "match": a floor is never taken as a match's message, nor one of those as a floor."""
    return _signed(key, {"t": "floor", "from": cafe, "seq": seq, "key": key.public_hex,
                         "floor": floor}, {"key": key.public_hex})


def floor_signer(envelope):
    """The public key a signed floor says it is signed with (64 hex digits), unchecked:
    the key to keep at first sight, once ``open_floor`` verified the floor with it (and
    found the same key named inside)."""
    if isinstance(envelope, dict) and isinstance(envelope.get("signed"), str) and \
            isinstance(envelope.get("key"), str):
        public_key(envelope["key"])  # (64 hex digits, else SealError)
        return envelope["key"]
    raise SealError("an unsigned floor")


def open_floor(envelope, public_hex, cafe):
    """(seq, floor) of a floor signed by café ``cafe`` with the key ``public_hex``;
    SealError when the signature, the sender or what it is are not so."""
    msg = _opened(envelope, public_hex, cafe)
    if msg.get("t") != "floor" or "match" in msg or not isinstance(msg.get("floor"), dict):
        raise SealError("signed by %s, but no floor" % cafe)
    if msg.get("key") != public_hex:
        raise SealError("a floor that names another key than the one it is signed with")
    return msg["seq"], msg["floor"]


def fingerprint(public_hex):
    """A café's public key as people compare it: the first 16 bytes of its SHA-256, in
    groups of four hex digits ("ab12 cd34 ...")."""
    digest = hashlib.sha256(bytes.fromhex(public_hex)).hexdigest()[:32]
    return " ".join(digest[i:i + 4] for i in range(0, 32, 4))


class ReplayGuard:
    """The sequence numbers taken from one sender in one match: each once, none older than
    ``REPLAY_WINDOW_US`` before the newest. ``newest`` is kept with the match (a host
    restarted takes only newer ones: the seen ones are forgotten with the process)."""

    def __init__(self, newest=-1):
        self.newest = newest
        self.floor = newest  # (after a restart: only newer than what was saved)
        self.seen = set()

    def take(self, seq):
        """True when ``seq`` is new (and it is now seen), False for a replay."""
        if seq <= self.floor or seq in self.seen or seq <= self.newest - REPLAY_WINDOW_US:
            return False
        self.seen.add(seq)
        if seq > self.newest:
            self.newest = seq
        if len(self.seen) > SEEN_KEPT:
            low = self.newest - REPLAY_WINDOW_US
            self.seen = {s for s in self.seen if s > low}
            if len(self.seen) > SEEN_KEPT:  # (a flood inside the window: the oldest go)
                keep = sorted(self.seen)[-SEEN_KEPT // 2:]
                self.floor = max(self.floor, keep[0] - 1)
                self.seen = set(keep)
        return True
