"""Imported by tests/unit/test_start_up_imports.py through a LazyModule: it counts its loads."""

LOADS = [1]
VALUE = 42
