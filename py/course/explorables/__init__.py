"""Explorables: functions that return the states an interactive figure draws (plain, JSON-ready data)."""
