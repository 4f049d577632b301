"""The lesson's checkers, one module each."""
