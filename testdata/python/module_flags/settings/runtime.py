# expected-no-diagnostics
debug_nan: bool = False
verbose = False
