// HAPJSON: placeholder until the module lands.
