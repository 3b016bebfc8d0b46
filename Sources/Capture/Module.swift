// Capture: placeholder until the module lands.
