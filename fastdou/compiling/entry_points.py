"""Numba's compiled entry point of a dispatcher, for the hot calls from Python.

Calling a ``@njit`` dispatcher types every argument first (``typeof``, ~25 ns an argument);
``Dispatcher.compile(signature)`` (Numba 0.6x, ``numba/core/dispatcher.py``) compiles or
loads that specialisation and returns its entry point, a C function that unboxes the
arguments and runs it. Calling that directly skips the typing, but its unboxing checks an
array's item size only (a wrong dtype, rank or layout reads memory wrongly), so callers
hand it only arrays of exactly the types it was made for, which they own or check.
"""

from numba.core.types import WrapperAddressProtocol


def entry_point(dispatcher, args):
    """The compiled entry point of ``dispatcher`` for the types of ``args`` (the
    dispatcher itself if this Numba gives no callable)."""
    from numba import typeof
    entry = dispatcher.compile(tuple(typeof(a) for a in args))
    return entry if callable(entry) else dispatcher


def typed_entry_point(dispatcher, signature):
    """The compiled entry point of ``dispatcher`` for the types ``signature``, compiled (or
    loaded from the disk cache) when first asked for: for a signature its typing of Python
    values never gives, such as a literal ``True`` (``numba.types.literal(True)``) that
    prunes the code a ``wild is None`` test guards."""
    if signature not in dispatcher.overloads:
        dispatcher.compile(signature)
    return dispatcher.overloads[signature].entry_point


class FunctionArg(WrapperAddressProtocol):
    """An ``@njit`` function as a first-class function argument, by the address of its
    compiled ``signature`` (its C wrapper): Numba unboxes it without looking up the overload
    at every call, and a compiled entry point (:func:`typed_entry_point`) takes it as is."""

    def __init__(self, fn, signature):
        self.function, self._signature = fn, signature
        result = fn.get_compile_result(signature)
        self._address = result.library.get_pointer_to_function(
            result.fndesc.llvm_cfunc_wrapper_name)
        if not self._address:           # compiled without one (``jit.first_class_kernel``)
            raise ValueError(f"{fn.__name__} has no first-class function wrapper")

    def __wrapper_address__(self):
        return self._address

    def signature(self):
        return self._signature
