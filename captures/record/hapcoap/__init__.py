"""hapcoap: records HAP over CoAP (the Thread transport) between aiohomekit and a toolkit accessory.

No open HAP-over-CoAP accessory exists, so this package writes one on aiocoap (``accessory.py``), with its
HAP cryptography from ``cryptography`` and its PDU layout from HomeKitADK's HAP-BLE sources and aiohomekit's
CoAP controller, and lets aiohomekit's CoAP controller, used unmodified, judge it. Each scenario runs the
two peers in their own network namespaces over IPv6, captures the wire with tcpdump, and writes three
files side by side in ``captures/coap/``: the packet capture, a key log in hapscope's format, and a
``.truth.json`` holding what the peers themselves sent (every CoAP message, every HAP PDU in plaintext,
pairings, advertisements, keys). aiohomekit and aiocoap are instrumented at run time only.
"""
