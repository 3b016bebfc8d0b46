// TLV8: placeholder until the module lands.
