# expected-no-diagnostics
# A project module that has a standard library module's name (a polyfill).
# `import functools` anywhere else is the library's: nothing here runs under
# the captures in train.py, whose `functools.reduce` would otherwise reach it.


def reduce(function, sequence, initial=None):
    acc = initial
    for element in sequence:
        acc = function(acc, element)
    return acc.sum().item()
