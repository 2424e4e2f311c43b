"""jdr: dice, exact odds and fights for five French homebrew tabletop role-playing games."""

__version__ = "0.1.0"
