"""Walking in Provence (kind `provence`): see docs/provence.md."""

from .engine import ProvenceEngine

ENGINE = ProvenceEngine()

__all__ = ["ENGINE", "ProvenceEngine"]
