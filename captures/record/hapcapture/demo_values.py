"""The demo bridge's fixed values, shared by its HAP-python (``accessories.py``) and homekit_python (``homekitpy.py``)
builds, so that both libraries serve the same names, readings and states. No HAP library is imported here.
"""

MANUFACTURER = "hapscope"
FIRMWARE_REVISION = "1.0.0"
LOCK_UNSECURED, LOCK_SECURED = 0, 1
# The temperature sensor steps through these, one step per interval.
TEMPERATURE_READINGS = (21.0, 21.5, 22.0, 22.5, 23.0, 22.5, 22.0, 21.5)
