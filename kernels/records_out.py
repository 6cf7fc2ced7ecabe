"""Where generated records go: an array of records (``uint64[cap, 2]``), or a *stream*,
``(moves, base)``: the rows of a large C-contiguous output from ``base`` on, written with
non-temporal stores.

A batch's output is far larger than the caches, and an ordinary store first reads the line
it writes: non-temporal stores skip that read (measured: 8 GB/s against 23 GB/s filling a
256 MB array on this project's machine). A writer of streams calls :func:`stream_fence`
before others read its output. Generation is compiled once per kind of output (the
functions here are overloads, chosen by the type of ``out``).
"""

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic, overload

from fastdou.kernels.jit import LEAF_OVERLOAD


@intrinsic
def _store_nt(typingctx, array, index, value):
    """``array.flat[index] = value`` (a C-contiguous uint64 array), non-temporal."""
    if not (isinstance(array, types.Array) and array.layout == "C"
            and array.dtype == types.uint64):
        return None
    sig = types.void(array, types.int64, types.uint64)

    def codegen(context, builder, signature, args):
        data = context.make_array(signature.args[0])(context, builder, args[0]).data
        store = builder.store(args[2], builder.gep(data, [args[1]]))
        store.set_metadata("nontemporal", builder.module.add_metadata(
            [ir.Constant(ir.IntType(32), 1)]))
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def _fence(typingctx):
    sig = types.void()

    def codegen(context, builder, signature, args):
        builder.fence("seq_cst")
        return context.get_dummy_value()

    return sig, codegen


def room(out):
    """The records ``out`` holds (an array's rows; a stream's rows from its base)."""


@overload(room, jit_options=LEAF_OVERLOAD)
def _room(out):
    if isinstance(out, types.Array):
        return lambda out: out.shape[0]
    return lambda out: out[0].shape[0] - out[1]


def put_record(out, n, cards, info):
    """Write record n (``cards``, ``info``) of ``out``; n < :func:`room` (out)."""


@overload(put_record, jit_options=LEAF_OVERLOAD)
def _put_record(out, n, cards, info):
    if isinstance(out, types.Array):
        def to_array(out, n, cards, info):
            i = np.uint64(n)               # unsigned: no wraparound fix on every store
            out[i, np.uint64(0)] = cards
            out[i, np.uint64(1)] = info
        return to_array

    def to_stream(out, n, cards, info):
        flat = 2 * (out[1] + n)
        _store_nt(out[0], flat, np.uint64(cards))
        _store_nt(out[0], flat + 1, np.uint64(info))
    return to_stream


def stream_fence():
    """Make every non-temporal store before it visible to other threads (x86 ``mfence``)."""


@overload(stream_fence, jit_options=LEAF_OVERLOAD)
def _stream_fence():
    return lambda: _fence()
