# A program's own sitecustomize, which graphcheck's shim must not hide.
import builtins

builtins.GRAPHSAFE_USER_SITECUSTOMIZE_RAN = True
