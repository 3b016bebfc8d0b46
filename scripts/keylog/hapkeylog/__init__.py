"""hapkeylog: key-log exporters that make HAP stacks write hapscope's key log (docs/keylog.md).

One module per stack, each usable as ``python -m hapkeylog.<stack> --keylog FILE PROGRAM ...`` or
as ``import hapkeylog.<stack>`` with HAPKEYLOGFILE set:

- `hapkeylog.pyhap`: HAP-python accessories
- `hapkeylog.aiohomekit`: aiohomekit controllers (Home Assistant's HomeKit Controller, aiohomekitctl)
- `hapkeylog.homekit`: homekit_python, its accessory server and its controller
- `hapkeylog.adk`: a converter from HomeKitADK's sensitive debug log to the key log
"""
