"""One module per tab; each has `build(context)` that lays the tab out and wires its events."""
