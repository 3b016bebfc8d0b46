"""Captures as they come from a real home: the accessories, hooks, stories and scenarios of issue 15.

A capture taken in a home rarely starts at the beginning: tcpdump is started while sessions are long encrypted
(``mid-session``), sometimes in the middle of a large response, so that its first segment starts inside a frame
(``mid-frame``). Homes have cameras, whose stream management is TLV8 in JSON (``camera``, with an Adaptive
Lighting lamp), accessories that answer late or never and report -70402 (``slow-accessory``), accessories that
notify far faster than HAP's coalescing allows (``event-storm``), and sessions that run for minutes
(``long-session``). The peers are the stock libraries; ``slow-accessory`` and ``event-storm`` patch HAP-python at
run time (``accessory_hook``) the way the misbehaving captures do, and journal each deliberate misbehaviour with
the rule the reference check (``rules.py``) must find.
"""

from __future__ import annotations

import asyncio
import base64
import json
import socket
import struct
import time
from typing import Any
from urllib.parse import parse_qs, urlparse

import aiohomekit.controller.ip.connection as connection_module
import pyhap.hap_protocol
from aiohomekit.controller.ip.connection import HomeKitConnection
from aiohomekit.exceptions import AccessoryDisconnectedError
from aiohomekit.model.characteristics import CharacteristicsTypes as Types
from pyhap import camera as pyhap_camera
from pyhap.accessory import Accessory, Bridge
from pyhap.accessory_driver import AccessoryDriver
from pyhap.const import CATEGORY_LIGHTBULB, CATEGORY_SENSOR
from pyhap.hap_event import create_hap_event
from pyhap.hap_handler import HAPResponse

from . import accessories, tlv8
from .faults import Request, Saboteur
from .journal import ACCESSORY_TO_CONTROLLER, Journal
from .misbehaving import find_characteristic, ident
from .scenarios import BRIDGE_NAME, MISBEHAVING_NOTE, Scenario
from .seeded import SeededRandomness, os_module_with_urandom, seeded_uuid4
from .story import Database, Story, stream_counters

# Base seeds of this module's scenarios (31001… keeps them apart from the rest of the corpus).
MID_SESSION_SEED, MID_FRAME_SEED, CAMERA_SEED, SLOW_SEED, STORM_SEED, LONG_SEED = 31001, 32001, 33001, 34001, 35001, 36001


def ids_of(target: str) -> list[tuple[int, int]]:
    """The (aid, iid) pairs a ``GET /characteristics?id=…`` asks for."""
    listed = parse_qs(urlparse(target).query).get("id", [""])[0]
    return [tuple(int(part) for part in pair.split(".")) for pair in listed.split(",") if pair]


def answer_later(response: HAPResponse, delay: float | None) -> None:
    """Hold a response back for ``delay`` seconds, or for good with ``None``.

    HAP-python writes a response that carries a ``task`` once the task is done (pyhap/hap_protocol.py
    ``_process_response``, ``_handle_response_ready``: the path its camera snapshots take), and not at all if the
    connection closed first.
    """
    body = response.body
    response.body = b""
    loop = asyncio.get_running_loop()
    later: asyncio.Future[bytes] = loop.create_future()
    if delay is not None:
        loop.call_later(delay, later.set_result, body)
    response.task = later


# --- accessories -------------------------------------------------------------------------------------


class LightSensor(Accessory):
    category = CATEGORY_SENSOR

    def __init__(self, driver: AccessoryDriver, name: str, serial_number: str) -> None:
        super().__init__(driver, name)
        accessories.describe(self, "Light Sensor", serial_number)
        self.level = self.add_preload_service("LightSensor").configure_char("CurrentAmbientLightLevel", value=20.0)


class MotionSensor(Accessory):
    category = CATEGORY_SENSOR

    def __init__(self, driver: AccessoryDriver, name: str, serial_number: str) -> None:
        super().__init__(driver, name)
        accessories.describe(self, "Motion Sensor", serial_number)
        self.motion = self.add_preload_service("MotionSensor").configure_char("MotionDetected", value=False)


class UnreachableContactSensor(Accessory):
    """A bridged contact sensor the bridge has lost touch with.

    HAP-python answers a read of an accessory whose ``available`` is false with status -70402 (Service
    Communication Failure) without asking it (pyhap/accessory_driver.py ``get_characteristics``): what a bridge
    reports for a device that dropped off its own radio network.
    """

    category = CATEGORY_SENSOR

    def __init__(self, driver: AccessoryDriver, name: str, serial_number: str) -> None:
        super().__init__(driver, name)
        accessories.describe(self, "Contact Sensor", serial_number)
        self.state = self.add_preload_service("ContactSensor").configure_char("ContactSensorState", value=0)

    @property
    def available(self) -> bool:
        return False


# Adaptive Lighting, in the TLV8 structures HAP-NodeJS reverse-engineered (src/lib/controller/
# AdaptiveLightingController.ts; not in any Apple source of the corpus, hence not confirmed): Supported Transition
# Configuration lists (iid, type) pairs; Transition Control takes an update (type 0x02) whose Value Transition
# Configuration (0x01) holds the iid, the transition parameters, 0x03 = 1, the curve, the update interval and the
# notify interval threshold, and answers (write response) the configuration status: iid, parameters, time since start.
SUPPORTED_TRANSITION_CONFIGURATION, TRANSITION_CHARACTERISTIC_IID, TRANSITION_TYPE = 0x01, 0x01, 0x02
TRANSITION_TYPE_BRIGHTNESS, TRANSITION_TYPE_COLOR_TEMPERATURE = 0x01, 0x02
TRANSITION_UPDATE = 0x02
VALUE_TRANSITION_CONFIGURATION = 0x01
CONFIGURATION_IID, CONFIGURATION_PARAMETERS, CONFIGURATION_ENABLE, CONFIGURATION_CURVE = 0x01, 0x02, 0x03, 0x05
CONFIGURATION_UPDATE_INTERVAL, CONFIGURATION_NOTIFY_THRESHOLD = 0x06, 0x08
PARAMETER_ID, PARAMETER_START_TIME, PARAMETER_ID3 = 0x01, 0x02, 0x03
CURVE_ENTRY, CURVE_ADJUSTMENT_IID, CURVE_ADJUSTMENT_RANGE = 0x01, 0x02, 0x03
ENTRY_ADJUSTMENT_FACTOR, ENTRY_VALUE, ENTRY_TRANSITION_OFFSET, ENTRY_DURATION = 0x01, 0x02, 0x03, 0x04
RANGE_MINIMUM, RANGE_MAXIMUM = 0x01, 0x02
STATUS_CONFIGURATION = 0x01
STATUS_IID, STATUS_PARAMETERS, STATUS_TIME_SINCE_START = 0x01, 0x02, 0x03


def b64(value: bytes) -> str:
    return base64.b64encode(value).decode("ascii")


class AdaptiveLamp(Accessory):
    """A colour-temperature lamp with the Adaptive Lighting characteristics HAP-python defines but does not drive."""

    category = CATEGORY_LIGHTBULB

    def __init__(self, driver: AccessoryDriver, name: str, serial_number: str) -> None:
        super().__init__(driver, name)
        accessories.describe(self, "Adaptive Lightbulb", serial_number)
        service = self.add_preload_service(
            "Lightbulb",
            chars=["Brightness", "ColorTemperature", "ActiveTransitionCount", "TransitionControl", "SupportedTransitionConfiguration"],
        )
        self.on = service.configure_char("On", value=True)
        self.brightness = service.configure_char("Brightness", value=70)
        self.temperature = service.configure_char("ColorTemperature", value=300)
        self.active = service.configure_char("ActiveTransitionCount", value=0)
        self.status: dict[int, bytes] | None = None
        service.configure_char(
            "TransitionControl", value="", getter_callback=self.read_status, setter_callback=self.write_control
        )
        supported = [
            (SUPPORTED_TRANSITION_CONFIGURATION, tlv8.encode([(TRANSITION_CHARACTERISTIC_IID, bytes([self.iid(self.brightness)])), (TRANSITION_TYPE, bytes([TRANSITION_TYPE_BRIGHTNESS]))])),
            (tlv8.SEPARATOR, b""),
            (SUPPORTED_TRANSITION_CONFIGURATION, tlv8.encode([(TRANSITION_CHARACTERISTIC_IID, bytes([self.iid(self.temperature)])), (TRANSITION_TYPE, bytes([TRANSITION_TYPE_COLOR_TEMPERATURE]))])),
        ]  # fmt: skip
        service.configure_char("SupportedTransitionConfiguration", value=b64(tlv8.encode(supported)))

    def iid(self, characteristic: Any) -> int:
        return self.iid_manager.get_iid(characteristic)

    def status_tlv(self) -> bytes:
        if self.status is None:
            return b""
        entries = [(STATUS_IID, self.status[CONFIGURATION_IID]), (STATUS_PARAMETERS, self.status[CONFIGURATION_PARAMETERS])]
        return tlv8.encode([(STATUS_CONFIGURATION, tlv8.encode(entries + [(STATUS_TIME_SINCE_START, struct.pack("<I", 0))]))])

    def read_status(self) -> str:
        return b64(self.status_tlv())

    def write_control(self, value: str) -> str:
        """Start or stop the transition; the answer is the write response (the lamp has the ``wr`` permission)."""
        update = tlv8.decode(tlv8.decode(base64.b64decode(value))[TRANSITION_UPDATE])
        configuration = tlv8.decode(update[VALUE_TRANSITION_CONFIGURATION])
        if configuration.get(CONFIGURATION_ENABLE) == b"\x01":
            self.status = configuration
            self.active.set_value(1)
            return b64(tlv8.encode([(TRANSITION_UPDATE, self.status_tlv())]))
        self.status = None
        self.active.set_value(0)
        return b64(tlv8.encode([(TRANSITION_UPDATE, b"")]))


CAMERA_OPTIONS = {
    "video": {
        "codec": {
            "profiles": [
                pyhap_camera.VIDEO_CODEC_PARAM_PROFILE_ID_TYPES["BASELINE"],
                pyhap_camera.VIDEO_CODEC_PARAM_PROFILE_ID_TYPES["MAIN"],
                pyhap_camera.VIDEO_CODEC_PARAM_PROFILE_ID_TYPES["HIGH"],
            ],
            "levels": [
                pyhap_camera.VIDEO_CODEC_PARAM_LEVEL_TYPES["TYPE3_1"],
                pyhap_camera.VIDEO_CODEC_PARAM_LEVEL_TYPES["TYPE3_2"],
                pyhap_camera.VIDEO_CODEC_PARAM_LEVEL_TYPES["TYPE4_0"],
            ],
        },
        "resolutions": [[1920, 1080, 30], [1280, 720, 30], [640, 360, 30], [320, 240, 15]],
    },
    "audio": {"codecs": [{"type": "OPUS", "samplerate": 24}, {"type": "AAC-eld", "samplerate": 16}]},
    "srtp": True,
    "address": "10.77.0.2",
}


class StreamlessCamera(pyhap_camera.Camera):
    """HAP-python's camera whose stream hooks do not run ffmpeg.

    ``start_stream`` and ``stop_stream`` are the camera's documented extension points (pyhap/camera.py); here they
    only note what HAP-python negotiated, since no video is sent inside the namespaces.
    """

    journal: Journal | None = None

    async def start_stream(self, session_info: dict, stream_config: dict) -> bool:
        if self.journal is not None:
            shown = {key: stream_config[key] for key in ("width", "height", "fps", "v_ssrc", "v_max_bitrate", "a_ssrc", "a_sample_rate") if key in stream_config}
            self.journal.observation(f"HAP-python's camera started stream session {session_info['id']} with {shown} (no ffmpeg run)")
        return True

    async def stop_stream(self, session_info: dict) -> None:
        if self.journal is not None:
            self.journal.observation(f"HAP-python's camera stopped stream session {session_info['id']}")


def camera_bridge(driver: AccessoryDriver, name: str) -> Bridge:
    bridge = Bridge(driver, name)
    accessories.describe(bridge, "Bridge", "HS-BRIDGE-0015")
    camera = StreamlessCamera(CAMERA_OPTIONS, driver, "Porch Camera")
    accessories.describe(camera, "Camera", "HS-CAMERA-0015")  # pyhap's Camera leaves Model and the rest empty
    bridge.add_accessory(camera)
    bridge.add_accessory(AdaptiveLamp(driver, "Hall Light", "HS-LAMP-0015"))
    return bridge


def slow_bridge(driver: AccessoryDriver, name: str) -> Bridge:
    bridge = accessories.demo_bridge(driver, name, temperature_interval=None)
    bridge.add_accessory(UnreachableContactSensor(driver, "Garage Door Contact", "HS-CONTACT-0001"))
    return bridge


def storm_bridge(driver: AccessoryDriver, name: str) -> Bridge:
    bridge = accessories.demo_bridge(driver, name, temperature_interval=None)
    bridge.add_accessory(LightSensor(driver, "Hall Light Sensor", "HS-LUX-0001"))
    bridge.add_accessory(MotionSensor(driver, "Hall Motion", "HS-MOTION-0001"))
    return bridge


def camera_accessory(driver: AccessoryDriver, journal: Journal) -> None:
    """Seeds the SSRCs HAP-python's camera draws (os.urandom in pyhap/camera.py) and lets it note its streams."""
    pyhap_camera.os = os_module_with_urandom(SeededRandomness(CAMERA_SEED, "accessory").urandom("camera-ssrc"))
    for accessory in driver.accessory.accessories.values():
        if isinstance(accessory, StreamlessCamera):
            accessory.journal = journal


# --- mid-session ---------------------------------------------------------------------------------------

QUIET_SECONDS = 1.0  # nothing in flight, no EVENT queued, when the capture starts


async def mid_session_story(story: Story) -> None:
    """A session long encrypted when the capture starts; a second one pair-verifies inside the capture."""
    discovery = await story.discover()
    pairing = await story.pair(discovery)
    first = await story.open_session(pairing)
    db = Database(await first.list_accessories_and_characteristics())
    lamp_on = db.characteristic("Desk Lamp", Types.ON)
    lamp_brightness = db.characteristic("Desk Lamp", Types.BRIGHTNESS)
    temperature = db.characteristic("Living Room Sensor", Types.TEMPERATURE_CURRENT)
    lock_current = db.characteristic("Front Door", Types.LOCK_MECHANISM_CURRENT_STATE)
    lock_target = db.characteristic("Front Door", Types.LOCK_MECHANISM_TARGET_STATE)
    outlet_on = db.characteristic("Coffee Maker", Types.ON)
    with story.journal.note("before the capture"):
        await first.get_characteristics([lamp_on, lamp_brightness, temperature])
        await first.put_characteristics([(*lamp_brightness, 60)])
        await first.subscribe(story.sorted_ids([lamp_on, temperature]))
        await asyncio.sleep(2.2)  # temperature EVENTs the capture will not see
        await first.unsubscribe([temperature])
    await asyncio.sleep(QUIET_SECONDS)
    await story.start_capture([first.connection])
    with story.journal.note("inside the capture, on the session that began before it"):
        await first.get_characteristics([lock_current, outlet_on, lamp_on])
        await first.subscribe(story.sorted_ids([temperature, lock_current]))
        await first.put_characteristics([(*lock_target, accessories.LOCK_UNSECURED)])
    second = await story.open_session(pairing)
    with story.journal.note("a second session, pair-verified inside the capture"):
        await second.get_characteristics([lamp_on])
        await second.put_characteristics([(*lamp_on, True)])  # notified on the first session only
    await asyncio.sleep(2.5)
    await first.unsubscribe(story.sorted_ids([temperature, lock_current]))
    await first.get_characteristics([temperature, lamp_on, lock_current])
    await second.close()
    await first.close()


# --- mid-frame -----------------------------------------------------------------------------------------

# A controller with little receive memory: its window closes after a few frames, so a response it stops reading
# stalls halfway, and a capture started then begins inside a frame (Linux doubles SO_RCVBUF for bookkeeping).
SMALL_RECEIVE_BUFFER = 4096
STALL_SECONDS = 0.5
STALL_TIMEOUT = 10.0


def mid_frame_controller(journal: Journal) -> None:
    """Gives every controller socket a small receive buffer, set before it connects (so in its SYN's window)."""
    namespace = connection_module.aiohappyeyeballs
    start_connection = namespace.start_connection

    def small_buffer_socket(addr_info: Any) -> socket.socket:
        family, kind, protocol, _, _ = addr_info
        sock = socket.socket(family, kind, protocol)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, SMALL_RECEIVE_BUFFER)
        return sock

    async def start_small(addr_infos: Any, **kwargs: Any) -> socket.socket:
        return await start_connection(addr_infos, socket_factory=small_buffer_socket, **kwargs)

    namespace.start_connection = start_small


async def stalled(connection: HomeKitConnection, before: int) -> int:
    """Wait until the accessory-to-controller stream has grown past ``before`` and then stopped: the window is shut."""
    sock = connection.transport.get_extra_info("socket")
    deadline = time.monotonic() + STALL_TIMEOUT
    received, steady_since = stream_counters(sock).received, time.monotonic()
    while time.monotonic() < deadline:
        await asyncio.sleep(0.05)
        now = stream_counters(sock).received
        if now != received:
            received, steady_since = now, time.monotonic()
        elif received > before and time.monotonic() - steady_since >= STALL_SECONDS:
            return received
    raise RuntimeError(f"the response did not stall within {STALL_TIMEOUT:.0f} s ({received} bytes received)")


MID_FRAME_LIGHTS = 16


def mid_frame_bridge(driver: AccessoryDriver, name: str) -> Bridge:
    """The demo bridge and 16 lights: an /accessories response of about 18 frames."""
    bridge = accessories.demo_bridge(driver, name)
    for number in range(1, MID_FRAME_LIGHTS + 1):
        bridge.add_accessory(accessories.Lightbulb(driver, f"Light {number:02d}", f"HS-LAMP-{number + 300:04d}"))
    return bridge


async def mid_frame_story(story: Story) -> None:
    """The capture starts while the session's /accessories response is stalled partway by the controller's window."""
    discovery = await story.discover()
    pairing = await story.pair(discovery)
    session = await story.open_session(pairing)
    connection = session.connection
    before = stream_counters(connection.transport.get_extra_info("socket")).received
    connection.transport.pause_reading()
    with story.journal.note("the controller stopped reading: this response stalls in its receive window"):
        listing = asyncio.ensure_future(session.list_accessories_and_characteristics())
        stopped_at = await stalled(connection, before)
    story.journal.observation(
        f"the accessory-to-controller stream stalled at {stopped_at} bytes, {stopped_at - before} of them of the "
        "GET /accessories response, the rest unsent behind a closed receive window"
    )
    story.expect_capture_inside_frame(connection, ACCESSORY_TO_CONTROLLER)
    await story.start_capture([connection])
    connection.transport.resume_reading()
    db = Database(await listing)
    with story.journal.note("inside the capture"):
        await session.get_characteristics(db.readable())
        await session.put_characteristics([(*db.characteristic(f"Light {n:02d}", Types.ON), True) for n in (4, 5)])
    await session.close()


# --- camera --------------------------------------------------------------------------------------------

# Camera RTP Stream Management TLV8 types (HAP-python pyhap/camera.py; HAP-NodeJS src/lib/controller/
# RTPStreamManagement.ts names the same numbers).
SETUP_SESSION_ID, SETUP_STATUS, SETUP_ADDRESS, SETUP_VIDEO_SRTP, SETUP_AUDIO_SRTP, SETUP_VIDEO_SSRC, SETUP_AUDIO_SSRC = 1, 2, 3, 4, 5, 6, 7
ADDRESS_VERSION, ADDRESS_TEXT, ADDRESS_VIDEO_PORT, ADDRESS_AUDIO_PORT = 1, 2, 3, 4
SRTP_SUITE, SRTP_MASTER_KEY, SRTP_MASTER_SALT = 1, 2, 3
AES_CM_128_HMAC_SHA1_80 = 0
SRTP_KEY_BYTES, SRTP_SALT_BYTES = 16, 14  # RFC 3711 §8.2: AES_CM_128 master key 128 bits, master salt 112 bits
SELECTED_SESSION, SELECTED_VIDEO, SELECTED_AUDIO = 1, 2, 3
SESSION_IDENTIFIER, SESSION_COMMAND = 1, 2
COMMAND_END, COMMAND_START = 0, 1
VIDEO_CODEC, VIDEO_CODEC_PARAMETERS, VIDEO_ATTRIBUTES, VIDEO_RTP = 1, 2, 3, 4
H264, H264_PROFILE_MAIN, H264_LEVEL_4_0, NON_INTERLEAVED = 0, 1, 2, 0
PROFILE_ID, LEVEL, PACKETIZATION_MODE = 1, 2, 3
WIDTH, HEIGHT, FRAME_RATE = 1, 2, 3
RTP_PAYLOAD_TYPE, RTP_SSRC, RTP_MAX_BITRATE, RTP_RTCP_INTERVAL, RTP_MAX_MTU, RTP_COMFORT_NOISE_PAYLOAD_TYPE = 1, 2, 3, 4, 5, 6
AUDIO_CODEC, AUDIO_CODEC_PARAMETERS, AUDIO_RTP, AUDIO_COMFORT_NOISE = 1, 2, 3, 4
OPUS, CHANNELS, BITRATE_MODE, SAMPLE_RATE, PACKET_TIME = 3, 1, 2, 3, 4
VARIABLE_BITRATE, SAMPLE_RATE_16_KHZ = 0, 1
VIDEO_PORT, AUDIO_PORT = 51000, 51002


def tlv(*entries: tuple[int, bytes]) -> bytes:
    return tlv8.encode(list(entries))


def setup_endpoints(session_id: bytes, address: str, video: tuple[bytes, bytes], audio: tuple[bytes, bytes]) -> bytes:
    """The controller's Setup Endpoints write: its session, where it wants the streams, and its SRTP master keys."""

    def srtp(key: bytes, salt: bytes) -> bytes:
        return tlv((SRTP_SUITE, bytes([AES_CM_128_HMAC_SHA1_80])), (SRTP_MASTER_KEY, key), (SRTP_MASTER_SALT, salt))

    where = tlv(
        (ADDRESS_VERSION, b"\x00"),
        (ADDRESS_TEXT, address.encode("ascii")),
        (ADDRESS_VIDEO_PORT, struct.pack("<H", VIDEO_PORT)),
        (ADDRESS_AUDIO_PORT, struct.pack("<H", AUDIO_PORT)),
    )
    return tlv((SETUP_SESSION_ID, session_id), (SETUP_ADDRESS, where), (SETUP_VIDEO_SRTP, srtp(*video)), (SETUP_AUDIO_SRTP, srtp(*audio)))


def selected_stream(session_id: bytes, command: int, video_ssrc: int = 0, audio_ssrc: int = 0) -> bytes:
    """A Selected RTP Stream Configuration write: start with H.264 720p30 and Opus 16 kHz, or end the session."""
    session = tlv((SESSION_IDENTIFIER, session_id), (SESSION_COMMAND, bytes([command])))
    if command == COMMAND_END:
        return tlv((SELECTED_SESSION, session))
    video = tlv(
        (VIDEO_CODEC, bytes([H264])),
        (VIDEO_CODEC_PARAMETERS, tlv((PROFILE_ID, bytes([H264_PROFILE_MAIN])), (LEVEL, bytes([H264_LEVEL_4_0])), (PACKETIZATION_MODE, bytes([NON_INTERLEAVED])))),
        (VIDEO_ATTRIBUTES, tlv((WIDTH, struct.pack("<H", 1280)), (HEIGHT, struct.pack("<H", 720)), (FRAME_RATE, bytes([30])))),
        (VIDEO_RTP, tlv((RTP_PAYLOAD_TYPE, bytes([99])), (RTP_SSRC, struct.pack("<I", video_ssrc)), (RTP_MAX_BITRATE, struct.pack("<H", 299)), (RTP_RTCP_INTERVAL, struct.pack("<f", 0.5)), (RTP_MAX_MTU, struct.pack("<H", 1378)))),
    )  # fmt: skip
    audio = tlv(
        (AUDIO_CODEC, bytes([OPUS])),
        (AUDIO_CODEC_PARAMETERS, tlv((CHANNELS, b"\x01"), (BITRATE_MODE, bytes([VARIABLE_BITRATE])), (SAMPLE_RATE, bytes([SAMPLE_RATE_16_KHZ])), (PACKET_TIME, bytes([20])))),
        (AUDIO_RTP, tlv((RTP_PAYLOAD_TYPE, bytes([110])), (RTP_SSRC, struct.pack("<I", audio_ssrc)), (RTP_MAX_BITRATE, struct.pack("<H", 24)), (RTP_RTCP_INTERVAL, struct.pack("<f", 5.0)), (RTP_COMFORT_NOISE_PAYLOAD_TYPE, bytes([13])))),
        (AUDIO_COMFORT_NOISE, b"\x00"),
    )  # fmt: skip
    return tlv((SELECTED_SESSION, session), (SELECTED_VIDEO, video), (SELECTED_AUDIO, audio))


def transition_curve_start(temperature_iid: int, brightness_iid: int, identifier: bytes, identifier3: bytes) -> bytes:
    """A Transition Control write starting an Adaptive Lighting schedule: three curve points over two hours."""
    seconds_since_2001 = 757382400  # 2025-01-01 00:00:00 UTC, in the schedule's epoch (HAP-NodeJS: millis since 2001-01-01)
    parameters = tlv(
        (PARAMETER_ID, identifier), (PARAMETER_START_TIME, struct.pack("<Q", seconds_since_2001 * 1000)), (PARAMETER_ID3, identifier3)
    )
    points = [(-0.9, 250.0, 0, None), (-1.2, 300.0, 3_600_000, 600_000), (-1.5, 370.0, 3_600_000, None)]
    curve: list[tuple[int, bytes]] = []
    for number, (factor, value, offset, duration) in enumerate(points):
        entry = [(ENTRY_ADJUSTMENT_FACTOR, struct.pack("<f", factor)), (ENTRY_VALUE, struct.pack("<f", value)), (ENTRY_TRANSITION_OFFSET, struct.pack("<I", offset))]
        if duration is not None:
            entry.append((ENTRY_DURATION, struct.pack("<I", duration)))
        curve += ([(tlv8.SEPARATOR, b"")] if number else []) + [(CURVE_ENTRY, tlv8.encode(entry))]
    curve += [
        (CURVE_ADJUSTMENT_IID, bytes([brightness_iid])),
        (CURVE_ADJUSTMENT_RANGE, tlv((RANGE_MINIMUM, struct.pack("<I", 10)), (RANGE_MAXIMUM, struct.pack("<I", 100)))),
    ]
    configuration = tlv(
        (CONFIGURATION_IID, bytes([temperature_iid])),
        (CONFIGURATION_PARAMETERS, parameters),
        (CONFIGURATION_ENABLE, b"\x01"),
        (CONFIGURATION_CURVE, tlv8.encode(curve)),
        (CONFIGURATION_UPDATE_INTERVAL, struct.pack("<H", 60_000)),
        (CONFIGURATION_NOTIFY_THRESHOLD, struct.pack("<I", 600_000)),
    )
    return tlv((TRANSITION_UPDATE, tlv((VALUE_TRANSITION_CONFIGURATION, configuration))))


def transition_stop(temperature_iid: int) -> bytes:
    return tlv((TRANSITION_UPDATE, tlv((VALUE_TRANSITION_CONFIGURATION, tlv((CONFIGURATION_IID, bytes([temperature_iid])))))))


async def write_with_response(session: Any, aid: int, iid: int, value: str) -> dict[str, Any]:
    """A write with ``"r": true`` (aiohomekit's put_characteristics cannot ask for a write response)."""
    return await session.connection.put_json("/characteristics", {"characteristics": [{"aid": aid, "iid": iid, "value": value, "r": True}]})


async def camera_story(story: Story) -> None:
    """Read a camera's stream configurations, set up endpoints with SRTP keys, start and end a stream; run an
    Adaptive Lighting schedule on a lamp."""
    discovery = await story.discover()
    pairing = await story.pair(discovery)
    session = await story.open_session(pairing)
    db = Database(await session.list_accessories_and_characteristics())

    def char(kind: str) -> tuple[int, int]:
        return db.characteristic("Porch Camera", kind)

    video, audio, rtp = char(Types.SUPPORTED_VIDEO_STREAM_CONFIGURATION), char(Types.SUPPORTED_AUDIO_CONFIGURATION), char(Types.SUPPORTED_RTP_CONFIGURATION)
    status, endpoints, selected = char(Types.STREAMING_STATUS), char(Types.SETUP_ENDPOINTS), char(Types.SELECTED_RTP_STREAM_CONFIGURATION)
    ids = ",".join(f"{aid}.{iid}" for aid, iid in (video, audio, rtp, status))
    await session.connection.get_json(f"/characteristics?id={ids}&meta=1&perms=1&type=1")

    session_id = seeded_uuid4(story.randomness, "camera-session")().bytes
    keys = [(story.randomness.bytes(f"srtp-{kind}-key", SRTP_KEY_BYTES), story.randomness.bytes(f"srtp-{kind}-salt", SRTP_SALT_BYTES)) for kind in ("video", "audio")]
    with story.journal.note("Setup Endpoints: the controller's session, address and SRTP master keys and salts"):
        await session.put_characteristics([(*endpoints, b64(setup_endpoints(session_id, "10.77.0.1", *keys)))])
    answer = (await session.get_characteristics([endpoints]))[endpoints]["value"]
    setup = tlv8.decode(base64.b64decode(answer))
    video_ssrc, audio_ssrc = (struct.unpack("<I", setup[kind])[0] for kind in (SETUP_VIDEO_SSRC, SETUP_AUDIO_SSRC))
    story.journal.observation(
        f"the camera answered Setup Endpoints with status {setup[SETUP_STATUS].hex()}, video SSRC {video_ssrc}, "
        f"audio SSRC {audio_ssrc}, and echoed the SRTP parameters: {setup[SETUP_VIDEO_SRTP] == tlv8.decode(setup_endpoints(session_id, '10.77.0.1', *keys))[SETUP_VIDEO_SRTP]}"
    )
    with story.journal.note("Selected RTP Stream Configuration: start"):
        await session.put_characteristics([(*selected, b64(selected_stream(session_id, COMMAND_START, video_ssrc, audio_ssrc)))])
    await asyncio.sleep(0.5)  # HAP-python starts the stream in a job after the write
    await session.get_characteristics([status, selected])
    with story.journal.note("Selected RTP Stream Configuration: end the session"):
        await session.put_characteristics([(*selected, b64(selected_stream(session_id, COMMAND_END)))])
    await asyncio.sleep(0.5)
    await session.get_characteristics([status])

    lamp = "Hall Light"
    supported = db.characteristic(lamp, Types.SUPPORTED_CHARACTERISTIC_VALUE_TRANSITION_CONFIGURATION)
    control = db.characteristic(lamp, Types.CHARACTERISTIC_VALUE_TRANSITION_CONTROL)
    active = db.characteristic(lamp, Types.CHARACTERISTIC_VALUE_ACTIVE_TRANSITION_COUNT)
    temperature, brightness = db.characteristic(lamp, Types.COLOR_TEMPERATURE), db.characteristic(lamp, Types.BRIGHTNESS)
    await session.get_characteristics([supported, control, active])
    await session.subscribe([active])
    start = transition_curve_start(temperature[1], brightness[1], story.randomness.bytes("transition-id", 16), story.randomness.bytes("transition-id3", 8))
    with story.journal.note("Transition Control: start an Adaptive Lighting schedule, with a write response"):
        await write_with_response(session, *control, b64(start))
    await asyncio.sleep(0.8)  # the Active Transition Count EVENT (HAP-python coalesces for 0.5 s)
    await session.get_characteristics([control, active])
    with story.journal.note("Transition Control: stop the schedule"):
        await write_with_response(session, *control, b64(transition_stop(temperature[1])))
    await asyncio.sleep(0.8)
    await session.unsubscribe([active])
    await session.close()


# --- slow-accessory ------------------------------------------------------------------------------------

# Read handlers that answer late (seconds) or never (None), by accessory and characteristic.
LATE_READS = {
    ("Hallway Thermostat", "CurrentTemperature"): 1.5,
    ("Coffee Maker", "OutletInUse"): 4.0,
    ("Front Door", "LockCurrentState"): 9.0,
    ("Desk Lamp", "Brightness"): None,
}
SLOW_AFTER_SECONDS = 3.0  # rules.SLOW_RESPONSE_SECONDS, the mark the reads are placed around


def slow_accessory(driver: AccessoryDriver, journal: Journal) -> None:
    """Holds some read responses back (1.5 s, 4 s, 9 s, for ever); a bridged sensor is unreachable (-70402)."""
    saboteur = Saboteur(driver, journal)
    late = {}
    for (name, characteristic), delay in LATE_READS.items():
        accessory, iid, _ = find_characteristic(driver, name, characteristic)
        late[(accessory.aid, iid)] = (f"{name} {characteristic}", delay)
    contact, contact_iid, _ = find_characteristic(driver, "Garage Door Contact", "ContactSensorState")

    def misbehave(request: Request, response: HAPResponse) -> None:
        if request.command != "GET" or request.path != "/characteristics":
            return
        asked = ids_of(request.target)
        if (contact.aid, contact_iid) in asked:
            saboteur.misbehaviour(
                "service-communication-failure",
                request.client,
                f"{request.describe()} reads {ident(contact, contact_iid)} (Garage Door Contact ContactSensorState), a "
                f"bridged accessory the bridge cannot reach (available false): HAP-python answered HTTP "
                f"{response.status_code} with status -70402 for it: {response.body.decode()}",
            )
        held = [late[key] for key in asked if key in late]
        if not held:
            return
        (what, delay), = held
        answer_later(response, delay)
        if delay is None:
            saboteur.misbehaviour(
                "unanswered-request",
                request.client,
                f"{request.describe()} ({what}) is never answered: its read handler does not return",
            )
        elif delay > SLOW_AFTER_SECONDS:
            saboteur.misbehaviour(
                "slow-response",
                request.client,
                f"{request.describe()} ({what}) is answered {delay} s after it arrived (its read handler is slow)",
            )
        else:
            journal.observation(
                f"{request.describe()} on {request.client} ({what}) is answered {delay} s late, under the {SLOW_AFTER_SECONDS} s "
                "slow-response mark: no finding"
            )

    saboteur.on_response(misbehave)


async def slow_accessory_story(story: Story) -> None:
    discovery = await story.discover()
    pairing = await story.pair(discovery)
    first = await story.open_session(pairing)
    db = Database(await first.list_accessories_and_characteristics())
    lamp_on = db.characteristic("Desk Lamp", Types.ON)
    contact = db.characteristic("Garage Door Contact", Types.CONTACT_STATE)
    await first.get_characteristics([lamp_on])
    await first.get_characteristics([db.characteristic("Hallway Thermostat", Types.TEMPERATURE_CURRENT)])
    await first.get_characteristics([lamp_on, contact])
    await first.close()

    second = await story.open_session(pairing)
    await second.get_characteristics([db.characteristic("Coffee Maker", Types.OUTLET_IN_USE)])
    await second.get_characteristics([db.characteristic("Front Door", Types.LOCK_MECHANISM_CURRENT_STATE)])
    await second.get_characteristics([lamp_on])
    await second.close()

    third = await story.open_session(pairing)
    await third.list_accessories_and_characteristics()
    started = asyncio.get_running_loop().time()
    client = story.client_of(third.connection)
    try:
        await third.get_characteristics([db.characteristic("Desk Lamp", Types.BRIGHTNESS)])
    except AccessoryDisconnectedError as error:
        waited = asyncio.get_running_loop().time() - started
        story.journal.misbehaviour(
            "closed-with-outstanding-requests",
            client,
            f"aiohomekit gave up on the unanswered read after {waited:.1f} s (its 30 s request timeout) and shut the "
            f"connection, FIN first, with the request outstanding ({type(error).__name__}: {error})",
        )
    else:
        raise RuntimeError("the read that is never answered was answered")
    await third.close()


# --- event-storm ---------------------------------------------------------------------------------------

STORM_EVENTS = 25
STORM_INTERVAL_SECONDS = 0.04
DELAYED_READ_SECONDS = 1.0
EVENT_DURING_READ_SECONDS = 0.3
EVENT_AFTER_UNSUBSCRIBE_SECONDS = 0.3


def event_storm_accessory(driver: AccessoryDriver, journal: Journal) -> None:
    """No event coalescing; an EVENT while a read is held back; an EVENT after the controller unsubscribed."""
    saboteur = Saboteur(driver, journal)
    # HAP-python coalesces EVENTs for 0.5 s (pyhap/hap_protocol.py EVENT_COALESCE_TIME_WINDOW, read at every
    # queue_event): with 0 every change goes out on its own at the next turn of the loop.
    pyhap.hap_protocol.EVENT_COALESCE_TIME_WINDOW = 0.0
    lamp, lamp_on_iid, _ = find_characteristic(driver, "Desk Lamp", "On")
    sensor, level_iid, level = find_characteristic(driver, "Hall Light Sensor", "CurrentAmbientLightLevel")
    detector, motion_iid, motion = find_characteristic(driver, "Hall Motion", "MotionDetected")
    thermostat, thermostat_iid, _ = find_characteristic(driver, "Hallway Thermostat", "CurrentTemperature")

    async def storm(client: str) -> None:
        started = time.monotonic()
        for step in range(STORM_EVENTS):
            level.set_value(20.0 + 40.0 * (step + 1))
            await asyncio.sleep(STORM_INTERVAL_SECONDS)
        saboteur.misbehaviour(
            "event-burst",
            client,
            f"with HAP-python's 0.5 s event coalescing patched out, the Hall Light Sensor's CurrentAmbientLightLevel "
            f"({ident(sensor, level_iid)}) changed {STORM_EVENTS} times in {time.monotonic() - started:.2f} s after the Desk "
            f"Lamp was switched on, each change its own EVENT ({STORM_EVENTS} EVENTs; HAP asks for at most one a second)",
        )

    def misbehave(request: Request, response: HAPResponse) -> None:
        if request.command == "PUT" and request.path == "/characteristics":
            for entry in json.loads(request.body)["characteristics"]:
                key = (entry["aid"], entry["iid"])
                if key == (lamp.aid, lamp_on_iid) and entry.get("value") in (True, 1):
                    asyncio.ensure_future(storm(request.client))
                if key == (detector.aid, motion_iid) and entry.get("ev") is False:
                    forged = create_hap_event([{"aid": detector.aid, "iid": motion_iid, "value": False}])
                    motion.value = False
                    saboteur.write_later(request.protocol, EVENT_AFTER_UNSUBSCRIBE_SECONDS, forged)
                    saboteur.misbehaviour(
                        "event-after-unsubscribe",
                        request.client,
                        f"{EVENT_AFTER_UNSUBSCRIBE_SECONDS} s after answering the controller's ev false for "
                        f"{ident(detector, motion_iid)} (Hall Motion MotionDetected) the accessory sends an EVENT for it "
                        "anyway (written past HAP-python's subscription check)",
                    )
        if request.command == "GET" and request.path == "/characteristics" and (thermostat.aid, thermostat_iid) in ids_of(request.target):
            answer_later(response, DELAYED_READ_SECONDS)
            asyncio.get_running_loop().call_later(EVENT_DURING_READ_SECONDS, motion.set_value, True)
            saboteur.misbehaviour(
                "event-inside-response",
                request.client,
                f"{request.describe()} is answered {DELAYED_READ_SECONDS} s after it arrived, and "
                f"{EVENT_DURING_READ_SECONDS} s after it arrived the accessory sends an EVENT for "
                f"{ident(detector, motion_iid)} (Hall Motion MotionDetected true) on the same connection: an EVENT "
                "while a request is outstanding",
            )

    saboteur.on_response(misbehave)


async def event_storm_story(story: Story) -> None:
    discovery = await story.discover()
    pairing = await story.pair(discovery)
    session = await story.open_session(pairing)
    db = Database(await session.list_accessories_and_characteristics())
    level = db.characteristic("Hall Light Sensor", Types.LIGHT_LEVEL_CURRENT)
    motion = db.characteristic("Hall Motion", Types.MOTION_DETECTED)
    await session.subscribe(story.sorted_ids([level, motion]))
    await session.put_characteristics([(*db.characteristic("Desk Lamp", Types.ON), True)])
    await asyncio.sleep(STORM_EVENTS * STORM_INTERVAL_SECONDS + 1.0)
    await session.get_characteristics([db.characteristic("Hallway Thermostat", Types.TEMPERATURE_CURRENT)])
    await session.unsubscribe([motion])
    await asyncio.sleep(EVENT_AFTER_UNSUBSCRIBE_SECONDS + 0.7)
    await session.get_characteristics([level, motion])
    await session.close()


# --- long-session --------------------------------------------------------------------------------------

LONG_SESSION_MINUTES = 4


async def long_session_story(story: Story) -> None:
    """Minutes of one session: a temperature EVENT a second, a read every 10 s, writes and lock changes."""
    discovery = await story.discover()
    pairing = await story.pair(discovery)
    session = await story.open_session(pairing)
    db = Database(await session.list_accessories_and_characteristics())
    lamp_on = db.characteristic("Desk Lamp", Types.ON)
    temperature = db.characteristic("Living Room Sensor", Types.TEMPERATURE_CURRENT)
    lock_current = db.characteristic("Front Door", Types.LOCK_MECHANISM_CURRENT_STATE)
    lock_target = db.characteristic("Front Door", Types.LOCK_MECHANISM_TARGET_STATE)
    outlet_on = db.characteristic("Coffee Maker", Types.ON)
    await session.subscribe(story.sorted_ids([temperature, lock_current]))
    for tick in range(LONG_SESSION_MINUTES * 6):
        await asyncio.sleep(10.0)
        await session.get_characteristics([lamp_on, outlet_on, lock_current])
        if tick % 3 == 2:
            await session.put_characteristics([(*outlet_on, tick % 2 == 0)])
        if tick % 6 == 5:
            await session.put_characteristics([(*lock_target, (tick // 6) % 2)])
    await session.unsubscribe([temperature, lock_current])
    await session.close()


# --- the scenarios -------------------------------------------------------------------------------------

REAL_HOME_NOTE = (
    "one of the 'captures as they come from a real home' (issue 15): see captures/README.md for what it is for"
)

SCENARIOS = (
    Scenario(
        name="mid-session",
        description=(
            "tcpdump starts only after pair-setup, pair-verify and GET /accessories, while a session is encrypted and "
            "quiet: the capture holds that session from the middle (reads, writes, subscriptions, EVENTs) and a second "
            "session that pair-verifies inside it and whose write is notified on the first."
        ),
        seed=MID_SESSION_SEED,
        accessory_name=BRIDGE_NAME,
        build_accessory=accessories.demo_bridge,
        story=mid_session_story,
        capture_on_request=True,
        notes=(REAL_HOME_NOTE,),
    ),
    Scenario(
        name="mid-frame",
        description=(
            "Right after pair-verify the controller stops reading while the 18 KB GET /accessories response of a bridge "
            "with 16 more lights is on its way; its small receive window stalls the response, and tcpdump starts then: "
            "the first captured accessory-to-controller segment starts inside a frame. Then a read of every readable "
            "characteristic and a write."
        ),
        seed=MID_FRAME_SEED,
        accessory_name=BRIDGE_NAME,
        build_accessory=mid_frame_bridge,
        story=mid_frame_story,
        capture_on_request=True,
        controller_hook=mid_frame_controller,
        notes=(
            REAL_HOME_NOTE,
            f"the controller's sockets have SO_RCVBUF {SMALL_RECEIVE_BUFFER} (set before connecting), a controller "
            "with little memory",
        ),
    ),
    Scenario(
        name="camera",
        description=(
            "A bridge with a HAP-python camera (stream start and stop do not run ffmpeg) and an Adaptive Lighting lamp: "
            "the supported video, audio and RTP configurations and the streaming status are read, Setup Endpoints is "
            "written with SRTP master keys and read back, a stream is started and ended; a Transition Control schedule "
            "is written with a write response and stopped."
        ),
        seed=CAMERA_SEED,
        accessory_name="hapscope Camera Bridge",
        build_accessory=camera_bridge,
        story=camera_story,
        accessory_hook=camera_accessory,
        notes=(
            REAL_HOME_NOTE,
            "the Adaptive Lighting TLV8 structures (Supported Transition Configuration, Transition Control and its write "
            "response) follow HAP-NodeJS's reverse-engineered AdaptiveLightingController; both sides of that exchange "
            "are the toolkit's (HAP-python defines the characteristics but does not drive them)",
        ),
    ),
    Scenario(
        name="slow-accessory",
        description=(
            "Read handlers answer late (1.5 s; 4 s and 9 s) and one never, so aiohomekit gives up after 30 s and closes "
            "the connection with the read outstanding; a bridged accessory the bridge cannot reach is answered -70402."
        ),
        seed=SLOW_SEED,
        accessory_name="hapscope Slow Bridge",
        build_accessory=slow_bridge,
        story=slow_accessory_story,
        accessory_hook=slow_accessory,
        notes=(MISBEHAVING_NOTE, REAL_HOME_NOTE),
    ),
    Scenario(
        name="event-storm",
        description=(
            "With HAP-python's event coalescing patched out, a light sensor sends 25 EVENTs in one second; an EVENT "
            "arrives while a read is held back for a second; an EVENT follows the controller's unsubscribe."
        ),
        seed=STORM_SEED,
        accessory_name="hapscope Storm Bridge",
        build_accessory=storm_bridge,
        story=event_storm_story,
        accessory_hook=event_storm_accessory,
        notes=(MISBEHAVING_NOTE, REAL_HOME_NOTE),
    ),
    Scenario(
        name="long-session",
        description=(
            f"{LONG_SESSION_MINUTES} minutes of one verified session on the demo bridge: a temperature EVENT about every "
            "second, a read every 10 s, outlet writes and lock changes (notified back)."
        ),
        seed=LONG_SEED,
        accessory_name=BRIDGE_NAME,
        build_accessory=accessories.demo_bridge,
        story=long_session_story,
        time_limit=LONG_SESSION_MINUTES * 60 + 60.0,
        notes=(REAL_HOME_NOTE,),
    ),
)
