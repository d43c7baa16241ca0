"""The correction reader: window, rules, renderers and the `corrections` command."""
