import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)


def repo_path(*parts: str) -> str:
    return os.path.join(ROOT, *parts)
