"""Pseudo-terminals for programs a person talks to in the window (sign-in commands): a real
pty on POSIX (posix.py), a ConPTY through pywinpty on Windows (windows.py), behind one small
interface (base.py). A leaf feature: it imports no other."""
