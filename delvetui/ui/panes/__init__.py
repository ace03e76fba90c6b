"""The widgets the table draws the state in: each pane, the header's strips, the turn log."""
