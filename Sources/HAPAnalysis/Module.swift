// HAPAnalysis: placeholder until the module lands.
