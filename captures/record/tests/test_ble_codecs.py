"""The HAP-BLE codecs of captures/record/hapble: PDU fragments, TLV8, advertisements, crypto."""

import unittest

from hapble import adv, crypto, pdu, tlv
from hapble.database import lamp, uuid_wire_bytes


class PduFragmentsTests(unittest.TestCase):
    def test_a_request_without_body_has_no_length_field(self):
        self.assertEqual(pdu.fragment_request(pdu.Request(0x03, 0x2A, 50), 20), [bytes.fromhex("00032a3200")])

    def test_a_long_request_splits_into_a_first_fragment_and_continuations(self):
        body = bytes(range(40))
        fragments = pdu.fragment_request(pdu.Request(0x02, 7, 0x0134, body), 20)
        self.assertEqual(fragments[0][:7], bytes.fromhex("00020734012800"))
        self.assertEqual([len(f) for f in fragments], [20, 20, 11])
        self.assertTrue(all(f[:2] == b"\x80\x07" for f in fragments[1:]))
        reassembler = pdu.Reassembler(pdu.TYPE_REQUEST)
        for fragment in fragments:
            reassembler.add(fragment)
        self.assertEqual(reassembler.pdu(), pdu.Request(0x02, 7, 0x0134, body))

    def test_a_response_reassembles_with_status_and_body(self):
        response = pdu.Response(9, pdu.STATUS_SUCCESS, b"\x01\x01\x01")
        (fragment,) = pdu.fragment_response(response, 100)
        self.assertEqual(fragment, bytes.fromhex("0209000300010101"))
        reassembler = pdu.Reassembler(pdu.TYPE_RESPONSE)
        reassembler.add(fragment)
        self.assertEqual(reassembler.pdu(), response)

    def test_a_continuation_with_another_tid_is_rejected(self):
        fragments = pdu.fragment_response(pdu.Response(9, 0, bytes(30)), 16)
        reassembler = pdu.Reassembler(pdu.TYPE_RESPONSE)
        reassembler.add(fragments[0])
        with self.assertRaises(pdu.ReassemblyError):
            reassembler.add(b"\x82\x0a" + fragments[1][2:])

    def test_reserved_control_bits_are_rejected(self):
        with self.assertRaises(pdu.ReassemblyError):
            pdu.Reassembler(pdu.TYPE_REQUEST).add(bytes.fromhex("10032a3200"))


class TlvTests(unittest.TestCase):
    def test_values_over_255_bytes_split_and_join(self):
        encoded = tlv.encode([(tlv.PUBLIC_KEY, bytes(384)), (tlv.STATE, b"\x02")])
        self.assertEqual(encoded[:2], b"\x03\xff")
        self.assertEqual(encoded[257:259], b"\x03\x81")
        self.assertEqual(tlv.decode(encoded), {tlv.PUBLIC_KEY: bytes(384), tlv.STATE: b"\x02"})

    def test_an_empty_value_is_a_zero_length_item(self):
        self.assertEqual(tlv.encode([(tlv.PARAM_VALUE, b"")]), b"\x01\x00")

    def test_a_truncated_item_is_an_error(self):
        with self.assertRaises(ValueError):
            tlv.decode(b"\x01\x05ab")

    def test_linked_services_are_one_item_of_uint16_values(self):
        database = lamp()
        database.services[3].linked = [64, 80]
        self.assertEqual(database.services[3].signature(), bytes.fromhex("0f02010010044000" "5000"))

    def test_uuids_go_little_endian_in_signatures(self):
        self.assertEqual(uuid_wire_bytes("00000025-0000-1000-8000-0026BB765291"),
                         bytes.fromhex("9152 76bb 2600 0080 0010 0000 2500 0000".replace(" ", "")))


class AdvertisementTests(unittest.TestCase):
    def test_regular_advertisement_layout(self):
        data = adv.regular(paired=False, device_id="1A:2B:3C:4D:5E:6F", category=5, gsn=2, config_number=1, setup_id="HSCP")
        self.assertEqual(data[:15].hex(), "0631011a2b3c4d5e6f050002000102")
        fields = adv.decode(data)
        self.assertEqual((fields["statusFlags"], fields["category"], fields["gsn"], fields["configNumber"]), (1, 5, 2, 1))
        self.assertEqual(fields["setupHash"], "YHi/lA==")  # the IP corpus's sh for HSCP + 1A:2B:3C:4D:5E:6F

    def test_config_number_wraps_into_1_to_255(self):
        data = adv.regular(paired=True, device_id="1A:2B:3C:4D:5E:6F", category=5, gsn=1, config_number=256, setup_id=None)
        self.assertEqual(adv.decode(data)["configNumber"], 1)
        self.assertIsNone(adv.decode(data)["setupHash"])

    def test_encrypted_notification_round_trip(self):
        key, advertising_id = bytes(range(32)), bytes.fromhex("1a2b3c4d5e6f")
        plaintext = adv.notification_plaintext(7, 51, b"\x41\x00\x00\x00")
        payload = crypto.seal_broadcast(key, 7, advertising_id, plaintext)
        self.assertEqual(len(payload), 16)
        data = adv.encrypted_notification(advertising_id, payload)
        self.assertEqual(adv.decode(data)["type"], "encrypted-notification")
        self.assertEqual(crypto.open_broadcast(key, 7, advertising_id, payload), plaintext)
        self.assertIsNone(crypto.open_broadcast(key, 8, advertising_id, payload))

    def test_ad_structures_shorten_a_long_name(self):
        data = adv.ad_structures(bytes(19), "hapscope BLE Lamp")
        self.assertLessEqual(len(data), 31)
        self.assertEqual(data[-5:-3], b"\x04\x08")  # Shortened Local Name, 3 bytes


class CryptoTests(unittest.TestCase):
    def test_srp_proofs_agree_with_a_client_computed_from_the_same_numbers(self):
        server = crypto.SrpServer("031-45-154", bytes(16), bytes(range(32)))
        a = 0x1234567
        public_a = pow(crypto.G, a, crypto.N_3072)
        u = int.from_bytes(crypto.sha512(crypto.to_bytes(public_a), server.public_b_bytes), "big")
        x = int.from_bytes(crypto.sha512(bytes(16), crypto.sha512(b"Pair-Setup:031-45-154")), "big")
        shared = pow(server.public_b - server.k * pow(crypto.G, x, crypto.N_3072), a + u * x, crypto.N_3072)
        self.assertEqual(server.process_a(crypto.to_bytes(public_a)), crypto.sha512(crypto.to_bytes(shared)))

    def test_srp_rejects_a_zero_public_key(self):
        with self.assertRaises(ValueError):
            crypto.SrpServer("031-45-154", bytes(16), bytes(32)).process_a(crypto.to_bytes(crypto.N_3072))

    def test_counter_nonces_are_little_endian_after_four_zero_bytes(self):
        self.assertEqual(crypto.nonce_counter(1).hex(), "000000000100000000000000")


if __name__ == "__main__":
    unittest.main()
