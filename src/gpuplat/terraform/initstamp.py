"""Whether a root's ``.terraform`` is still what ``terraform init`` left: then init is skipped.

Init costs a CPU second or more per command (terraform hashes every provider package it links)
and changes nothing when nothing it reads has changed. After a successful init, gpuplat writes a
stamp into the data folder: a digest of everything init read and wrote. The next init of the same
root is skipped only when the same digest comes out again and every locked provider is still
installed. The digest covers:

- the terraform binary (path, version, flavor) and the init arguments (``-backend-config``
  flags and files, by content), ``-reconfigure`` and ``-upgrade`` aside (they always run);
- the environment terraform reads (``TF_*`` but logging, and the CLI config file by content);
- every configuration file (``*.tf``, ``*.tf.json``, ``*.tofu``, ``*.tofu.json``) of the root
  and of every module folder ``modules.json`` records: a changed backend block, module call,
  provider requirement, or a new nested module all change it;
- the dependency lock file, ``modules.json`` and the backend record (``terraform.tfstate`` of
  the data folder, where terraform keeps the backend configuration and its hash), as init left
  them.

Anything missing, unreadable or different means init runs. Terraform itself still checks, at
every plan and apply, that each provider package matches the lock file.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from gpuplat.terraform.binary import TerraformBinary
from gpuplat.terraform.results import RunResult
from gpuplat.tree.fingerprint import file_sha

STAMP = "gpuplat-init.json"
LOCK_FILE = ".terraform.lock.hcl"
_CONFIG_SUFFIXES = (".tf", ".tf.json", ".tofu", ".tofu.json")
# Environment variables that do not change what init installs or records.
_IGNORED_ENV = ("TF_LOG", "TF_LOG_PATH", "TF_LOG_CORE", "TF_LOG_PROVIDER", "TF_IN_AUTOMATION")
_PROVIDER = re.compile(r'^provider\s+"([^"]+)"\s*\{\s*\n\s*version\s*=\s*"([^"]+)"', re.M)


def _config_files(folder: Path) -> dict[str, str | None]:
    try:
        names = sorted(p.name for p in folder.iterdir() if p.name.endswith(_CONFIG_SUFFIXES))
    except OSError:
        return {"<unreadable>": None}
    return {name: file_sha(folder / name) for name in names}


def _module_dirs(cwd: Path, modules_json: Path) -> dict[str, dict[str, str | None]]:
    try:
        data = json.loads(modules_json.read_text(encoding="utf-8"))
        dirs = sorted({str(m["Dir"]) for m in data.get("Modules", [])})
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}
    return {d: _config_files(cwd / d) for d in dirs}


def inputs(
    cwd: Path, argv: Sequence[str], env: Mapping[str, str], binary: tuple[str, str, str]
) -> dict[str, object]:
    """What init reads before it runs: binary, arguments, environment and the root's files."""
    backend_files = {
        arg: file_sha(Path(arg.split("=", 1)[1]))
        for arg in argv
        if arg.startswith("-backend-config=") and "=" not in arg.split("=", 1)[1]
    }
    settings = {k: v for k, v in env.items() if k.startswith("TF_") and k not in _IGNORED_ENV}
    cli_config = env.get("TF_CLI_CONFIG_FILE")
    return {
        "binary": list(binary),
        # After `-reconfigure` or `-upgrade` succeeded, a plain init has nothing left to do.
        "argv": [arg for arg in argv if arg not in ("-reconfigure", "-upgrade")],
        "backend_files": backend_files,
        "env": dict(sorted(settings.items())),
        "cli_config": None if cli_config is None else file_sha(Path(cli_config)),
        "root": _config_files(cwd),
    }


def outputs(cwd: Path, data_dir: Path) -> dict[str, object]:
    """What init leaves: the lock file, the module record and folders, the backend record."""
    modules_json = data_dir / "modules" / "modules.json"
    return {
        "lock": file_sha(cwd / LOCK_FILE),
        "modules_json": file_sha(modules_json),
        "modules": _module_dirs(cwd, modules_json),
        "backend": file_sha(data_dir / "terraform.tfstate"),
    }


def _digest(inputs_: Mapping[str, object], outputs_: Mapping[str, object]) -> str:
    text = json.dumps({"inputs": inputs_, "outputs": outputs_}, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _providers_installed(cwd: Path, data_dir: Path, platform: str) -> bool:
    try:
        text = (cwd / LOCK_FILE).read_text(encoding="utf-8")
    except FileNotFoundError:
        return True  # a root without providers has no lock file
    except OSError:
        return False
    for address, version in _PROVIDER.findall(text):
        folder = data_dir / "providers" / address / version
        if platform:
            if not (folder / platform).exists():  # follows the link into a cache or mirror
                return False
        elif not folder.is_dir() or not any(p.exists() for p in folder.iterdir()):
            return False
    return True


def is_current(
    cwd: Path,
    data_dir: Path,
    inputs_: Mapping[str, object],
    platform: str,
) -> bool:
    """True when the stamp in ``data_dir`` matches the root as it is now: init can be skipped."""
    try:
        recorded = json.loads((data_dir / STAMP).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    if not isinstance(recorded, dict) or recorded.get("digest") != _digest(
        inputs_, outputs(cwd, data_dir)
    ):
        return False
    return _providers_installed(cwd, data_dir, platform)


def forget(data_dir: Path) -> None:
    """Remove the stamp: the next init runs (called before every init)."""
    (data_dir / STAMP).unlink(missing_ok=True)


def remember(
    cwd: Path, data_dir: Path, before: Mapping[str, object], after: Mapping[str, object]
) -> None:
    """Write the stamp after a successful init, unless the root changed while init ran."""
    if before != after or not data_dir.is_dir():
        return
    stamp = data_dir / STAMP
    partial = stamp.with_name(f".{STAMP}.{os.getpid()}")
    partial.write_text(json.dumps({"digest": _digest(after, outputs(cwd, data_dir))}), "utf-8")
    partial.replace(stamp)


def unless_current(
    binary: TerraformBinary,
    cwd: Path,
    data_dir: Path,
    args: Sequence[str],
    environment: Callable[[], Mapping[str, str]],
    *,
    run: Callable[[], RunResult],
    always: bool,
) -> RunResult:
    """``run`` (the init) unless the stamp says it would change nothing; then an empty result
    with ``skipped`` set. ``always`` (``-reconfigure``, ``-upgrade``) runs it in any case."""
    identity = (binary.path, str(binary.version), binary.flavor)
    before = inputs(cwd, args, environment(), identity)
    if not always and is_current(cwd, data_dir, before, binary.platform):
        return RunResult((binary.path, *args), 0, (), "", skipped=True)
    forget(data_dir)
    result = run()
    remember(cwd, data_dir, before, inputs(cwd, args, environment(), identity))
    return result
