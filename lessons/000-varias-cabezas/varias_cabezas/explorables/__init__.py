"""The lesson's explorables, one module each."""
