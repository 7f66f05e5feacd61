"""Windows: the path a file handle really leads to (GetFinalPathNameByHandleW), every link and
junction resolved; what located_io.py compares to where a path was checked to lead."""

from __future__ import annotations

import sys

assert sys.platform == "win32"  # imported on Windows only (located_io.py); type-checked as such

import ctypes  # noqa: E402
import msvcrt  # noqa: E402
from ctypes import wintypes  # noqa: E402

_kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
_final_path = _kernel32.GetFinalPathNameByHandleW
_final_path.argtypes = (wintypes.HANDLE, wintypes.LPWSTR, wintypes.DWORD, wintypes.DWORD)
_final_path.restype = wintypes.DWORD
_VOLUME_NAME_DOS = 0


def final_path(fd: int) -> str:
    """The opened file's full path, without the `\\\\?\\` prefix Windows puts in front."""
    handle = msvcrt.get_osfhandle(fd)
    size = 512
    while True:
        buffer = ctypes.create_unicode_buffer(size)
        length = _final_path(handle, buffer, size, _VOLUME_NAME_DOS)
        if length == 0:
            raise ctypes.WinError(ctypes.get_last_error())
        if length < size:
            break
        size = length + 1
    path = buffer.value
    if path.startswith("\\\\?\\UNC\\"):
        return "\\\\" + path[8:]
    return path[4:] if path.startswith("\\\\?\\") else path
