"""Recording rig for HAP over Bluetooth LE: a HAP-BLE accessory written here on Bumble's GATT server,
aiohomekit's BLE controller (unmodified) over a bleak backend on Bumble's central role, both on one
Bumble LocalLink in user space, every HCI packet written by Bumble's snoopers (pcap and btsnoop).

Facts about HAP-BLE are cited from apple/HomeKitADK (HAP/HAPBLE*.c, HAPPDU.h, HAPPairing*.c) and
from aiohomekit 4.0.1 (controller/ble/*, pdu.py); no code of either is copied, and the accessory
shares no HAP code with aiohomekit (its crypto comes from `cryptography` and SRP on Python ints).
"""
