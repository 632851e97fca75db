"""graphsafe's tools, installed into a Python environment.

`pip install .` builds graphcheck (and graphlint where LLVM 19 is present)
against the torch of the environment it runs in; the console scripts
`graphcheck` and `graphlint` run the binaries kept in this package's `_root`.
"""
