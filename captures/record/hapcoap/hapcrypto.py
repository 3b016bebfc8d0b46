"""The accessory's HAP cryptography, written on ``cryptography`` (never on aiohomekit's helpers).

Pair-setup is SRP-6a with the 3072-bit group of RFC 5054 and SHA-512 (HAP: Pair Setup; HomeKitADK
HAPPairingPairSetup.c), pair-verify an X25519 exchange signed with Ed25519 (HAP: Pair Verify; HomeKitADK
HAPPairingPairVerify.c), every key an HKDF-SHA-512 of 32 bytes, every seal ChaCha20-Poly1305 with a 12-byte
nonce. The CoAP session keys (Control-Salt / Event-Salt) are aiohomekit 4.0.1's
(controller/coap/connection.py do_pair_verify); the nonce of a CoAP payload is 4 zero bytes followed by
the 64-bit little-endian counter (aiohomekit controller/coap/connection.py ``struct.pack("=4xQ", ctr)``),
with no associated data.
"""

from __future__ import annotations

import hashlib
import struct

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

# RFC 5054 Appendix A, 3072-bit group; HAP uses generator 5 and SHA-512.
SRP_N = int(
    "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD"
    "EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
    "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F"
    "83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B"
    "E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA0510"
    "15728E5A8AAAC42DAD33170D04507A33A85521ABDF1CBA64ECFB850458DBEF0A8AEA71575D060C7DB3970F85A6E1E4C7"
    "ABF5AE8CDB0933D71E8C94E04A25619DCEE3D2261AD2EE6BF12FFA06D98A0864D87602733EC86A64521F2B18177B200C"
    "BBE117577A615D6C770988C0BAD946E208E24FA074E5AB3143DB5BFCE0FD108E4B82D120A93AD2CAFFFFFFFFFFFFFFFF",
    16,
)
SRP_G = 5
SRP_BYTES = 384
SRP_USERNAME = b"Pair-Setup"
KEY_BYTES = 32

CONTROL_SALT = b"Control-Salt"
CONTROL_WRITE_INFO = b"Control-Write-Encryption-Key"  # controller → accessory
CONTROL_READ_INFO = b"Control-Read-Encryption-Key"  # accessory → controller
EVENT_SALT = b"Event-Salt"
EVENT_READ_INFO = b"Event-Read-Encryption-Key"  # accessory → controller events


def sha512(*parts: bytes) -> bytes:
    return hashlib.sha512(b"".join(parts)).digest()


def hkdf(key: bytes, salt: bytes, info: bytes) -> bytes:
    return HKDF(algorithm=hashes.SHA512(), length=KEY_BYTES, salt=salt, info=info).derive(key)


def pairing_nonce(label: bytes) -> bytes:
    """HAP: the nonce of a pairing message is its 8-byte label, e.g. ``PV-Msg02``, after 4 zero bytes."""
    return bytes(4) + label


def coap_nonce(counter: int) -> bytes:
    """aiohomekit controller/coap/connection.py: 4 zero bytes, then the counter as 64-bit little-endian."""
    return struct.pack("<4xQ", counter)


def seal(key: bytes, counter: int, plaintext: bytes) -> bytes:
    return ChaCha20Poly1305(key).encrypt(coap_nonce(counter), plaintext, None)


def open_sealed(key: bytes, counter: int, ciphertext: bytes) -> bytes:
    return ChaCha20Poly1305(key).decrypt(coap_nonce(counter), ciphertext, None)


def session_keys(shared_secret: bytes) -> dict[str, bytes]:
    """The three CoAP session keys, by key-log label."""
    return {
        "CONTROL_WRITE_KEY": hkdf(shared_secret, CONTROL_SALT, CONTROL_WRITE_INFO),
        "CONTROL_READ_KEY": hkdf(shared_secret, CONTROL_SALT, CONTROL_READ_INFO),
        "EVENT_READ_KEY": hkdf(shared_secret, EVENT_SALT, EVENT_READ_INFO),
    }


def _pad(number: int) -> bytes:
    return number.to_bytes(SRP_BYTES, "big")


def _minimal(number: int) -> bytes:
    return number.to_bytes((number.bit_length() + 7) // 8, "big")


class SrpServer:
    """The accessory half of SRP-6a as HAP uses it (RFC 5054 §2.5–2.6 with SHA-512, username ``Pair-Setup``).

    Public values are sent and hashed as 384-byte big-endian numbers; the premaster secret S is padded
    to 384 bytes before it is hashed into K (the convention aiohomekit's controller follows too).
    """

    def __init__(self, setup_code: str, salt: bytes, private_b: bytes) -> None:
        self.salt = salt
        x = int.from_bytes(sha512(salt, sha512(SRP_USERNAME + b":" + setup_code.encode("ascii"))), "big")
        self.verifier = pow(SRP_G, x, SRP_N)
        self.k = int.from_bytes(sha512(_pad(SRP_N), _pad(SRP_G)), "big")
        self.b = int.from_bytes(private_b, "big")
        self.public_b = _pad((self.k * self.verifier + pow(SRP_G, self.b, SRP_N)) % SRP_N)
        self.session_key: bytes | None = None
        self.public_a: bytes | None = None

    def verify_client(self, public_a: bytes, proof: bytes) -> bytes | None:
        """The accessory's proof for a right client proof, else ``None``. Rejects A ≡ 0 (mod N)."""
        a = int.from_bytes(public_a, "big")
        if a % SRP_N == 0:
            return None
        padded_a = _pad(a)
        u = int.from_bytes(sha512(padded_a, self.public_b), "big")
        premaster = pow(a * pow(self.verifier, u, SRP_N), self.b, SRP_N)
        key = sha512(_pad(premaster))
        group = bytes(x ^ y for x, y in zip(sha512(_minimal(SRP_N)), sha512(_minimal(SRP_G))))
        expected = sha512(group, sha512(SRP_USERNAME), self.salt, padded_a, self.public_b, key)
        if expected != proof:
            return None
        self.session_key, self.public_a = key, padded_a
        return sha512(padded_a, proof, key)
