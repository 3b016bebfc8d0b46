print("hapbench: under construction")
