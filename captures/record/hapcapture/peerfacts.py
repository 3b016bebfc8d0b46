"""What a peer process needs to know of its scenario when it cannot import ``scenarios.py``.

The homekit_python peers run in a venv of their own (``requirements-homekit.txt``: homekit_python's
AccessoryServer needs a zeroconf older than HAP-python and aiohomekit accept), where HAP-python and
aiohomekit, which ``scenarios.py`` imports, are not installed. The recorder writes these facts into the
work directory before it starts the peers; a peer reads them and imports its story or accessory builder
by name. Only the standard library and ``netns`` (addresses) are used here.
"""

from __future__ import annotations

import importlib
import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable

from .netns import Addressing

FACTS_FILE = "scenario.json"


def qualified_name(function: Callable[..., Any]) -> str:
    return f"{function.__module__}:{function.__qualname__}"


def resolve(name: str) -> Callable[..., Any]:
    module, _, attribute = name.partition(":")
    return getattr(importlib.import_module(module), attribute)


@dataclass(frozen=True)
class PeerFacts:
    name: str
    accessory_name: str
    device_id: str
    setup_code: str
    setup_id: str
    port: int
    addressing: Addressing
    time_limit: float
    build_accessory: str  # module:function
    story: str
    has_hooks: bool

    @classmethod
    def of(cls, scenario: Any) -> PeerFacts:
        return cls(
            name=scenario.name,
            accessory_name=scenario.accessory_name,
            device_id=scenario.device_id,
            setup_code=scenario.setup_code,
            setup_id=scenario.setup_id,
            port=scenario.port,
            addressing=scenario.addressing,
            time_limit=scenario.time_limit,
            build_accessory=qualified_name(scenario.build_accessory),
            story=qualified_name(scenario.story),
            has_hooks=scenario.accessory_hook is not None or scenario.controller_hook is not None,
        )

    def write(self, workdir: Path) -> None:
        (workdir / FACTS_FILE).write_text(json.dumps(asdict(self), indent=2) + "\n")

    @classmethod
    def read(cls, workdir: Path, name: str) -> PeerFacts:
        fields = json.loads((workdir / FACTS_FILE).read_text())
        facts = cls(**{**fields, "addressing": Addressing(**fields["addressing"])})
        if facts.name != name:
            raise ValueError(f"{workdir / FACTS_FILE} describes {facts.name}, not {name}")
        if facts.has_hooks:
            raise ValueError(f"{name}: this peer runs stock libraries only and cannot run scenario hooks")
        return facts
