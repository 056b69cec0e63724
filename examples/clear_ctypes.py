#!/usr/bin/env python3
"""Clears a buffer through libclearjit.so with ctypes: no extension module, no compiler.

usage: clear_ctypes.py [PATH/TO/libclearjit.so.0]   (default: the dynamic loader's search)
"""
import ctypes
import sys


def load(path):
    lib = ctypes.CDLL(path or "libclearjit.so.0")
    lib.clearjit_open.restype = ctypes.c_void_p
    lib.clearjit_open.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t]
    lib.clearjit_clear.restype = None
    lib.clearjit_clear.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t]
    lib.clearjit_kernel_for.restype = ctypes.c_char_p
    lib.clearjit_kernel_for.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_size_t]
    lib.clearjit_profile_source.restype = ctypes.c_char_p
    lib.clearjit_profile_source.argtypes = [ctypes.c_void_p]
    lib.clearjit_close.restype = None
    lib.clearjit_close.argtypes = [ctypes.c_void_p]
    lib.clearjit_zero.restype = None
    lib.clearjit_zero.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
    return lib


def main():
    lib = load(sys.argv[1] if len(sys.argv) > 1 else None)
    err = ctypes.create_string_buffer(512)
    cj = lib.clearjit_open(None, err, len(err))
    if not cj:
        sys.exit("clearjit_open: " + err.value.decode())
    try:
        n = 3 << 20
        buf = (ctypes.c_ubyte * n).from_buffer(bytearray(b"\xab" * n))
        lib.clearjit_clear(cj, buf, n - 1)  # the last byte stays
        lib.clearjit_zero(ctypes.byref(buf, 0), 4096)  # the process-wide default
        data = bytes(buf)
        if data[:-1].count(0) != n - 1 or data[-1] != 0xAB:
            sys.exit("buffer not cleared as asked")
        kernel = lib.clearjit_kernel_for(cj, 0, n - 1).decode()  # 0: CLEARJIT_REUSE
        source = lib.clearjit_profile_source(cj).decode()
        print(f"cleared {n - 1} bytes with {kernel} (profile: {source})")
    finally:
        lib.clearjit_close(cj)


if __name__ == "__main__":
    main()
