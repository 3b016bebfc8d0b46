print("hapbench: benchmarks land with the benchmark suite")
