"""Discord's signature on every interaction it sends: Ed25519 over the timestamp and the body.

Discord signs each request with the application's private key; `X-Signature-Ed25519` holds the
signature (hex), `X-Signature-Timestamp` the time it was made (Unix seconds). `verify` refuses
(`SignatureError`, answered 401 as Discord requires) a request without them, one whose signature
does not match its own timestamp and body (another body's signature, a changed byte), one whose
timestamp is more than `MAX_AGE_S` away from now, and one whose signature was already seen
(`Replays`: the same request sent again within that window).

>>> from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
>>> private = Ed25519PrivateKey.from_private_bytes(bytes(32))
>>> key = public_key(private.public_key().public_bytes_raw().hex())
>>> signed = private.sign(b"1700000000" + b'{"type":1}').hex()
>>> verify(key, signed, "1700000000", b'{"type":1}', now=1700000010.0)
>>> try:
...     verify(key, signed, "1700000000", b'{"type":2}', now=1700000010.0)
... except SignatureError as refused:
...     print(refused.reason)
the request is not signed by Discord
"""

from __future__ import annotations

import re
import time
from collections import OrderedDict

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from jdr.errors import InputError, NotSignedInError
from jdr.i18n import _

__all__ = [
    "MAX_AGE_S",
    "MAX_BODY",
    "Replays",
    "SignatureError",
    "public_key",
    "verify",
]

MAX_AGE_S = 300
"""How far from now a request's timestamp may be (seconds): five minutes."""
MAX_BODY = 64 * 1024
"""The largest interaction accepted (bytes); Discord's are a few kilobytes."""
_HEX_KEY = re.compile(r"^[0-9a-fA-F]{64}$")
_HEX_SIGNATURE = re.compile(r"^[0-9a-fA-F]{128}$")
_TIMESTAMP = re.compile(r"^[0-9]{1,12}$")


class SignatureError(NotSignedInError):
    """A request Discord did not sign (or not now): answered 401."""

    code = "bad_signature"

    def shown_field(self) -> str:
        return _("signature")


def public_key(text: str, field: str = "--discord-public-key") -> Ed25519PublicKey:
    """The application's public key from its hex form (the developer portal shows it), else an
    `InputError` naming `field`."""
    cleaned = text.strip()
    if not _HEX_KEY.match(cleaned):
        shown = cleaned[:16] + ("…" if len(cleaned) > 16 else "")
        raise InputError(field, shown, _("64 hexadecimal digits (the application's public key)"))
    return Ed25519PublicKey.from_public_bytes(bytes.fromhex(cleaned))


def _refused(reason: str) -> SignatureError:
    return SignatureError(
        "signature", None, _("a request Discord signed with the application's key"), reason
    )


def verify(
    key: Ed25519PublicKey,
    signature: str | None,
    timestamp: str | None,
    body: bytes,
    now: float | None = None,
    max_age_s: int = MAX_AGE_S,
) -> None:
    """Refuse (`SignatureError`) unless `signature` is the key's over `timestamp` + `body` and
    `timestamp` is within `max_age_s` of `now` (see the module)."""
    if not signature or not timestamp:
        raise _refused(_("the request is not signed"))
    if not _HEX_SIGNATURE.match(signature) or not _TIMESTAMP.match(timestamp):
        raise _refused(_("the request is not signed by Discord"))
    try:
        key.verify(bytes.fromhex(signature), timestamp.encode() + body)
    except InvalidSignature:
        raise _refused(_("the request is not signed by Discord")) from None
    at = time.time() if now is None else now
    if abs(at - int(timestamp)) > max_age_s:
        raise _refused(_("the request's timestamp is too old or in the future"))


class Replays:
    """The signatures seen in the last `window_s` seconds (in this process): a request sent
    again as it was is refused. Bounded: the oldest are forgotten past `size`.

    >>> seen = Replays(60)
    >>> seen.check("ab", 0.0), seen.check("ab", 1.0)
    (True, False)
    >>> seen.check("ab", 62.0)
    True
    """

    def __init__(self, window_s: float = MAX_AGE_S, size: int = 100_000) -> None:
        self.window_s = window_s
        self.size = size
        self._seen: OrderedDict[str, float] = OrderedDict()

    def check(self, signature: str, at: float) -> bool:
        """Whether `signature` is new in the window (it is then remembered)."""
        while self._seen:
            oldest, when = next(iter(self._seen.items()))
            if when > at - self.window_s and len(self._seen) < self.size:
                break
            del self._seen[oldest]
        key = signature.lower()
        if key in self._seen:
            return False
        self._seen[key] = at
        return True

    def refuse_replay(self, signature: str, at: float | None = None) -> None:
        if not self.check(signature, time.time() if at is None else at):
            raise _refused(_("the request was already received"))
