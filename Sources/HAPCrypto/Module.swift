// HAPCrypto: placeholder until the module lands.
