"""The Makefile and CI workflow `gpuplat init` writes into a project."""

from __future__ import annotations

from gpuplat import __version__

MAKEFILE = """\
# Written by gpuplat init. Targets per environment: make plan ENV=dev
ENV     ?= dev
GPUPLAT ?= gpuplat

.PHONY: validate render check plan apply destroy drift output

validate:
\t$(GPUPLAT) validate --strict

render:
\t$(GPUPLAT) render

# The CI gate: the spec is valid and the committed Terraform is what it renders.
check:
\t$(GPUPLAT) validate --strict
\t$(GPUPLAT) render --check

# Exit code 10 means "the plan has changes"; make treats it as success here.
plan:
\t$(GPUPLAT) plan $(ENV) || test $$? -eq 10

apply:
\t$(GPUPLAT) apply $(ENV)

destroy:
\t$(GPUPLAT) destroy $(ENV)

drift:
\t$(GPUPLAT) drift $(ENV)

output:
\t$(GPUPLAT) output $(ENV)
"""

WORKFLOW = """\
# Written by gpuplat init. Plans every environment on pull requests (the summary is kept as an
# artifact for review) and, after merge, applies a fresh saved plan per environment in order.
# Protect the `prod` environment in the repository settings so its job waits for a reviewer.
name: gpuplat

on:
  pull_request:
  push:
    branches: [main]

permissions:
  contents: read

env:
  # Where pip installs gpuplat from: any pip requirement. The default pins the gpuplat version
  # that wrote this file, from your package index. To install from elsewhere, set the repository
  # (or organisation) variable GPUPLAT_INSTALL, e.g.
  #   git+https://github.com/<org>/gpuplat@v{version}        (a tag of a gpuplat repository)
  #   https://<host>/gpuplat-{version}-py3-none-any.whl      (a wheel you publish)
  GPUPLAT_INSTALL: ${{{{ vars.GPUPLAT_INSTALL || 'gpuplat=={version}' }}}}

concurrency:
  group: gpuplat-${{ github.ref }}
  cancel-in-progress: false

jobs:
  check:
    runs-on: ubuntu-latest
    steps:
{setup}      - run: gpuplat validate --strict
      - run: gpuplat render --check

  plan:
    if: github.event_name == 'pull_request'
    needs: check
    runs-on: ubuntu-latest
    strategy:
      fail-fast: false
      matrix:
        env: [{envs}]
    steps:
{setup}      # Cloud credentials for planning go here (e.g. google-github-actions/auth or
      # aws-actions/configure-aws-credentials with a read-only role).
      - name: plan
        run: |
          set +e
          gpuplat plan "${{ matrix.env }}" --json > "plan-${{ matrix.env }}.json"
          code=$?
          test $code -eq 0 -o $code -eq 10
      - uses: actions/upload-artifact@v4
        with:
          name: plan-${{ matrix.env }}
          path: plan-${{ matrix.env }}.json

  apply:
    if: github.event_name == 'push'
    needs: check
    runs-on: ubuntu-latest
    strategy:
      max-parallel: 1
      matrix:
        env: [{envs}]
    environment: ${{ matrix.env }}
    steps:
{setup}      # Cloud credentials with write access go here.
      - name: plan
        run: |
          set +e
          gpuplat plan "${{ matrix.env }}" --json > "plan-${{ matrix.env }}.json"
          code=$?
          test $code -eq 0 -o $code -eq 10
      - uses: actions/upload-artifact@v4
        with:
          name: applied-plan-${{ matrix.env }}
          path: plan-${{ matrix.env }}.json
      # Applies exactly the saved plan made above; refuses destroys of clusters, pools and data.
      - run: gpuplat apply "${{ matrix.env }}" --yes
"""


SETUP_STEPS = """\
      - uses: actions/checkout@v4
      - uses: actions/setup-python@v5
        with:
          python-version: "3.12"
      - uses: hashicorp/setup-terraform@v3
        with:
          terraform_version: "1.11.4"
          terraform_wrapper: false
      - name: install gpuplat
        run: |
          pip install "$GPUPLAT_INSTALL" || {
            echo "::error::cannot install gpuplat from '$GPUPLAT_INSTALL': set the repository variable GPUPLAT_INSTALL (see the top of this workflow)"
            exit 1
          }
          gpuplat --version
"""
"""The steps every job starts with: the project, Python with gpuplat, a pinned terraform."""


def scaffold_files(envs: list[str]) -> dict[str, str]:
    """Files init writes beside the spec: a Makefile and a GitHub Actions workflow."""
    workflow = WORKFLOW.replace("{setup}", SETUP_STEPS).replace("{envs}", ", ".join(envs))
    workflow = (
        workflow.replace("{{{{", "{{").replace("}}}}", "}}").replace("{version}", __version__)
    )
    return {"Makefile": MAKEFILE, ".github/workflows/gpuplat.yml": workflow}
