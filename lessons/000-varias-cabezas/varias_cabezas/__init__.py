"""Lesson 000's own code, imported as `varias_cabezas`: its explorable (explorables/) and its exercise's checker (checkers/)."""
