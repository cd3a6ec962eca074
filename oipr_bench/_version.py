"""Single source of the package version."""

__version__ = "0.4.0"
