# expected-no-diagnostics
# The accelerator object is a global set on first use: what get_accelerator()
# returns is what its module's code builds there.
ds_accelerator = None


def set_accelerator(accel_obj):
    global ds_accelerator
    ds_accelerator = accel_obj


def get_accelerator():
    global ds_accelerator
    if ds_accelerator is not None:
        return ds_accelerator
    from .cuda_accelerator import CudaAccelerator

    ds_accelerator = CudaAccelerator()
    return ds_accelerator
