# expected-no-diagnostics
