"""YAML as lessons write it, with YAML 1.2's booleans only.

PyYAML reads 'yes', 'no', 'on' and 'off' as booleans (YAML 1.1), so `correct: yes` would pass a check that
asks for true or false. Here they stay text, and such a check names them.
"""

import re

import yaml

BOOL = "tag:yaml.org,2002:bool"


class _Loader(yaml.SafeLoader):
    """SafeLoader whose only booleans are true and false (in any of YAML 1.2's three spellings)."""


_Loader.yaml_implicit_resolvers = {
    first: [(tag, pattern) for tag, pattern in resolvers if tag != BOOL]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()}
_Loader.add_implicit_resolver(BOOL, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))


def load(text):
    """The value of YAML `text`; raises yaml.YAMLError as yaml.safe_load does."""
    return yaml.load(text, Loader=_Loader)
