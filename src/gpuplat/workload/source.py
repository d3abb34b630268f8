"""Where a model's weights live, read from its source URI (no cloud decides anything here)."""

from __future__ import annotations


def split_source(source: str) -> tuple[str, str, str]:
    """(scheme, bucket or host, path) of a URI such as ``gs://bucket/a/b``, path without
    leading or trailing slashes."""
    scheme, _, rest = source.partition("://")
    bucket, _, path = rest.partition("/")
    return scheme, bucket, path.strip("/")


def copied_from_s3(source: str, mount: str) -> bool:
    """The weights are copied from S3 by an init container (every mount but ``image`` copies
    where the cloud has no bucket mount for S3)."""
    return split_source(source)[0] == "s3" and mount != "image"
