"""The players' screen (``delvetui players``): a read-only view for a second terminal."""
