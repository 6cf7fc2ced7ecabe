"""Large arrays a kernel allocates, on huge pages where the system offers them.

Numba's allocator maps a large array in 4 KB pages, each faulted in on first write; numpy
asks Linux for transparent huge pages on arrays of 4 MB and more (``madvise``), which fault
in 512 times fewer pages, and on two threads do not queue on the kernel's lock of the
process's memory map page after page. :func:`advise_huge_pages` asks the same for an array a
kernel allocated; elsewhere it does nothing.
"""

import sys

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from fastdou.kernels.jit import leaf

_MADV_HUGEPAGE = 14        # Linux's <sys/mman.h>
_PAGE = 4096
_LARGE = 1 << 22           # numpy's threshold


@intrinsic
def _madvise(typingctx, address, length):
    """``madvise(address, length, MADV_HUGEPAGE)`` on Linux (its result ignored: the advice
    is only a hint); nothing elsewhere."""
    sig = types.void(types.uintp, types.uintp)

    def codegen(context, builder, signature, args):
        if sys.platform.startswith("linux"):
            size_t = context.get_value_type(types.uintp)
            fnty = ir.FunctionType(ir.IntType(32), [ir.IntType(8).as_pointer(), size_t,
                                                    ir.IntType(32)])
            fn = cgutils.get_or_insert_function(builder.module, fnty, "madvise")
            builder.call(fn, [builder.inttoptr(args[0], ir.IntType(8).as_pointer()), args[1],
                              ir.Constant(ir.IntType(32), _MADV_HUGEPAGE)])
        return context.get_dummy_value()

    return sig, codegen


@leaf
def advise_huge_pages(array):
    """Ask for huge pages under a C-contiguous ``array`` of 4 MB or more that nothing has
    written yet (the whole 4 KB pages it spans)."""
    if array.nbytes >= _LARGE:
        start, page = np.uint64(array.ctypes.data), np.uint64(_PAGE)
        skip = (page - start % page) % page       # unsigned throughout: no float promotion
        _madvise(start + skip, np.uint64(array.nbytes) - skip)
