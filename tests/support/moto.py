"""A real moto (AWS emulator) server for tests, and terraform settings that point at it."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.support.realparts import aws_provider_mirror

REGION = "us-east-1"
AWS_PROVIDER = "registry.terraform.io/hashicorp/aws"
FAKE_CREDENTIALS = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_DEFAULT_REGION": REGION,
}
"""moto accepts any keys; real-looking ones would only risk reaching a real account."""


@dataclass(frozen=True)
class MotoServer:
    """A running moto server."""

    host: str
    port: int

    @property
    def endpoint(self) -> str:
        return f"http://{self.host}:{self.port}"

    def client(self, service: str = "s3") -> Any:
        """A boto3 client for ``service`` talking to this server with fake credentials."""
        import boto3

        return boto3.client(
            service,
            endpoint_url=self.endpoint,
            region_name=REGION,
            aws_access_key_id=FAKE_CREDENTIALS["AWS_ACCESS_KEY_ID"],
            aws_secret_access_key=FAKE_CREDENTIALS["AWS_SECRET_ACCESS_KEY"],
        )

    def create_bucket(self, name: str) -> str:
        """Create an S3 bucket (us-east-1 takes no location constraint) and return its name."""
        self.client("s3").create_bucket(Bucket=name)
        return name


@contextmanager
def moto_server() -> Iterator[MotoServer]:
    """Start moto on 127.0.0.1 with a free port; stop it on exit.

    Use it from a module- or session-scoped fixture, so a test module starts moto once::

        @pytest.fixture(scope="module")
        def moto() -> Iterator[MotoServer]:
            with moto_server() as server:
                yield server

    The server runs in-process (``ThreadedMotoServer``) and so shares moto's in-memory
    backends with any ``mock_aws`` in the same process: do not combine the two in one module.
    """
    from moto.server import ThreadedMotoServer

    # Port 0 lets the OS pick a free port at bind time: no probe-then-bind race between workers.
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    try:
        host, port = server.get_host_and_port()
        yield MotoServer(host=str(host), port=int(port))
    finally:
        server.stop()


def write_cli_config(path: Path, *, mirror: Path | None = None) -> Path:
    """Write a terraform CLI config that installs hashicorp/aws from the filesystem mirror.

    Every other provider still comes from its registry (``direct``), which is unreachable here,
    so a root needing one fails loudly instead of silently using something else.
    """
    mirror = mirror if mirror is not None else aws_provider_mirror()
    path.write_text(
        "disable_checkpoint = true\n"
        "\n"
        "provider_installation {\n"
        "  filesystem_mirror {\n"
        f"    path    = {json.dumps(str(mirror))}\n"
        f"    include = [{json.dumps(AWS_PROVIDER)}]\n"
        "  }\n"
        "  direct {\n"
        f"    exclude = [{json.dumps(AWS_PROVIDER)}]\n"
        "  }\n"
        "}\n",
        encoding="utf-8",
    )
    return path


def s3_backend_settings(endpoint: str, *, bucket: str, key: str) -> dict[str, object]:
    """S3 backend arguments for a moto endpoint, with S3-native locking (``use_lockfile``)."""
    return {
        "bucket": bucket,
        "key": key,
        "region": REGION,
        "use_lockfile": True,
        "endpoints": {"s3": endpoint},
        "use_path_style": True,
        "skip_credentials_validation": True,
        "skip_requesting_account_id": True,
        "skip_metadata_api_check": True,
        "skip_region_validation": True,
    }


def hcl_value(value: object) -> str:
    """A small HCL writer for backend settings: strings, bools, numbers and flat maps."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, Mapping):
        inner = ", ".join(f"{k} = {hcl_value(v)}" for k, v in value.items())
        return f"{{ {inner} }}"
    return json.dumps(str(value))


def write_backend_config(path: Path, settings: Mapping[str, object]) -> Path:
    """Write settings as a file for ``terraform init -backend-config=FILE``."""
    path.write_text(
        "".join(f"{key} = {hcl_value(value)}\n" for key, value in settings.items()),
        encoding="utf-8",
    )
    return path


def aws_provider_block(endpoint: str, services: tuple[str, ...] = ("s3", "iam", "sts")) -> str:
    """A ``provider "aws"`` block that talks only to moto, for roots under test."""
    endpoints = "".join(f"    {service} = {json.dumps(endpoint)}\n" for service in services)
    return (
        'provider "aws" {\n'
        f'  region                      = "{REGION}"\n'
        '  access_key                  = "testing"\n'
        '  secret_key                  = "testing"\n'
        "  skip_credentials_validation = true\n"
        "  skip_requesting_account_id  = true\n"
        "  skip_metadata_api_check     = true\n"
        "  s3_use_path_style           = true\n"
        "  endpoints {\n"
        f"{endpoints}"
        "  }\n"
        "}\n"
    )


def aws_env() -> dict[str, str]:
    """Environment variables terraform's S3 backend needs to talk to moto."""
    return dict(FAKE_CREDENTIALS)
