"""The explorables of lesson 006-a-model-that-writes."""
