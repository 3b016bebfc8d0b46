// Audit: placeholder until the module lands.
