"""hapcapture: records real HAP traffic between HAP-python (accessory) and aiohomekit (controller).

Each scenario runs the two libraries in their own network namespaces, captures the wire with tcpdump or
dumpcap, and writes three files side by side in ``captures/``: the packet capture, a key log in
hapscope's format, and a ``.truth.json`` holding what the peers themselves did (every HTTP message as
each side wrote it, pairings, advertisements, keys). The libraries are instrumented at run time only;
their installed files are never edited.
"""
