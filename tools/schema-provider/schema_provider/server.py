"""The provider process: go-plugin handshake, AutoMTLS and the tfplugin6 Provider service.

Terraform starts the provider with TF_PLUGIN_MAGIC_COOKIE and (AutoMTLS) PLUGIN_CLIENT_CERT in
the environment and reads one line from its stdout::

    CORE-PROTOCOL-VERSION|APP-PROTOCOL-VERSION|NETWORK|ADDRESS|PROTOCOL|SERVER-CERT

i.e. ``1|6|unix|/tmp/.../plugin.sock|grpc|<base64 DER, no padding>``. It then talks gRPC over
TLS, trusting exactly the certificate in that line. Messages are written with
:mod:`schema_provider.wire` and passed to grpcio as raw bytes, so no protobuf code generation
is involved.
"""

from __future__ import annotations

import base64
import datetime
import os
import shutil
import signal
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import grpc

from . import PROTOCOL_VERSION, manifests, plan, record, rules, wire

MAGIC_COOKIE_KEY = "TF_PLUGIN_MAGIC_COOKIE"
MAGIC_COOKIE_VALUE = "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2"
CORE_PROTOCOL_VERSION = 1

Unary = Callable[[bytes, grpc.ServicerContext], bytes]


class SchemaProvider:
    """The tfplugin6.Provider service, answering from a precompiled GetProviderSchema reply."""

    def __init__(
        self,
        name: str,
        schema_response: bytes,
        metadata_response: bytes,
        mode: str | None = None,
        version: str = "",
    ) -> None:
        """``mode`` is the value of SCHEMA_PROVIDER_MODE: None or "" (schema only) or "record";
        ``version`` the provider version served, whose provider rules validation applies."""
        self.name = name
        self.schema_response = schema_response
        self.metadata_response = metadata_response
        self.mode = mode
        self.version = version
        self._resource_blocks: dict[str, plan.Block] | None = None
        self._rules: rules.Rules | None = None

    @property
    def rules(self) -> rules.Rules:
        """The provider rules of this provider version (:mod:`schema_provider.rules`)."""
        if self._rules is None:
            self._rules = rules.Rules(self.name, self.version, self.schema_response)
        return self._rules

    def plan_resource_change(self, request: bytes, _context: grpc.ServicerContext) -> bytes:
        """Plan as configured, computed values unknown (see :mod:`schema_provider.plan`); a
        ``kubernetes_manifest`` is checked against its CRD (:mod:`schema_provider.manifests`)."""
        if self._resource_blocks is None:
            self._resource_blocks = plan.resource_blocks(self.schema_response)
        response = plan.plan_response(request, self._resource_blocks)
        return response + manifests.plan_diagnostics(request) + self.rules.plan(request)

    def refusal(self, rpc: str) -> bytes:
        if self.mode == record.RECORD:
            return wire.error_diagnostic(
                f"terraform-provider-{self.name} here is a schema stand-in in record mode: "
                f"{rpc} is refused",
                "This provider binary is gpuplat's schema stand-in (tools/schema-provider) "
                f"with {record.MODE_ENV}={record.RECORD}: it stores applied objects as planned "
                "and never talks to a cloud, so there is nothing to import, move or open.",
            )
        return wire.error_diagnostic(
            f"terraform-provider-{self.name} here is a schema-only stand-in: {rpc} is refused",
            "This provider binary is gpuplat's schema stand-in (tools/schema-provider). It "
            "serves the real provider schema so that `terraform validate` type-checks a "
            "configuration and `terraform plan` shows what it configures, and it never talks "
            "to a cloud. It cannot read, import or apply anything: use the real provider for "
            "that.",
        )

    def handlers(self) -> dict[str, Unary]:
        """Method name -> handler. Field numbers of `diagnostics` are per tfplugin6.8."""

        def constant(payload: bytes) -> Unary:
            return lambda _request, _context: payload

        def refuse(rpc: str, diagnostics_field: int) -> Unary:
            payload = wire.length_delimited(diagnostics_field, self.refusal(rpc))
            return constant(payload)

        def refuse_function(_request: bytes, _context: grpc.ServicerContext) -> bytes:
            # CallFunction.Response.error (2) is a FunctionError{text = 1}.
            return wire.message(2, wire.string(1, "the schema stand-in provider has no functions"))

        ok = constant(b"")  # an empty response: no diagnostics
        schema = self.schema_response
        configure = ok
        bad_mode = record.mode_error(self.mode)
        if bad_mode is not None:
            # A misspelt mode must not quietly fall back to refusals (or the other way round):
            # fail loading the schema (validate, plan) and configuring (plan, apply).
            diagnostic = wire.error_diagnostic(f"terraform-provider-{self.name}: {bad_mode}", "")
            schema += wire.length_delimited(4, diagnostic)  # appended fields merge
            configure = constant(wire.length_delimited(1, diagnostic))
        handlers = {
            "GetMetadata": constant(self.metadata_response),
            "GetProviderSchema": constant(schema),
            "ValidateProviderConfig": ok,
            "ValidateResourceConfig": lambda request, _c: self.rules.validate(request, False),
            "ValidateDataResourceConfig": lambda request, _c: self.rules.validate(request, True),
            "ValidateEphemeralResourceConfig": ok,
            "GetFunctions": ok,
            "GetResourceIdentitySchemas": ok,  # protocol 6.9 (Terraform 1.12+): none
            "StopProvider": ok,
            # Configuring is accepted (there is nothing to connect to) so that plans can run.
            "ConfigureProvider": configure,
            "UpgradeResourceState": refuse("UpgradeResourceState", 2),
            "ReadResource": refuse("ReadResource", 2),
            "PlanResourceChange": self.plan_resource_change,
            "ApplyResourceChange": refuse("ApplyResourceChange", 3),
            "ImportResourceState": refuse("ImportResourceState", 2),
            "MoveResourceState": refuse("MoveResourceState", 2),
            "ReadDataSource": refuse("ReadDataSource", 2),
            "OpenEphemeralResource": refuse("OpenEphemeralResource", 1),
            "RenewEphemeralResource": refuse("RenewEphemeralResource", 1),
            "CloseEphemeralResource": refuse("CloseEphemeralResource", 1),
            "CallFunction": refuse_function,
        }
        if self.mode == record.RECORD:
            handlers.update(self._record_handlers())
        return handlers

    def _record_handlers(self) -> dict[str, Unary]:
        """Record mode (see :mod:`schema_provider.record`): apply, read and upgrade answered."""
        recorder = record.Recorder.from_environment(self.name, self.schema_response)
        return {
            "ApplyResourceChange": lambda request, _context: recorder.apply(request),
            "ReadResource": lambda request, _context: recorder.read(request),
            "UpgradeResourceState": lambda request, _context: recorder.upgrade(request),
            "ReadDataSource": lambda request, _context: recorder.read_data_source(request),
        }


class _Router(grpc.GenericRpcHandler):
    """Routes /service/method to raw-bytes handlers; anything else is UNIMPLEMENTED."""

    def __init__(self, provider: SchemaProvider, shutdown: threading.Event) -> None:
        self.unary: dict[str, Unary] = {
            f"/tfplugin6.Provider/{name}": fn for name, fn in provider.handlers().items()
        }
        self.shutdown = shutdown

        def stop(_request: bytes, _context: grpc.ServicerContext) -> bytes:
            shutdown.set()
            return b""

        def serving(_request: bytes, _context: grpc.ServicerContext) -> bytes:
            return wire.integer(1, 1)  # HealthCheckResponse{status: SERVING}

        self.unary["/plugin.GRPCController/Shutdown"] = stop
        self.unary["/grpc.health.v1.Health/Check"] = serving

    def _stdio(self, _request: bytes, _context: grpc.ServicerContext) -> Iterator[bytes]:
        # go-plugin opens this stream to copy the plugin's stdout/stderr; the stand-in writes
        # nothing there, so hold the stream open until shutdown and then end it.
        self.shutdown.wait()
        return iter(())

    def service(
        self, handler_call_details: grpc.HandlerCallDetails
    ) -> grpc.RpcMethodHandler | None:
        method = handler_call_details.method
        if method in self.unary:
            return grpc.unary_unary_rpc_method_handler(self.unary[method])
        if method == "/plugin.GRPCStdio/StreamStdio":
            return grpc.unary_stream_rpc_method_handler(self._stdio)
        return None


def _self_signed_certificate() -> tuple[bytes, bytes, bytes]:
    """(cert PEM, key PEM, cert DER) for CN/SAN localhost, as go-plugin's client expects."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost")]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=True,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(
            x509.ExtendedKeyUsage(
                [ExtendedKeyUsageOID.SERVER_AUTH, ExtendedKeyUsageOID.CLIENT_AUTH]
            ),
            critical=False,
        )
        .sign(key, hashes.SHA256())
    )
    key_pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    return (
        cert.public_bytes(serialization.Encoding.PEM),
        key_pem,
        cert.public_bytes(serialization.Encoding.DER),
    )


def serve(provider: SchemaProvider) -> int:
    if os.environ.get(MAGIC_COOKIE_KEY) != MAGIC_COOKIE_VALUE:
        print(
            f"terraform-provider-{provider.name}: this is a Terraform plugin (gpuplat's schema "
            "stand-in); Terraform starts it, it is not meant to be run by hand.",
            file=sys.stderr,
        )
        return 1
    offered = os.environ.get("PLUGIN_PROTOCOL_VERSIONS", str(PROTOCOL_VERSION)).split(",")
    if str(PROTOCOL_VERSION) not in offered:
        print(
            f"terraform-provider-{provider.name}: speaks plugin protocol {PROTOCOL_VERSION}, "
            f"Terraform offered {offered}",
            file=sys.stderr,
        )
        return 1

    shutdown = threading.Event()
    server = grpc.server(
        thread_pool=ThreadPoolExecutor(max_workers=16),
        handlers=[_Router(provider, shutdown)],
        options=[("grpc.max_send_message_length", -1), ("grpc.max_receive_message_length", -1)],
    )
    # A Unix socket in a private directory: only this user can connect (go-plugin servers
    # written in Go listen the same way on Unix).
    socket_dir = Path(tempfile.mkdtemp(prefix=f"tf-{provider.name}-stand-in-"))
    socket_path = socket_dir / "plugin.sock"
    try:
        if os.environ.get("PLUGIN_CLIENT_CERT"):
            # AutoMTLS: Terraform trusts exactly the certificate named in the handshake. It
            # also offers a client certificate, but go-plugin makes that one ECDSA P-521, which
            # BoringSSL (grpcio's TLS) does not accept for client authentication, so Go would
            # send none and a required client certificate fails every connection
            # (PEER_DID_NOT_RETURN_A_CERTIFICATE). The socket's permissions stand in for it.
            cert_pem, key_pem, cert_der = _self_signed_certificate()
            credentials = grpc.ssl_server_credentials([(key_pem, cert_pem)])
            bound = server.add_secure_port(f"unix:{socket_path}", credentials)
            # go-plugin decodes the certificate with base64.RawStdEncoding: no padding.
            cert_field = "|" + base64.b64encode(cert_der).decode("ascii").rstrip("=")
        else:  # TF_DISABLE_PLUGIN_TLS: plain gRPC
            bound = server.add_insecure_port(f"unix:{socket_path}")
            cert_field = ""
        if not bound:
            print(
                f"terraform-provider-{provider.name}: cannot listen on {socket_path}",
                file=sys.stderr,
            )
            return 1
        server.start()
        handshake = f"{CORE_PROTOCOL_VERSION}|{PROTOCOL_VERSION}|unix|{socket_path}|grpc"
        sys.stdout.write(handshake + cert_field + "\n")
        sys.stdout.flush()

        # Terraform ends the plugin through GRPCController.Shutdown, or kills it. Ctrl-C goes
        # to the whole process group; like go-plugin servers, leave that to Terraform.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, lambda *_: shutdown.set())
        shutdown.wait()
        server.stop(grace=0.2).wait()
        return 0
    finally:
        shutil.rmtree(socket_dir, ignore_errors=True)
