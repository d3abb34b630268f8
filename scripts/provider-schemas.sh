#!/usr/bin/env bash
# Generate provider schema files (`terraform providers schema -json`, one file per provider,
# named <name>-<version>.json) with the real terraform binary.
#
# Usage: scripts/provider-schemas.sh OUTDIR
#
# Environment:
#   TERRAFORM          terraform binary (default: terraform on PATH)
#   TF_PLUGIN_MIRROR   filesystem mirror tried first for each provider (default: /opt/tf-plugins)
#   PROVIDERS          space-separated name=version list (hashicorp namespace); default:
#                      "google=6.50.0 kubernetes=2.38.0 helm=3.0.2 azurerm=4.79.0 aws=5.100.0"
#   PYTHON             python used to split the JSON (default: python3)
#
# A provider found in the mirror is installed from it alone; any other is downloaded from the
# registry. Providers that cannot be installed are listed at the end and the script exits 1,
# after writing the schemas it could produce.
set -euo pipefail

if [[ $# -ne 1 ]]; then
  echo "usage: $0 OUTDIR" >&2
  exit 2
fi
outdir=$1
terraform=${TERRAFORM:-terraform}
mirror=${TF_PLUGIN_MIRROR:-/opt/tf-plugins}
providers=${PROVIDERS:-"google=6.50.0 kubernetes=2.38.0 helm=3.0.2 azurerm=4.79.0 aws=5.100.0"}
python=${PYTHON:-python3}

command -v "$terraform" >/dev/null || { echo "error: terraform not found ($terraform)" >&2; exit 2; }
command -v "$python" >/dev/null || { echo "error: python not found ($python)" >&2; exit 2; }
mkdir -p "$outdir"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

failed=()
for spec in $providers; do
  name=${spec%%=*}
  version=${spec#*=}
  root="$work/$name"
  mkdir -p "$root"
  cat >"$root/main.tf" <<EOF
terraform {
  required_providers {
    $name = {
      source  = "hashicorp/$name"
      version = "= $version"
    }
  }
}
EOF
  rc="$root/terraformrc"
  if compgen -G "$mirror/registry.terraform.io/hashicorp/$name/$version/*/terraform-provider-$name*" >/dev/null; then
    origin="filesystem mirror $mirror"
    cat >"$rc" <<EOF
disable_checkpoint = true
provider_installation {
  filesystem_mirror {
    path    = "$mirror"
    include = ["registry.terraform.io/hashicorp/$name"]
  }
}
EOF
  else
    origin="registry.terraform.io (not in mirror $mirror)"
    echo 'disable_checkpoint = true' >"$rc"
  fi
  echo "==> $name $version from $origin" >&2
  export TF_CLI_CONFIG_FILE="$rc" TF_IN_AUTOMATION=1 CHECKPOINT_DISABLE=1 TF_INPUT=0
  if ! (cd "$root" && "$terraform" init -input=false -backend=false -no-color >"$root/init.log" 2>&1); then
    echo "error: cannot install hashicorp/$name $version from $origin:" >&2
    grep -v '^\s*$' "$root/init.log" | sed -n '1,12s/^/    /p' >&2
    failed+=("$name=$version")
    continue
  fi
  (cd "$root" && "$terraform" providers schema -json) >"$root/schema.json"
  "$python" - "$root/schema.json" "$outdir" "$name" "$version" <<'PY'
import json
import sys
from pathlib import Path

source, outdir, name, version = sys.argv[1], Path(sys.argv[2]), sys.argv[3], sys.argv[4]
doc = json.loads(Path(source).read_text(encoding="utf-8"))
for address, schema in doc.get("provider_schemas", {}).items():
    local = address.rsplit("/", 1)[-1]
    if local != name:
        continue
    schema.setdefault("version", version)
    out = outdir / f"{local}-{version}.json"
    single = {"format_version": doc.get("format_version", "1.0"), "provider_schemas": {address: schema}}
    out.write_text(json.dumps(single, sort_keys=True), encoding="utf-8")
    print(f"    wrote {out}", file=sys.stderr)
    break
else:
    sys.exit(f"error: terraform printed no schema for {name}")
PY
done

if [[ ${#failed[@]} -gt 0 ]]; then
  echo "error: no schema for: ${failed[*]} (the registry is not reachable from here?)" >&2
  exit 1
fi
