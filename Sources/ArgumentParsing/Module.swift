// ArgumentParsing: placeholder until the module lands.
