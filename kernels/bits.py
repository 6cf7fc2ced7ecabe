"""Bit tricks for the kernels: rank masks and LLVM's count-trailing/leading-zeros."""

from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from fastdou.kernels.jit import kernel


@intrinsic
def lowest_bit(typingctx, x):
    """Index of the lowest set bit of a non-zero int64 (LLVM ``cttz``)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return x(x), codegen


@intrinsic
def _ctlz(typingctx, x):
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))

    return x(x), codegen


@kernel
def highest_bit(x):
    """Index of the highest set bit of a non-zero int64."""
    return 63 - _ctlz(x)


@kernel
def span(lo, hi):
    """The mask of bits lo..hi (empty when hi < lo)."""
    if hi < lo:
        return 0
    return ((1 << (hi - lo + 1)) - 1) << lo
