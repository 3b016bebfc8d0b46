"""The building blocks of the misbehaving scenarios that work without a running accessory."""

import unittest

import zeroconf
from zeroconf.const import _CLASS_IN, _CLASS_UNIQUE, _FLAGS_AA, _FLAGS_QR_RESPONSE, _TYPE_A, _TYPE_SRV, _TYPE_TXT

from hapcapture.faults import rebuild_response
from hapcapture.instrument_accessory import txt_properties
from hapcapture.misbehaving import setup_hash, txt_wire

SERVICE = "hapscope Bridge 4D5E6F._hap._tcp.local."
HOST = "hapscope-Bridge-4D5E6F.local."


def announcement() -> zeroconf.DNSIncoming:
    out = zeroconf.DNSOutgoing(_FLAGS_QR_RESPONSE | _FLAGS_AA)
    unique = _CLASS_IN | _CLASS_UNIQUE
    out.add_answer_at_time(zeroconf.DNSService(SERVICE, _TYPE_SRV, unique, 120, 0, 0, 51826, HOST), 0)
    out.add_answer_at_time(zeroconf.DNSText(SERVICE, _TYPE_TXT, unique, 4500, txt_wire({"id": "1A:2B:3C:4D:5E:6F"})), 0)
    out.add_answer_at_time(zeroconf.DNSAddress(HOST, _TYPE_A, unique, 120, bytes([10, 77, 0, 2])), 0)
    (packet,) = out.packets()
    return zeroconf.DNSIncoming(packet)


class SetupHashTests(unittest.TestCase):
    def test_the_adk_test_vector_hashes_as_published(self):
        # PROTOCOL.md §7: setup ID 7OSX with device ID E1:91:1A:70:85:AA gives yf4bzw==.
        self.assertEqual(setup_hash("7OSX", "E1:91:1A:70:85:AA"), "yf4bzw==")


class TxtWireTests(unittest.TestCase):
    def test_properties_survive_a_round_trip_in_order(self):
        properties = {"c#": "2", "id": "hapscope-4D5E6F", "pv": "1", "ci": "99"}
        self.assertEqual(list(txt_properties(txt_wire(properties)).items()), list(properties.items()))


class RebuildResponseTests(unittest.TestCase):
    def test_a_rebuilt_announcement_carries_exactly_the_records_kept(self):
        original = announcement()
        kept = [record for record in original.answers() if record.type != _TYPE_A]
        rebuilt = zeroconf.DNSIncoming(rebuild_response(original, kept))
        self.assertTrue(rebuilt.is_response())
        self.assertEqual(sorted(type(record).__name__ for record in rebuilt.answers()), ["DNSService", "DNSText"])

    def test_the_cache_flush_bit_is_kept(self):
        original = announcement()
        rebuilt = zeroconf.DNSIncoming(rebuild_response(original, original.answers()))
        self.assertTrue(all(record.unique for record in rebuilt.answers()))


if __name__ == "__main__":
    unittest.main()
