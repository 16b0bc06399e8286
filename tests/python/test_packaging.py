"""The ndnlab package as pip installs it: every directory of modules under python/ndnlab is a
package that python/pyproject.toml's package discovery finds, so a plain `pip install python`
has all of them (ndnlab.plots was once left out)."""
import pathlib
import tomllib

import setuptools

PYTHON = pathlib.Path(__file__).resolve().parents[2] / "python"


def packaged():
    """The package names setuptools finds with pyproject.toml's [tool.setuptools.packages.find]."""
    tool = tomllib.loads((PYTHON / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert "packages" in tool and "find" in tool["packages"], \
        "pyproject.toml should find the packages, not list them"
    find = tool["packages"]["find"]
    return set(setuptools.find_packages(where=str(PYTHON / find.get("where", ["."])[0]),
                                        include=find.get("include", ["*"]),
                                        exclude=find.get("exclude", [])))


def module_directories():
    """Dotted names of ndnlab and every directory below it that holds Python files."""
    root = PYTHON / "ndnlab"
    dirs = {path.parent for path in root.rglob("*.py") if "__pycache__" not in path.parts}
    return {".".join(d.relative_to(PYTHON).parts) for d in dirs}


def test_every_directory_of_modules_is_a_package():
    missing = sorted(name for name in module_directories()
                     if not (PYTHON.joinpath(*name.split(".")) / "__init__.py").exists())
    assert not missing, f"directories of modules without __init__.py: {missing}"


def test_package_discovery_finds_every_package():
    found = packaged()
    assert {"ndnlab", "ndnlab.paper", "ndnlab.plots"} <= found
    assert not module_directories() - found, \
        f"not packaged: {sorted(module_directories() - found)}"
