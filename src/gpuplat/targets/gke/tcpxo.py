"""GPUDirect-TCPXO on A3 Mega (a3-megagpu-8g): what a group's pod and the cluster's platform
take, as GoogleCloudPlatform/container-engine-accelerators publishes them (commit 992db81,
2026-06-11):

- ``gpudirect-tcpxo/nccl-tcpxo-installer.yaml``: a DaemonSet on nodes of the A3 Mega accelerator
  that binds the NICs' aperture devices under /dev/aperture_devices and installs the TCPXO NCCL
  plugin (and NCCL) next to the driver's libraries;
- ``nri_device_injector/nri-device-injector.yaml``: a DaemonSet that hands the GPU device nodes
  named in a pod's ``devices.gke.io/container.<name>`` annotation to that container;
- ``gpudirect-tcpxo/nccl-test-latest.yaml`` and ``best-practice.md``: every pod runs the
  tcpxo-daemon (RxDM) beside NCCL, as a native sidecar (an init container that restarts, GKE
  1.29 and later), with the GPUs injected, /sys and /proc/sys of the node, NET_ADMIN and
  NET_BIND_SERVICE; NCCL reads /dev/aperture_devices and sources the plugin's
  ``nccl-env-profile.sh`` (``README.md``, release of Jan 9, 2026: installer v1.0.15, daemon
  v1.0.21);
- ``best-practice.md``, "Setup Startup Probe for the TCPXO-daemon Sidecar": given
  ``HEALTH_CHECK_LOG_FILE``, the daemon creates that file once its initialization is done
  (about 30 s; never on a node whose host components are broken), and a startup probe reads it.
"""

from __future__ import annotations

from gpuplat.targets.fabric import HostMount, Sidecar, StartupCheck

ACCELERATOR = "nvidia-h100-mega-80gb"
"""The GKE accelerator of a3-megagpu-8g nodes (the installer's node affinity)."""
INSTALLER_IMAGE = (
    "us-docker.pkg.dev/gce-ai-infra/gpudirect-tcpxo/nccl-plugin-gpudirecttcpx-dev:v1.0.15"
)
DAEMON_IMAGE = "us-docker.pkg.dev/gce-ai-infra/gpudirect-tcpxo/tcpgpudmarxd-dev:v1.0.21"
NRI_IMAGE = (
    "gcr.io/gke-release/nri-device-injector"
    "@sha256:6e79483d52abdc28454bf186320b10a56b0f117a10e8d65d5c74dbb821a76970"
)
TOOLS_IMAGE = "ubuntu:24.04"
"""The installer's first init container enters the node's namespaces (nsenter) from a plain
Ubuntu image (Google's manifest names ``ubuntu``; pinned here to a release)."""
NVIDIA_HOST = "/home/kubernetes/bin/nvidia/lib64"
NVIDIA_LIB = "/usr/local/nvidia/lib64"
APERTURE = "/dev/aperture_devices"
NCCL_ENV_SCRIPT = f". {NVIDIA_LIB}/nccl-env-profile.sh"
"""The plugin's script sets NCCL's FasTrak interfaces, tuner and chunk sizes for A3 Mega."""
DAEMON = "tcpxo-daemon"
DEVICES = (
    *(f"/dev/nvidia{i}" for i in range(8)),
    "/dev/nvidiactl",
    "/dev/nvidia-uvm",
    "/dev/dmabuf_import_helper",
)
"""The device nodes the NRI injector gives the daemon (it requests no GPU itself)."""
MIN_MINOR = (1, 29)
"""Native sidecars are on by default from GKE 1.29 (best-practice.md, Automatic Sidecar
Termination); TCPXO itself needs 1.28.9-gke.1289000 or later (README.md, May 2024 onward)."""


HEALTH_FILE = "/run/health-check"
"""Where the daemon writes that it is initialized (the name must not hold an underscore)."""
STARTUP = StartupCheck(
    command=("cat", HEALTH_FILE),
    initial_delay_seconds=1,
    period_seconds=5,
    timeout_seconds=1,
    failure_threshold=24,
)
"""The daemon's startup probe. As a native sidecar's, it holds the server (and so NCCL) back
until RxDM is up. best-practice.md's example allows 6 failures 5 s apart (31 s) against an
initialization of about 30 s; a failed probe restarts the daemon, and LeaderWorkerSet then
recreates the whole group (an init container's restart counts as the pod's), which would never
start on a slow but healthy node, so gpuplat allows 24 (2 minutes). On a good node the probe
passes as soon as the file is there; only a bad node's failure is reported later."""


def devices_annotation() -> str:
    """The NRI injector's annotation value: a YAML list of the daemon's device paths."""
    return "".join(f"- path: {d}\n" for d in DEVICES)


def daemon() -> Sidecar:
    """The tcpxo-daemon (RxDM) sidecar of every pod of a group."""
    return Sidecar(
        name=DAEMON,
        image=DAEMON_IMAGE,
        command=(
            "/bin/sh",
            "-c",
            "set -ex\nchmod 755 /fts/entrypoint_rxdm_container.sh\n"
            "/fts/entrypoint_rxdm_container.sh --num_hops=2 --num_nics=8",
        ),
        env={"LD_LIBRARY_PATH": NVIDIA_LIB, "HEALTH_CHECK_LOG_FILE": HEALTH_FILE},
        capabilities=("NET_ADMIN", "NET_BIND_SERVICE"),
        mounts=(
            # Writable as in Google's pods: RxDM tunes the node's network through them.
            HostMount("nvidia", NVIDIA_HOST, NVIDIA_LIB, read_only=False),
            HostMount("sys", "/sys", "/hostsysfs", read_only=False),
            HostMount("proc-sys", "/proc/sys", "/hostprocsysfs", read_only=False),
        ),
        startup=STARTUP,
    )


def server_mounts() -> tuple[HostMount, ...]:
    """NCCL maps the NICs' aperture devices the installer bound under /dev/aperture_devices."""
    return (HostMount("aperture-devices", APERTURE, APERTURE, read_only=False),)


def server_env() -> dict[str, str]:
    return {
        "LD_LIBRARY_PATH": NVIDIA_LIB,
        "NCCL_LIB_DIR": NVIDIA_LIB,
        "NCCL_FASTRAK_LLCM_DEVICE_DIRECTORY": APERTURE,
    }


def platform_images() -> dict[str, str]:
    """The gpu-platform module's TCPXO images."""
    return {"installer_image": INSTALLER_IMAGE, "nri_image": NRI_IMAGE, "tools_image": TOOLS_IMAGE}
