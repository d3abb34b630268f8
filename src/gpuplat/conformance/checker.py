"""Check .tf files against provider schemas, Terraform's own rules and local child modules."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from gpuplat.conformance import builtin
from gpuplat.conformance.aliases import undeclared_aliases
from gpuplat.conformance.body import BodyChecker
from gpuplat.conformance.hclread import Block, Body, HclParseError
from gpuplat.conformance.manifests import MANIFEST, CustomResources
from gpuplat.conformance.modules import ModuleCalls
from gpuplat.conformance.report import CheckReport, Collector, Violation, suggest
from gpuplat.conformance.rulecheck import RuleChecker
from gpuplat.conformance.schema import BlockSchema, Kind, ProviderSchemas
from gpuplat.conformance.yamlobjects import check_yaml

_KINDS: dict[str, Kind] = {"resource": "resource", "data": "data", "ephemeral": "ephemeral"}
_SKIPPED_DIRS = {".terraform", ".git"}
_WHAT: dict[Kind, str] = {
    "resource": "resource type",
    "data": "data source",
    "ephemeral": "ephemeral resource",
}


def iter_tf_files(paths: Iterable[Path]) -> Iterator[Path]:
    """Yield .tf files: each file given, and every .tf under each directory, sorted.

    Args:
        paths: Files and directories.

    Yields:
        .tf files, skipping ``.terraform`` and ``.git`` directories.

    Raises:
        FileNotFoundError: When a path does not exist.
    """
    for path in paths:
        if path.is_file():
            yield path
        elif path.is_dir():
            for found in sorted(path.rglob("*.tf")):
                if found.is_file() and not _SKIPPED_DIRS.intersection(found.parts):
                    yield found
        else:
            raise FileNotFoundError(f"no such file or directory: {path}")


class FileChecker:
    """Checks the top-level blocks of one file."""

    def __init__(
        self,
        file: Path,
        schemas: ProviderSchemas,
        modules: ModuleCalls,
        custom: CustomResources | None = None,
        rules: RuleChecker | None = None,
    ) -> None:
        """Prepare to check a file.

        Args:
            file: The .tf file.
            schemas: The provider schemas.
            modules: The shared module-call checker (caches child modules).
            custom: The run's custom resource checker (a new one when not given).
            rules: The provider rules to apply to resource and data blocks, if any.
        """
        self.file = file
        self.schemas = schemas
        self.modules = modules
        self.custom = custom if custom is not None else CustomResources(modules)
        self.rules = rules
        self.out = Collector(file)
        self.blocks = 0

    def run(self) -> list[Violation]:
        """Parse and check the file.

        Returns:
            Errors and notes, in source order.
        """
        try:
            body = self.modules.parsed.body(self.file)
        except HclParseError as exc:
            self.out.add(exc.line, "parse-error", self.file.name, f"HCL parse error: {exc}")
            return self.out.found
        self._top(body)
        return sorted(self.out.found)

    def _top(self, body: Body) -> None:
        for attr in body.attributes:
            self.out.add(attr.line, "unknown-attribute", attr.name, "no arguments at top level")
        for block in body.blocks:
            if block.type in _KINDS:
                self._resource(block, _KINDS[block.type])
            elif block.type == "module":
                self.blocks += 1
                self.modules.check(block, self.file, self.out)
                self.custom.module_call(block, self.file, self.out)
            elif block.type == "provider":
                self._provider(block)
            elif block.type == "terraform":
                self._terraform(block)
            elif block.type == "check":
                for scoped in block.body.blocks_of("data"):
                    self._resource(scoped, "data")
            elif block.type not in builtin.TOP_LEVEL_BLOCKS:
                self.out.add(
                    block.line,
                    "unknown-block",
                    block.type,
                    f"unknown top-level block `{block.type}`"
                    + suggest(block.type, builtin.TOP_LEVEL_BLOCKS),
                )

    def _resource(self, block: Block, kind: Kind) -> None:
        if len(block.labels) != 2:
            self.out.add(block.line, "block-labels", block.type, f"`{block.type}` takes 2 labels")
            return
        type_name, name = block.labels
        address = f"{type_name}.{name}" if kind == "resource" else f"{kind}.{type_name}.{name}"
        self.blocks += 1
        found = self.schemas.lookup(kind, type_name)
        if found is None:
            self._unknown_type(block, kind, type_name, address)
            return
        body = block.body
        meta = {*builtin.RESOURCE_META_ATTRIBUTES, "lifecycle"}
        if kind == "resource":
            meta |= {"provisioner", "connection"}
        if body.attribute("count") and body.attribute("for_each"):
            line = body.attribute("for_each")
            self.out.add(
                line.line if line else block.line,
                "count-and-for-each",
                address,
                "`count` and `for_each` cannot both be set",
            )
        checker = BodyChecker(self.out, address)
        checker.check(body, found[1], block.line, meta=meta)
        if self.rules is not None:
            self.rules.check(self.out, found[0], f"{kind}.{type_name}", address, body, block.line)
        if kind == "resource" and type_name == MANIFEST:
            self.custom.resource(block, address, self.out)
        lifecycle = builtin.RESOURCE_LIFECYCLE if kind == "resource" else builtin.DATA_LIFECYCLE
        self._meta_blocks(checker, body, "lifecycle", lifecycle)
        if kind == "resource":
            self._meta_blocks(checker, body, "connection", builtin.CONNECTION)
            for prov in body.blocks_of("provisioner"):
                schema = builtin.PROVISIONERS.get(prov.labels[0] if len(prov.labels) == 1 else "")
                if schema is None:
                    label = prov.labels[0] if prov.labels else ""
                    self.out.add(
                        prov.line,
                        "unknown-block",
                        address,
                        f"unknown provisioner `{label}`" + suggest(label, builtin.PROVISIONERS),
                    )
                else:
                    checker.check(prov.body, schema, prov.line, "provisioner.")

    def _meta_blocks(
        self, checker: BodyChecker, body: Body, name: str, schema: BlockSchema
    ) -> None:
        blocks = body.blocks_of(name)
        for extra in blocks[1:]:
            self.out.add(extra.line, "block-count", checker.address, f"`{name}` given twice")
        for block in blocks:
            if block.labels:
                self.out.add(
                    block.line, "block-labels", checker.address, f"`{name}` takes no label"
                )
            checker.check(block.body, schema, block.line, f"{name}.")

    def _unknown_type(self, block: Block, kind: Kind, type_name: str, address: str) -> None:
        trimmed = self.schemas.omitted(kind, type_name)
        if trimmed is not None:
            self.out.note(
                block.line,
                "type-not-checked",
                address,
                f"`{type_name}` is a {trimmed.name} {_WHAT[kind]} whose schema is not in "
                f"{trimmed.file.name} (a trimmed set); check it against the full schema with "
                "--schemas DIR (`terraform providers schema -json` output)",
            )
            return
        prefix = type_name.split("_", 1)[0]
        provider_attr = block.body.attribute("provider")
        if provider_attr is not None and isinstance(provider_attr.value, str):
            prefix = provider_attr.value.strip("${}").split(".", 1)[0] or prefix
        if self.schemas.knows_provider(prefix):
            self.out.add(
                block.line,
                "unknown-resource-type",
                address,
                f"provider `{prefix}` has no {_WHAT[kind]} `{type_name}`"
                + suggest(type_name, self.schemas.type_names(kind, prefix)),
            )
        else:
            loaded = ", ".join(sorted(self.schemas.providers)) or "none"
            self.out.add(
                block.line,
                "unknown-provider",
                address,
                f"no schema loaded for provider `{prefix}` (loaded: {loaded})",
            )

    def _provider(self, block: Block) -> None:
        name = block.labels[0] if len(block.labels) == 1 else ""
        address = f"provider.{name}"
        if not name:
            self.out.add(block.line, "block-labels", "provider", "`provider` takes 1 label")
            return
        self.blocks += 1
        if not self.schemas.knows_provider(name) or name == "terraform":
            loaded = ", ".join(sorted(self.schemas.providers)) or "none"
            self.out.add(
                block.line,
                "unknown-provider",
                address,
                f"no schema loaded for provider `{name}` (loaded: {loaded})"
                + suggest(name, self.schemas.providers),
            )
            return
        schema = self.schemas.provider_config(name)
        if schema is None:
            self.out.note(
                block.line,
                "provider-not-checked",
                address,
                f"the schema file for `{name}` has no provider configuration schema; "
                "only its meta-arguments are known",
            )
            return
        BodyChecker(self.out, address).check(
            block.body, schema, block.line, meta=builtin.PROVIDER_META_ARGUMENTS
        )

    def _terraform(self, block: Block) -> None:
        self.blocks += 1
        body = block.body
        meta = ("required_providers", "backend", "cloud", "provider_meta")
        checker = BodyChecker(self.out, "terraform")
        checker.check(body, builtin.TERRAFORM, block.line, meta=meta)
        for required in body.blocks_of("required_providers"):
            for attr in required.body.attributes:
                self._required_provider(attr.name, attr.value, attr.line)
        backends = body.blocks_of("backend")
        for extra in [*backends[1:], *body.blocks_of("cloud")[: 1 if backends else 0]]:
            self.out.add(extra.line, "block-count", "terraform", "only one backend or cloud block")
        for backend in backends:
            kind = backend.labels[0] if len(backend.labels) == 1 else ""
            schema = builtin.BACKENDS.get(kind)
            if schema is None:
                self.out.add(
                    backend.line,
                    "unknown-backend",
                    "terraform",
                    f"unknown backend type `{kind}`" + suggest(kind, builtin.BACKENDS),
                )
                continue
            sub = BodyChecker(self.out, f"terraform.backend.{kind}")
            sub.check(backend.body, schema, backend.line)
        for cloud in body.blocks_of("cloud"):
            BodyChecker(self.out, "terraform.cloud").check(cloud.body, builtin.CLOUD, cloud.line)

    def _required_provider(self, name: str, value: object, line: int) -> None:
        address = f"terraform.required_providers.{name}"
        if not isinstance(value, dict):
            return  # legacy "version" string or an expression
        for key in value:
            key = str(key).strip('"')
            if key not in builtin.REQUIRED_PROVIDER_KEYS:
                self.out.add(
                    line,
                    "unknown-attribute",
                    address,
                    f"unknown key `{key}`" + suggest(key, builtin.REQUIRED_PROVIDER_KEYS),
                )


def check(
    paths: Iterable[Path], schemas: ProviderSchemas, rules: RuleChecker | None = None
) -> CheckReport:
    """Check every .tf file under ``paths``.

    Args:
        paths: Files and directories (searched recursively).
        schemas: The provider schemas.
        rules: Provider rules to apply as well (see :mod:`gpuplat.conformance.rulecheck`).

    Returns:
        Violations, notes and what was covered.

    Raises:
        FileNotFoundError: When a path does not exist.
    """
    paths = list(paths)
    modules = ModuleCalls()
    custom = CustomResources(modules)
    errors: list[Violation] = []
    notes: list[Violation] = []
    files = blocks = 0
    checked: list[Path] = []
    for path in iter_tf_files(paths):
        checker = FileChecker(path, schemas, modules, custom, rules)
        for found in checker.run():
            (notes if found.severity == "note" else errors).append(found)
        files += 1
        blocks += checker.blocks
        checked.append(path)
    errors.extend(undeclared_aliases(checked, modules.parsed))
    in_yaml, manifests = check_yaml(paths, custom.result)
    errors.extend(in_yaml)
    counts = rules.counts() if rules is not None else {}
    return CheckReport(
        tuple(sorted(errors)),
        tuple(notes),
        files,
        blocks,
        custom.result.coverage,
        manifests,
        counts,
    )


def check_paths(paths: Iterable[Path], schemas: ProviderSchemas) -> list[Violation]:
    """Check every .tf file under ``paths`` and return the violations (notes left out).

    Args:
        paths: Files and directories (searched recursively).
        schemas: The provider schemas.

    Returns:
        The violations, sorted by file and line.

    Raises:
        FileNotFoundError: When a path does not exist.
    """
    return list(check(paths, schemas).violations)
