print("hapscope: under construction")
