"""The HAP implementations a scenario can run as its accessory and as its controller.

Each peer is one process (its module is run with ``python -m``) that instruments its library at run time
and writes the same journal: every HTTP message it sent, whole and exact, keys, pairings, advertisements.
What differs is where in the library a message is caught (the truth file says so in its notes) and, for
homekit_python, the venv: its AccessoryServer calls ``Zeroconf.check_service``, which zeroconf removed in
0.33.0, while HAP-python and aiohomekit need far newer versions (``requirements-homekit.txt``).
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import metadata


@dataclass(frozen=True)
class Peer:
    name: str  # as the truth and the README name the implementation
    distribution: str  # its PyPI distribution, for the installed version
    module: str  # the peer process
    recorded_at: str  # where its messages are recorded, for the truth notes
    venv: str | None = None  # a venv of its own under captures/record, or the recorder's

    @property
    def implementation(self) -> str:
        return f"{self.name} {metadata.version(self.distribution)}"


HOMEKIT_VENV = ".venv-homekit"

HAP_PYTHON = Peer(
    name="HAP-python",
    distribution="HAP-python",
    module="hapcapture.accessory",
    recorded_at="HAP-python's HAPServerProtocol.write (one call per response or EVENT)",
)
AIOHOMEKIT = Peer(
    name="aiohomekit",
    distribution="aiohomekit",
    module="hapcapture.controller",
    recorded_at="aiohomekit's send_bytes (one call per request)",
)
HOMEKIT_PYTHON_ACCESSORY = Peer(
    name="homekit_python",
    distribution="homekit",
    module="hapcapture.homekit_accessory",
    venv=HOMEKIT_VENV,
    recorded_at=(
        "homekit_python's AccessoryRequestHandler.write_encrypted_bytes (one call per encrypted response or EVENT) "
        "and, joined, the socket writes of one plaintext request's handling (status line with headers, then body)"
    ),
)
HOMEKIT_PYTHON_CONTROLLER = Peer(
    name="homekit_python",
    distribution="homekit",
    module="hapcapture.homekit_controller",
    venv=HOMEKIT_VENV,
    recorded_at=(
        "homekit_python's HomeKitHTTPConnection.send (one call per plaintext request) and "
        "SecureHttp._handle_request (one call per encrypted request)"
    ),
)
