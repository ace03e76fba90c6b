"""delvetui: the referee's table for dungeon turns."""

__version__ = "0.1.0"
