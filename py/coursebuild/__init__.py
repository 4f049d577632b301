"""The build pipeline: lesson sources in, a static site out (CPython only)."""
