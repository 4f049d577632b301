"""Helpers that belong to one lesson each (figures drawn for its cells), named after the lesson's folder."""
