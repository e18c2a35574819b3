"""The code base stays clean under the project's ruff configuration (style, complexity)
and under mypy (types of bot, engine and cli)."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed: install the dev extra (pip install -e '.[dev]')")
    return found


def test_ruff_check_is_clean():
    result = subprocess.run([_tool("ruff"), "check", "."], cwd=ROOT, capture_output=True,
                            text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_is_clean():
    result = subprocess.run([_tool("mypy")], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
