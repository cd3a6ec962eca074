"""Fault injection for the atomic-write tests: a stand-in ``os`` module and a failing file."""

from __future__ import annotations

import os


class OsProxy:
    """Stands in for the ``os`` module inside :mod:`oipr_bench.io`, overriding some functions."""

    def __init__(self, **overrides):
        self._overrides = overrides

    def __getattr__(self, name):
        if name in self._overrides:
            return self._overrides[name]
        return getattr(os, name)


class HalfWriter:
    """A file object that writes half of what it is given, then fails like a full disk (or Ctrl-C)."""

    def __init__(self, fd, mode, exc):
        self._fh = os.fdopen(fd, mode)
        self._exc = exc

    def write(self, data):
        self._fh.write(data[: len(data) // 2])
        self._fh.flush()
        raise self._exc

    def __getattr__(self, name):
        return getattr(self._fh, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._fh.close()
        return False

