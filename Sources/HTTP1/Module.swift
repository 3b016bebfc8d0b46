// HTTP1: placeholder until the module lands.
