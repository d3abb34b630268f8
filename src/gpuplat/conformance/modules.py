"""Check ``module`` calls with a local source against the child module's ``variable`` blocks."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from gpuplat.conformance.builtin import MODULE_META_ARGUMENTS
from gpuplat.conformance.hclread import (
    Block,
    Body,
    HclParseError,
    ParsedFiles,
    literal_string,
)
from gpuplat.conformance.report import Collector, suggest

LOCAL_PREFIXES = ("./", "../")


@dataclass(frozen=True)
class ModuleInterface:
    """A child module's variables (name -> required), or why it could not be read."""

    variables: dict[str, bool]
    error: str | None = None


class ModuleCalls:
    """Checks module calls; child modules are read once per run."""

    def __init__(self, parsed: ParsedFiles | None = None) -> None:
        """Start with an empty cache of child modules.

        Args:
            parsed: The run's parsed files (a new set when not given).
        """
        self.parsed = parsed if parsed is not None else ParsedFiles()
        self._cache: dict[Path, ModuleInterface] = {}
        self._bodies: dict[Path, list[tuple[Path, Body]] | str] = {}

    def bodies(self, directory: Path) -> list[tuple[Path, Body]] | str:
        """The parsed .tf files of a child module (cached), or why they cannot be read."""
        if directory not in self._bodies:
            self._bodies[directory] = _read_bodies(directory, self.parsed)
        return self._bodies[directory]

    def interface(self, directory: Path) -> ModuleInterface:
        """Read the variables of the module in ``directory`` (cached).

        Args:
            directory: The child module's directory.

        Returns:
            Its interface; ``error`` is set when it cannot be read.
        """
        if directory not in self._cache:
            self._cache[directory] = _interface(self.bodies(directory))
        return self._cache[directory]

    def check(self, block: Block, caller: Path, out: Collector) -> None:
        """Check one ``module "name" { ... }`` block.

        Args:
            block: The module block.
            caller: The file that holds it; local sources are relative to its directory.
            out: Where findings go.
        """
        address = f"module.{block.labels[0]}" if block.labels else "module"
        if len(block.labels) != 1:
            out.add(block.line, "block-labels", address, "a module block takes exactly 1 label")
            return
        source_attr = block.body.attribute("source")
        if source_attr is None:
            out.add(block.line, "missing-required", address, "required argument `source`")
            return
        source = literal_string(source_attr.value)
        if source is None:
            out.add(source_attr.line, "module-source", address, "`source` must be a literal string")
            return
        if not source.startswith(LOCAL_PREFIXES):
            out.note(
                source_attr.line,
                "module-not-checked",
                address,
                f"source {source!r} is not local; its arguments are not checked",
            )
            return
        found = self.interface((caller.parent / source).resolve())
        if found.error is not None:
            out.add(source_attr.line, "module-source", address, found.error)
            return
        given: set[str] = set()
        for attr in block.body.attributes:
            given.add(attr.name)
            if attr.name in MODULE_META_ARGUMENTS or attr.name in found.variables:
                continue
            out.add(
                attr.line,
                "module-unknown-argument",
                address,
                f"module at {source} has no variable `{attr.name}`"
                + suggest(attr.name, found.variables),
            )
        for nested in block.body.blocks:
            out.add(
                nested.line,
                "unknown-block",
                address,
                f"module calls take no nested blocks; found `{nested.type}`",
            )
        for name, required in sorted(found.variables.items()):
            if required and name not in given:
                out.add(
                    block.line,
                    "module-missing-variable",
                    address,
                    f"required variable `{name}` (no default) of module at {source} is not set",
                )


def _read_bodies(directory: Path, parsed: ParsedFiles) -> list[tuple[Path, Body]] | str:
    if not directory.is_dir():
        return f"module directory {directory} does not exist"
    files = sorted(directory.glob("*.tf"))
    if not files:
        return f"module directory {directory} has no .tf files"
    out = []
    for path in files:
        try:
            out.append((path, parsed.body(path)))
        except HclParseError as exc:
            return f"module file {path}:{exc.line} does not parse: {exc}"
    return out


def _interface(bodies: list[tuple[Path, Body]] | str) -> ModuleInterface:
    if isinstance(bodies, str):
        return ModuleInterface({}, bodies)
    variables: dict[str, bool] = {}
    for _, body in bodies:
        for var in body.blocks_of("variable"):
            if var.labels:
                variables[var.labels[0]] = var.body.attribute("default") is None
    return ModuleInterface(variables)
