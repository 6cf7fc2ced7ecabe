"""The move counters' LLVM-level helpers (``@intrinsic``): :func:`popcount` (``ctpop``),
:func:`quiet_call` (a call to a kernel that never raises, its status dropped, so that the
caller keeps no reference counts around it) and ``_stack_poly`` (scratch of
:data:`MAX_WINGS` + 1 int64 on the calling kernel's stack: no allocation).
"""

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

MAX_WINGS = 27   # the most solo wings a plane can carry (108 cards / 4)


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of an integer (LLVM ``ctpop``)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return x(x), codegen


@intrinsic
def quiet_call(typingctx, fn, args):
    """``fn(*args)`` for a kernel ``fn`` that never raises, without checking its status.

    A call to a compiled function returns a status the caller tests, branching to its
    error exit; a caller that passes a view of an array (``lasts[i]``) then keeps the
    view's reference count (two atomic operations) around any such call, which costs more
    than a count. With this call the caller's counts around it are pruned. ``fn`` must
    not raise (no division by a variable, no allocation): its status is dropped.
    """
    if not isinstance(fn, types.Dispatcher) or not isinstance(args, types.BaseTuple):
        return None
    argtys = tuple(types.unliteral(a) for a in args)
    fn.dispatcher.compile(argtys)
    cres = fn.dispatcher.overloads[argtys]

    def codegen(context, builder, signature, llargs):
        context.active_code_library.add_linking_library(cres.library)
        values = cgutils.unpack_tuple(builder, llargs[1], len(argtys))
        values = [context.cast(builder, v, a, t) for v, a, t in zip(values, args, argtys)]
        _, result = context.call_internal_no_propagate(builder, cres.fndesc, cres.signature,
                                                        values)
        return result

    return cres.signature.return_type(fn, args), codegen


@intrinsic
def _stack_poly(typingctx):
    """A pointer to MAX_WINGS + 1 int64 on the calling kernel's stack, valid while it runs:
    scratch that needs no allocation (and so no reference counting)."""
    def codegen(context, builder, signature, args):
        block = cgutils.alloca_once(builder, ir.ArrayType(ir.IntType(64), MAX_WINGS + 1))
        return builder.bitcast(block, ir.IntType(64).as_pointer())

    return types.CPointer(types.int64)(), codegen
