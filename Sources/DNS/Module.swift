// DNS: placeholder until the module lands.
