# Type stubs of a native module: made by tools/make_stubs.py.
from typing import Any

class TableSet:
    def __init__(self, variant: str, rules_id: int) -> None: ...
    @staticmethod
    def limit() -> int: ...
    def __getattr__(self, name: str) -> Any: ...  # see egdb.py
