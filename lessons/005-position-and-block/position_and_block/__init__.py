"""Lesson 005's own code: the order experiment's models, the loss-curve figure, the explorable and the checkers."""
