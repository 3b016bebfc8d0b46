"""The accessory's cryptography, from the `cryptography` package and SRP-6a on Python ints.

Nothing here comes from aiohomekit, so that accessory and controller share no HAP code.
HAP R14 §5.5 (SRP-6a, 3072-bit group of RFC 5054, g = 5, SHA-512), §5.6 (HKDF-SHA-512),
§5.9 (ChaCha20-Poly1305 with a 96-bit nonce: 4 zero bytes and a 64-bit little-endian counter or an
8-byte ASCII label such as "PS-Msg05").
"""

from __future__ import annotations

import hashlib
import hmac

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

# RFC 5054 Appendix A, 3072-bit group.
N_3072 = int(
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
G = 5
SRP_BYTES = 384


def sha512(*parts: bytes) -> bytes:
    return hashlib.sha512(b"".join(parts)).digest()


def to_bytes(number: int, length: int = SRP_BYTES) -> bytes:
    return number.to_bytes(length, "big")


class SrpServer:
    """SRP-6a verifier side for user "Pair-Setup" (HAP R14 §5.6.2); all byte strings are 384 bytes
    wide (pad(x)), the salt 16 bytes."""

    USERNAME = b"Pair-Setup"

    def __init__(self, setup_code: str, salt: bytes, secret_b: bytes) -> None:
        self.salt = salt
        x = int.from_bytes(sha512(salt, sha512(self.USERNAME + b":" + setup_code.encode("ascii"))), "big")
        self.verifier = pow(G, x, N_3072)
        self.k = int.from_bytes(sha512(to_bytes(N_3072), to_bytes(G)), "big")
        self.b = int.from_bytes(secret_b, "big")
        self.public_b = (self.k * self.verifier + pow(G, self.b, N_3072)) % N_3072
        self.public_b_bytes = to_bytes(self.public_b)
        self.session_key: bytes | None = None
        self.public_a_bytes: bytes | None = None

    def process_a(self, public_a_bytes: bytes) -> bytes:
        """Computes K = H(S) from the controller's A; returns K (64 bytes)."""
        public_a = int.from_bytes(public_a_bytes, "big")
        if public_a % N_3072 == 0:
            raise ValueError("SRP A is 0 mod N")
        self.public_a_bytes = to_bytes(public_a)
        u = int.from_bytes(sha512(self.public_a_bytes, self.public_b_bytes), "big")
        shared = pow(public_a * pow(self.verifier, u, N_3072), self.b, N_3072)
        self.session_key = sha512(to_bytes(shared))
        return self.session_key

    def expected_controller_proof(self) -> bytes:
        assert self.session_key is not None and self.public_a_bytes is not None
        group = bytes(a ^ b for a, b in zip(sha512(to_bytes(N_3072)), sha512(bytes([G]))))
        return sha512(group, sha512(self.USERNAME), self.salt, self.public_a_bytes, self.public_b_bytes, self.session_key)

    def accessory_proof(self, controller_proof: bytes) -> bytes:
        assert self.session_key is not None and self.public_a_bytes is not None
        return sha512(self.public_a_bytes, controller_proof, self.session_key)

    def check_controller_proof(self, proof: bytes) -> bool:
        return hmac.compare_digest(proof, self.expected_controller_proof())


def hkdf(key: bytes, salt: bytes, info: bytes, length: int = 32) -> bytes:
    return HKDF(algorithm=hashes.SHA512(), length=length, salt=salt, info=info).derive(key)


def nonce_counter(counter: int) -> bytes:
    return b"\x00" * 4 + counter.to_bytes(8, "little")


def nonce_label(label: bytes) -> bytes:
    if len(label) != 8:
        raise ValueError("a HAP nonce label is 8 bytes")
    return b"\x00" * 4 + label


def seal(key: bytes, nonce: bytes, plaintext: bytes, aad: bytes = b"") -> bytes:
    return ChaCha20Poly1305(key).encrypt(nonce, plaintext, aad or None)


def open_sealed(key: bytes, nonce: bytes, sealed: bytes, aad: bytes = b"") -> bytes:
    """Raises cryptography.exceptions.InvalidTag when the tag does not authenticate."""
    return ChaCha20Poly1305(key).decrypt(nonce, sealed, aad or None)


def chacha20_keystream_xor(key: bytes, nonce: bytes, data: bytes) -> bytes:
    """Raw ChaCha20 from block counter 1 (where RFC 8439's AEAD starts the payload), no tag."""
    full_nonce = (1).to_bytes(4, "little") + nonce
    encryptor = Cipher(algorithms.ChaCha20(key, full_nonce), mode=None).encryptor()
    return encryptor.update(data)


# Session-key derivations: HomeKitADK HAPPairingPairVerify.c (HAPPairingPairVerifyStartSession,
# Pair Resume M1/M2), HAPBLEAccessoryServer+Broadcast.c (broadcast key).
def control_keys(shared_secret: bytes) -> tuple[bytes, bytes]:
    """(controller→accessory, accessory→controller) session keys."""
    return (
        hkdf(shared_secret, b"Control-Salt", b"Control-Write-Encryption-Key"),
        hkdf(shared_secret, b"Control-Salt", b"Control-Read-Encryption-Key"),
    )


def resume_session_id(shared_secret: bytes) -> bytes:
    # aiohomekit protocol/__init__.py get_session_keys: the 8-byte session ID after pair-verify M4.
    return hkdf(shared_secret, b"Pair-Verify-ResumeSessionID-Salt", b"Pair-Verify-ResumeSessionID-Info", 8)


def resume_request_key(shared_secret: bytes, controller_public: bytes, session_id: bytes) -> bytes:
    return hkdf(shared_secret, controller_public + session_id, b"Pair-Resume-Request-Info")


def resume_response_key(shared_secret: bytes, controller_public: bytes, new_session_id: bytes) -> bytes:
    return hkdf(shared_secret, controller_public + new_session_id, b"Pair-Resume-Response-Info")


def resumed_shared_secret(shared_secret: bytes, controller_public: bytes, new_session_id: bytes) -> bytes:
    return hkdf(shared_secret, controller_public + new_session_id, b"Pair-Resume-Shared-Secret-Info")


def broadcast_key(shared_secret: bytes, controller_ltpk: bytes) -> bytes:
    return hkdf(shared_secret, controller_ltpk, b"Broadcast-Encryption-Key")


def seal_broadcast(key: bytes, gsn: int, advertising_id: bytes, plaintext: bytes) -> bytes:
    """Encrypted notification payload (HomeKitADK HAPBLEAccessoryServer+Advertising.c): ChaCha20-
    Poly1305, nonce = GSN as 64-bit LE, AAD = advertising identifier, only 4 tag bytes sent."""
    sealed = seal(key, nonce_counter(gsn), plaintext, advertising_id)
    return sealed[: len(plaintext)] + sealed[len(plaintext) : len(plaintext) + 4]


def open_broadcast(key: bytes, gsn: int, advertising_id: bytes, payload: bytes) -> bytes | None:
    """Decrypts a 4-byte-tag broadcast payload; None when the truncated tag does not match."""
    ciphertext, tag4 = payload[:-4], payload[-4:]
    plaintext = chacha20_keystream_xor(key, nonce_counter(gsn), ciphertext)
    if seal_broadcast(key, gsn, advertising_id, plaintext)[-4:] != tag4:
        return None
    return plaintext
