"""The characteristics the test controllers read, write and subscribe to, found in /accessories."""

from __future__ import annotations

# HAP characteristic types (HAP: Apple-defined characteristics; the short form of the UUID).
ON = 0x25
BRIGHTNESS = 0x08
CURRENT_TEMPERATURE = 0x11
EVENTS_WANTED = 2
EVENT_TIMEOUT_SECONDS = 10.0


def short_type(text: str) -> int:
    """``"25"`` or ``"00000025-0000-1000-8000-0026BB765291"`` → 0x25."""
    return int(str(text).split("-")[0], 16)


def find(accessories: list[dict], wanted: int) -> tuple[int, int]:
    for accessory in accessories:
        for service in accessory["services"]:
            for characteristic in service["characteristics"]:
                if short_type(characteristic["type"]) == wanted:
                    return accessory["aid"], characteristic["iid"]
    raise LookupError(f"no characteristic of type {wanted:X} in /accessories")
