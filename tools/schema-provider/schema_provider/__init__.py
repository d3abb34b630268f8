"""A schema-only stand-in for a Terraform provider, served over the plugin protocol v6.

It answers GetProviderSchema with the real provider's schema (taken from a
``terraform providers schema -json`` file) and accepts every Validate* call, so that
``terraform validate`` type-checks a configuration with Terraform's own logic. It plans every
resource as configured (computed values unknown, see :mod:`schema_provider.plan`) and refuses to
apply, read or import: every such call returns an error diagnostic. Record mode
(``SCHEMA_PROVIDER_MODE=record``, :mod:`schema_provider.record`) is the opt-in exception: it
stores applies as planned, with nothing behind them.
"""

__all__ = ["PROTOCOL_VERSION"]

PROTOCOL_VERSION = 6
