"""AES-GCM envelopes, a key ring with key ids, and keyed hashes of identifiers.

Every value the library writes to PostgreSQL, Redis or disk passes through
:class:`KeyRing.encrypt`. The envelope names the key it was sealed with, so
keys can be rotated: new writes use the first (active) key, reads accept any
key still on the ring. The associated data binds a value to where it is
stored (thread, channel, version...), so a row copied or moved to another
place fails authentication instead of being read as someone else's.

Identifiers (thread ids, user ids, namespaces holding them) are never stored
raw; they are replaced by an HMAC under a key derived from the *identity*
key, which is the last key of the ring (the oldest) so that lookups survive
rotation of the encryption key.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import os
import struct
from collections.abc import Iterable, Sequence
from typing import cast

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from langgraph_trustmem.errors import InvalidKeyError, TamperedDataError

MAGIC = b"\xa7TM1"
_HEADER = struct.Struct(">4sI12s")  # magic, key id, nonce
HEADER_SIZE = _HEADER.size
ID_HASH_SIZE = 16
ID_MEMO_SIZE = 4096  # identifier hashes a key ring remembers


def _derive(master: bytes, info: bytes) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=info).derive(master)


def generate_key() -> str:
    """A new random 32-byte key, base64-encoded (the ``TRUSTMEM_KEY`` format)."""
    return base64.b64encode(os.urandom(32)).decode("ascii")


def decode_key(text: str | bytes) -> bytes:
    """Decode one base64 key, refusing anything that is not 32 bytes."""
    if isinstance(text, bytes) and len(text) == 32:
        return text
    try:
        raw = base64.b64decode(text.strip() if isinstance(text, str) else text, validate=True)
    except (binascii.Error, ValueError):
        raise InvalidKeyError("an encryption key must be 32 bytes encoded in base64") from None
    if len(raw) != 32:
        raise InvalidKeyError("an encryption key must be 32 bytes encoded in base64")
    return raw


class KeyRing:
    """The keys this process can use; the first one encrypts new data."""

    __slots__ = ("_active_id", "_ciphers", "_id_key", "_id_memo", "key_ids")

    def __init__(self, keys: Sequence[bytes | str]) -> None:
        if not keys:
            raise InvalidKeyError("a key ring needs at least one key")
        masters = [decode_key(k) for k in keys]
        self._ciphers: dict[int, AESGCM] = {}
        ids: list[int] = []
        for master in masters:
            kid = self.key_id_of(master)
            if kid not in self._ciphers:
                self._ciphers[kid] = AESGCM(_derive(master, b"trustmem/encrypt/v1"))
                ids.append(kid)
        self.key_ids = tuple(ids)
        self._active_id = ids[0]
        self._id_key = _derive(masters[-1], b"trustmem/identity/v1")
        self._id_memo: dict[tuple[str, str | bytes], bytes] = {}

    @staticmethod
    def key_id_of(master: bytes) -> int:
        """A public 32-bit fingerprint of a key, stored beside each value."""
        return int.from_bytes(hashlib.sha256(b"trustmem/key-id/" + master).digest()[:4], "big")

    @classmethod
    def parse(cls, text: str) -> KeyRing:
        """Parse ``TRUSTMEM_KEY``: one key, or several separated by commas,
        newest first."""
        parts = [p for p in (s.strip() for s in text.split(",")) if p]
        return cls(parts)

    @property
    def active_key_id(self) -> int:
        return self._active_id

    def encrypt(self, plaintext: bytes, aad: bytes) -> bytes:
        nonce = os.urandom(12)
        ct = self._ciphers[self._active_id].encrypt(nonce, plaintext, aad)
        return _HEADER.pack(MAGIC, self._active_id, nonce) + ct

    def decrypt(self, envelope: bytes | memoryview, aad: bytes) -> bytes:
        envelope = bytes(envelope)
        if len(envelope) < HEADER_SIZE + 16 or envelope[:4] != MAGIC:
            raise TamperedDataError("stored value is not an authenticated envelope")
        _, kid, nonce = _HEADER.unpack_from(envelope)
        cipher = self._ciphers.get(kid)
        if cipher is None:
            raise TamperedDataError("stored value is sealed with a key that is not on the ring")
        try:
            return cipher.decrypt(nonce, envelope[HEADER_SIZE:], aad)
        except InvalidTag:
            raise TamperedDataError("stored value failed authentication") from None

    @staticmethod
    def key_id_in(envelope: bytes) -> int:
        """The key id an envelope names (for rotation reports)."""
        return _HEADER.unpack_from(envelope)[1]

    def needs_rotation(self, envelope: bytes) -> bool:
        return self.key_id_in(envelope) != self._active_id

    def hash_id(self, purpose: str, value: str | bytes) -> bytes:
        """A keyed, deterministic hash of an identifier, for lookups. The
        last few thousand are remembered: a request hashes the same
        namespace, user and thread many times."""
        memo = self._id_memo
        got = memo.get((purpose, value))
        if got is not None:
            return got
        data = value.encode("utf-8") if isinstance(value, str) else value
        got = hmac.new(self._id_key, purpose.encode("ascii") + b"\x00" + data, hashlib.sha256).digest()[
            :ID_HASH_SIZE
        ]
        if len(memo) >= ID_MEMO_SIZE:
            memo.clear()
        memo[(purpose, value)] = got
        return got

    def hash_hex(self, purpose: str, value: str | bytes) -> str:
        return self.hash_id(purpose, value).hex()

    def derive_key(self, purpose: str) -> bytes:
        """A 32-byte key for ``purpose`` (e.g. the vector tier's rotations),
        derived from the identity key so that, like hashed identifiers, it
        survives rotation of the encryption key."""
        return _derive(self._id_key, b"trustmem/derive/" + purpose.encode("ascii"))

    def mac(self, data: bytes) -> bytes:
        """A full-length MAC (for hash chains)."""
        return hmac.new(self._id_key, b"mac\x00" + data, hashlib.sha256).digest()

    def __repr__(self) -> str:  # never show key material
        return f"KeyRing(key_ids={[f'{k:08x}' for k in self.key_ids]})"


_LENGTH = struct.Struct(">I").pack


def aad(*parts: str | bytes | int | Iterable[str]) -> bytes:
    """Associated data from the parts that say where a value lives, each
    after its length. Every envelope is sealed and opened with one, so the
    usual part types are tested first (a history read builds hundreds)."""
    out: list[bytes] = []
    for p in parts:
        if type(p) is str:
            b = p.encode("utf-8")
        elif type(p) is bytes:
            b = p
        elif isinstance(p, int):
            b = str(p).encode()
        elif isinstance(p, str):
            b = p.encode("utf-8")
        else:
            b = bytes(cast(bytes, p))
        out.append(_LENGTH(len(b)))
        out.append(b)
    return b"".join(out)


__all__ = ["KeyRing", "aad", "decode_key", "generate_key"]
