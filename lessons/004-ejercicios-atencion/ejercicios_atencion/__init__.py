"""Lesson 004's own code, imported as `ejercicios_atencion`: the digit task (digitos) and its exercises' checkers (checkers/)."""
