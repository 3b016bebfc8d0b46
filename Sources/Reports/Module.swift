// Reports: placeholder until the module lands.
