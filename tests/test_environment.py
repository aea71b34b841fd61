"""The project's environment files agree with each other, and the setup scripts fail politely.

- pyproject.toml's extras and environment.yml (conda-forge) list the same packages, under each one's own name.
- ``scripts/ensure-dot.sh`` and ``scripts/ensure-chromium.sh`` print one clear line, never a traceback.
- ``import expectviz`` needs the standard library only.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = ROOT / "pyproject.toml"
ENVIRONMENT = ROOT / "environment.yml"
SCRIPTS = ROOT / "scripts"

# PyPI name -> conda-forge name, where they differ.
PYPI_TO_CONDA = {"graphviz": "python-graphviz"}
# conda-forge entries with no PyPI counterpart in the extras.
CONDA_ONLY = {
    "python": "the interpreter (checked against requires-python)",
    "pip": "installs the pip: section",
    "graphviz": "the Graphviz binaries (dot), which PyPI does not ship",
}
# Entries of environment.yml's pip: section that are not packages from the extras.
PIP_SECTION_EXTRAS = {"-e ."}


# ---- reading the files ------------------------------------------------------------------------------------------


def load_pyproject() -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        tomllib = pytest.importorskip("tomli")
    with PYPROJECT.open("rb") as file:
        data: dict[str, Any] = tomllib.load(file)
    return data


def _yaml_lines(text: str) -> list[tuple[int, int, str]]:
    """(line number, indent, content) for each line that is not blank or a comment; trailing comments removed."""
    lines = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if "\t" in raw[: len(raw) - len(raw.lstrip())]:
            raise ValueError(f"environment.yml:{number}: tab in indentation")
        content = re.sub(r"(^|\s)#.*$", "", raw).rstrip()
        if content.strip():
            lines.append((number, len(content) - len(content.lstrip()), content.strip()))
    return lines


def _yaml_scalar(text: str) -> str:
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    if text.startswith(("[", "{", "&", "*", "|", ">", "!")):
        raise ValueError(f"unsupported YAML value {text!r}")
    return text


def _yaml_block(lines: list[tuple[int, int, str]], start: int, indent: int) -> tuple[Any, int]:
    """Parse the block of lines at this indent from ``start``; return (value, index of the next line)."""
    is_list = lines[start][2].startswith("- ") or lines[start][2] == "-"
    result: Any = [] if is_list else {}
    index = start
    while index < len(lines):
        number, line_indent, content = lines[index]
        if line_indent < indent:
            break
        if line_indent > indent:
            raise ValueError(f"environment.yml:{number}: unexpected indentation")
        if is_list:
            if not content.startswith("- "):
                raise ValueError(f"environment.yml:{number}: expected a '- ' list item")
            item = content[2:].strip()
            key_only = re.fullmatch(r"([\w.-]+):", item)
            if key_only:  # "- pip:" followed by a nested block
                value, index = _yaml_nested(lines, index, indent, number)
                result.append({key_only.group(1): value})
                continue
            if re.match(r"[\w.-]+: ", item):
                raise ValueError(f"environment.yml:{number}: inline mappings in lists are not supported")
            result.append(_yaml_scalar(item))
            index += 1
        else:
            match = re.fullmatch(r"([\w.-]+):(?:\s+(.*))?", content)
            if not match:
                raise ValueError(f"environment.yml:{number}: expected 'key: value', got {content!r}")
            key, value_text = match.groups()
            if key in result:
                raise ValueError(f"environment.yml:{number}: duplicate key {key!r}")
            if value_text:
                result[key] = _yaml_scalar(value_text)
                index += 1
            else:
                result[key], index = _yaml_nested(lines, index, indent, number)
    return result, index


def _yaml_nested(lines: list[tuple[int, int, str]], index: int, indent: int, number: int) -> tuple[Any, int]:
    """The block under the key on line ``index``; YAML lets a list sit at its key's own indent."""
    following = index + 1
    if following >= len(lines):
        raise ValueError(f"environment.yml:{number}: key without a value")
    _, child_indent, child = lines[following]
    key_is_list_item = lines[index][2].startswith("- ")
    if child_indent > indent or (child_indent == indent and child.startswith("- ") and not key_is_list_item):
        return _yaml_block(lines, following, child_indent)
    raise ValueError(f"environment.yml:{number}: key without a value")


def parse_simple_yaml(text: str) -> Any:
    """Parse the small YAML subset environment.yml uses: nested block mappings and lists of plain scalars.

    Raises ValueError on anything else, so that a fancier file fails this test instead of being misread.

    >>> parse_simple_yaml("name: x  # comment\\nlist:\\n  - a>=1\\n  - pip:\\n      - -e .\\n")
    {'name': 'x', 'list': ['a>=1', {'pip': ['-e .']}]}
    """
    lines = _yaml_lines(text)
    if not lines:
        return None
    value, index = _yaml_block(lines, 0, lines[0][1])
    if index != len(lines):
        raise ValueError(f"environment.yml:{lines[index][0]}: unexpected dedent")
    return value


def load_environment() -> dict[str, Any]:
    data = parse_simple_yaml(ENVIRONMENT.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def split_requirement(requirement: str) -> tuple[str, str, str]:
    """PEP 508 requirement -> (normalized name, extras, version specifier without spaces)."""
    requirement = requirement.split(";", 1)[0]
    match = re.fullmatch(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[([^\]]*)\])?\s*(.*?)\s*", requirement)
    assert match, f"cannot read requirement {requirement!r}"
    name, extras, spec = match.groups()
    return normalize(name), (extras or "").replace(" ", ""), spec.replace(" ", "")


def split_conda_spec(spec: str) -> tuple[str, str]:
    """conda match spec ``name>=1`` or ``name >=1`` -> (normalized name, version specifier without spaces)."""
    match = re.fullmatch(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(.*?)\s*", spec)
    assert match, f"cannot read conda spec {spec!r}"
    return normalize(match.group(1)), match.group(2).replace(" ", "")


def expand_extra(extras: dict[str, list[str]], extra: str, project: str = "expectviz") -> dict[str, str]:
    """The PyPI requirements of one extra, following ``expectviz[other]`` self-references: name -> specifier."""
    requirements: dict[str, str] = {}
    for requirement in extras[extra]:
        name, nested, spec = split_requirement(requirement)
        if name == project:
            for other in filter(None, nested.split(",")):
                requirements.update(expand_extra(extras, other, project))
        else:
            requirements[name] = spec
    return requirements


def conda_packages(environment: dict[str, Any]) -> tuple[dict[str, str], list[str]]:
    """(conda dependencies: name -> specifier, entries of the pip: section)."""
    conda: dict[str, str] = {}
    pip: list[str] = []
    for entry in environment["dependencies"]:
        if isinstance(entry, dict):
            assert set(entry) == {"pip"}, f"unexpected mapping in dependencies: {entry!r}"
            pip.extend(entry["pip"])
            continue
        name, spec = split_conda_spec(entry)
        assert name not in conda, f"{name!r} is listed twice in environment.yml"
        conda[name] = spec
    return conda, pip


# ---- pyproject.toml and environment.yml are in step -------------------------------------------------------------


def test_import_needs_no_runtime_dependencies() -> None:
    project = load_pyproject()["project"]
    assert project.get("dependencies", []) == []
    assert set(project["optional-dependencies"]) >= {"viz", "lab", "dev"}


def test_extras_include_each_other() -> None:
    extras = load_pyproject()["project"]["optional-dependencies"]
    viz, lab, dev = (expand_extra(extras, name) for name in ("viz", "lab", "dev"))
    assert {"graphviz", "ipywidgets", "matplotlib", "pillow"} <= set(viz)
    assert set(viz) < set(lab) and "jupyterlab" in lab
    assert set(lab) < set(dev)
    assert {"pytest", "nbval", "hypothesis", "mypy", "ruff", "nbstripout", "playwright"} <= set(dev)


def test_environment_yml_header() -> None:
    environment = load_environment()
    assert environment["name"] == "expectviz"
    assert environment["channels"] == ["conda-forge"]


def test_every_dev_dependency_is_in_environment_yml() -> None:
    dev = expand_extra(load_pyproject()["project"]["optional-dependencies"], "dev")
    conda, pip = conda_packages(load_environment())
    pip_names = {
        name: spec for name, _, spec in (split_requirement(entry) for entry in pip if entry not in PIP_SECTION_EXTRAS)
    }
    problems = []
    for name, spec in sorted(dev.items()):
        conda_name = PYPI_TO_CONDA.get(name, name)
        if conda_name in conda:
            found = conda[conda_name]
        elif name in pip_names:
            found = pip_names[name]
        else:
            problems.append(f"{name} (conda-forge: {conda_name}) is missing from environment.yml")
            continue
        if found != spec:
            problems.append(f"{name}: pyproject.toml says {spec!r} but environment.yml says {found!r}")
    assert not problems, "\n".join(problems)


def test_every_environment_yml_entry_is_a_dev_dependency() -> None:
    dev = expand_extra(load_pyproject()["project"]["optional-dependencies"], "dev")
    conda, pip = conda_packages(load_environment())
    conda_to_pypi = {conda_name: pypi_name for pypi_name, conda_name in PYPI_TO_CONDA.items()}
    unexpected = [name for name in conda if name not in CONDA_ONLY and conda_to_pypi.get(name, name) not in dev] + [
        entry for entry in pip if entry not in PIP_SECTION_EXTRAS and split_requirement(entry)[0] not in dev
    ]
    assert not unexpected, f"in environment.yml but not in the dev extra: {unexpected}"
    assert set(CONDA_ONLY) <= set(conda), "environment.yml needs python, pip and the graphviz binaries"
    assert "-e ." in pip, "environment.yml should install expectviz itself with pip (-e .)"


def test_python_versions_agree() -> None:
    requires_python = load_pyproject()["project"]["requires-python"].replace(" ", "")
    conda, _ = conda_packages(load_environment())
    assert conda["python"] == requires_python


def test_simple_yaml_parser_agrees_with_pyyaml() -> None:
    yaml = pytest.importorskip("yaml")
    text = ENVIRONMENT.read_text(encoding="utf-8")
    assert parse_simple_yaml(text) == yaml.safe_load(text)


def test_py_typed_is_shipped() -> None:
    assert (ROOT / "expectviz" / "py.typed").is_file()
    package_data = load_pyproject()["tool"]["setuptools"]["package-data"]
    assert "py.typed" in package_data["expectviz"]


# ---- the setup scripts ------------------------------------------------------------------------------------------

SHELLS = [shell for shell in ("sh", "bash") if shutil.which(shell)]


def run_script(script: str, shell: str, bin_dir: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """Run a setup script with PATH = ``bin_dir`` only (so no dot, chromium or apt-get)."""
    return subprocess.run(
        [shutil.which(shell) or shell, str(SCRIPTS / script)],
        env={"PATH": str(bin_dir), "LC_ALL": "C", **env},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.fixture
def bin_dir(tmp_path: Path) -> Path:
    """A PATH directory with `id` only (/bin is /usr/bin on Debian, so it would still have `dot`)."""
    directory = tmp_path / "bin"
    directory.mkdir()
    id_path = shutil.which("id")
    if id_path:
        (directory / "id").symlink_to(id_path)
    return directory


def fake_program(directory: Path, name: str, exit_status: int) -> None:
    program = directory / name
    program.write_text(f"#!/bin/sh\nwhile read -r line; do :; done\nexit {exit_status}\n")
    program.chmod(0o755)


def output_lines(result: subprocess.CompletedProcess[str]) -> list[str]:
    return (result.stdout + result.stderr).splitlines()


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("as_user", ["nonroot", "root-without-apt-get"])
def test_ensure_dot_without_dot_prints_one_line_and_fails(shell: str, as_user: str, bin_dir: Path) -> None:
    env = {"EXPECTVIZ_ASSUME_NONROOT": "1"} if as_user == "nonroot" else {}
    result = run_script("ensure-dot.sh", shell, bin_dir, **env)
    lines = output_lines(result)
    assert result.returncode == 1, lines
    assert len(lines) == 1, lines
    assert "Traceback" not in lines[0]
    assert lines[0].startswith("expectviz: Graphviz's 'dot' is missing")
    for hint in ("apt-get install graphviz", "brew install graphviz", "conda install -c conda-forge graphviz"):
        assert hint in lines[0]


@pytest.mark.parametrize("shell", SHELLS)
def test_ensure_dot_accepts_a_working_dot(shell: str, bin_dir: Path) -> None:
    fake_program(bin_dir, "dot", 0)
    result = run_script("ensure-dot.sh", shell, bin_dir, EXPECTVIZ_ASSUME_NONROOT="1")
    assert result.returncode == 0, output_lines(result)
    assert output_lines(result) == [f"expectviz: using Graphviz's dot at {bin_dir / 'dot'}"]


@pytest.mark.parametrize("shell", SHELLS)
def test_ensure_dot_rejects_a_broken_dot(shell: str, bin_dir: Path) -> None:
    fake_program(bin_dir, "dot", 1)
    result = run_script("ensure-dot.sh", shell, bin_dir, EXPECTVIZ_ASSUME_NONROOT="1")
    lines = output_lines(result)
    assert result.returncode == 1, lines
    assert len(lines) == 1 and "cannot render SVG" in lines[0], lines


@pytest.mark.parametrize("shell", SHELLS)
def test_ensure_chromium_without_chromium_says_browser_tests_skip(shell: str, bin_dir: Path) -> None:
    result = run_script(
        "ensure-chromium.sh", shell, bin_dir, EXPECTVIZ_ASSUME_NONROOT="1", EXPECTVIZ_CHROMIUM="/nonexistent/chromium"
    )
    lines = output_lines(result)
    assert result.returncode == 0, lines
    assert len(lines) == 1, lines
    assert "browser tests will be skipped" in lines[0] and "Traceback" not in lines[0]


@pytest.mark.parametrize("shell", SHELLS)
def test_ensure_chromium_finds_chromium_on_path(shell: str, bin_dir: Path) -> None:
    fake_program(bin_dir, "chromium", 0)
    result = run_script(
        "ensure-chromium.sh", shell, bin_dir, EXPECTVIZ_ASSUME_NONROOT="1", EXPECTVIZ_CHROMIUM="/nonexistent/chromium"
    )
    assert result.returncode == 0
    assert output_lines(result) == [f"expectviz: using Chromium at {bin_dir / 'chromium'}"]


@pytest.mark.parametrize("script", ["scripts/ensure-dot.sh", "scripts/ensure-chromium.sh", ".ci/run"])
def test_shell_scripts_parse(script: str) -> None:
    shell = "bash" if script == ".ci/run" else "sh"
    if not shutil.which(shell):
        pytest.skip(f"no {shell}")
    result = subprocess.run([shell, "-n", str(ROOT / script)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    if script == ".ci/run":
        assert os.access(ROOT / script, os.X_OK), ".ci/run must be executable"


def test_make_test_runs_every_step() -> None:
    if not shutil.which("make"):
        pytest.skip("no make")
    env = {key: value for key, value in os.environ.items() if not key.startswith("MAKE")}
    result = subprocess.run(["make", "-n", "test"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    for step in ("ruff check", "mypy expectviz", "--doctest-modules", "--nbval", "ensure-dot.sh", "ensure-chromium.sh"):
        assert step in result.stdout, f"`make -n test` does not run {step!r}:\n{result.stdout}"


# ---- import expectviz needs the standard library only ----------------------------------------------------------

IMPORT_PROBE = """
import sys
before = set(sys.modules)
import expectviz
new = {name.partition(".")[0] for name in set(sys.modules) - before}
print("\\n".join(sorted(new - set(sys.stdlib_module_names) - {"expectviz"})))
"""


def test_import_expectviz_imports_no_optional_packages() -> None:
    result = subprocess.run([sys.executable, "-c", IMPORT_PROBE], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    imported = result.stdout.split()
    for heavy in ("ipywidgets", "matplotlib", "graphviz", "PIL", "IPython"):
        assert heavy not in imported, f"`import expectviz` imports {heavy}; import it where it is used"
    assert imported == [], f"`import expectviz` imports non-stdlib modules: {imported}"
