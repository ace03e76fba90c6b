"""The forms that make an expedition: a new one, and the next after an ended one."""
