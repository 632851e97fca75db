# expected-no-diagnostics
# Switches a user sets before building anything (`runtime.debug_nan = True`);
# no analysed code sets them, so they hold what this module binds.
debug_nan: bool = False
verbose = False
