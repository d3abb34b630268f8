"""The one place gpuplat runs terraform: argv lists, a pinned environment, typed results."""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import NoReturn

from gpuplat.errors import NotRenderedError, TerraformError
from gpuplat.terraform import cachelock, initstamp
from gpuplat.terraform.binary import TerraformBinary
from gpuplat.terraform.decoded import as_object, get_bool, loads
from gpuplat.terraform.diagnostics import TerraformDiagnostic, ValidateResult, parse_validate
from gpuplat.terraform.events import CacheWait, EventCallback
from gpuplat.terraform.process import Exit, run_child
from gpuplat.terraform.results import OutputValue, PlanResult, RunResult
from gpuplat.terraform.showplan import Plan, parse_plan
from gpuplat.terraform.statelock import locked_error
from gpuplat.terraform.tracker import Tracker

_BASE_FLAGS = ("-input=false", "-no-color")
# Go's GC target for terraform and its providers unless GOGC is set: 3x the live heap, not 2x,
# cuts a plan's CPU by a fifth for a tenth more peak memory (docs/plan-apply.md, "Go runtime").
GOGC = "200"


def _absolute(path: Path | None) -> Path | None:
    return None if path is None else path.absolute()


_LineSink = Callable[[str], None]


class Terraform:
    """Runs terraform commands for one root module directory.

    Args:
        binary: The checked binary (see ``find_binary``).
        cwd: The root module to run in.
        data_dir: ``TF_DATA_DIR``: keeps ``.terraform`` out of the rendered root.
        plugin_cache_dir: ``TF_PLUGIN_CACHE_DIR``, shared between roots; created when missing.
        cli_config_file: ``TF_CLI_CONFIG_FILE`` (provider mirrors, credentials).
        env: Extra environment variables (e.g. cloud credentials), applied last.
        lock_timeout: How long plan and apply wait for the state lock before failing.
        tail_lines: How many stderr lines an error keeps.
    """

    def __init__(
        self,
        binary: TerraformBinary,
        cwd: Path,
        *,
        data_dir: Path | None = None,
        plugin_cache_dir: Path | None = None,
        cli_config_file: Path | None = None,
        env: Mapping[str, str] | None = None,
        lock_timeout: str = "0s",
        tail_lines: int = 200,
    ) -> None:
        self.binary = binary
        # Terraform resolves every path it is given against its own working directory (the
        # root), not ours: everything it sees is absolute, whatever folder gpuplat runs from.
        self.cwd = cwd.absolute()
        self.data_dir = _absolute(data_dir)
        self.plugin_cache_dir = _absolute(plugin_cache_dir)
        self.cli_config_file = _absolute(cli_config_file)
        self.extra_env = dict(env or {})
        self.lock_timeout = lock_timeout
        self.tail_lines = tail_lines

    def environment(self) -> dict[str, str]:
        """The child's environment: ours, minus ``TF_CLI_ARGS*``, plus automation settings (and
        ``GOGC`` when unset)."""
        # TF_CLI_ARGS* would change the argv behind our back (e.g. drop -json); everything else
        # the user set (credentials, TF_LOG, proxies) passes through.
        env = {k: v for k, v in os.environ.items() if not k.startswith("TF_CLI_ARGS")}
        env.update({"TF_IN_AUTOMATION": "1", "TF_INPUT": "0", "CHECKPOINT_DISABLE": "1"})
        env.setdefault("GOGC", GOGC)  # the user's wins
        if self.data_dir is not None:
            env["TF_DATA_DIR"] = str(self.data_dir)
        if self.plugin_cache_dir is not None:
            env["TF_PLUGIN_CACHE_DIR"] = str(self.plugin_cache_dir)
        if self.cli_config_file is not None:
            env["TF_CLI_CONFIG_FILE"] = str(self.cli_config_file)
        env.update(self.extra_env)
        return env

    def unlock_command(self, lock_id: str) -> str:
        """The shell command a person can run to release a stuck state lock of this root."""
        prefix = [f"TF_DATA_DIR={shlex.quote(str(self.data_dir))}"] if self.data_dir else []
        argv = [self.binary.path, f"-chdir={self.cwd}", "force-unlock", "-force", lock_id]
        return " ".join([*prefix, *(shlex.quote(a) for a in argv)])

    def init(
        self,
        *,
        backend_config: Mapping[str, str] | None = None,
        backend_config_files: Sequence[Path] = (),
        reconfigure: bool = False,
        upgrade: bool = False,
        on_event: EventCallback | None = None,
    ) -> RunResult:
        """``terraform init``; ``backend_config`` become ``-backend-config=KEY=VALUE`` flags.

        Skipped (an empty result, ``skipped`` set) when the root's ``.terraform`` is still what
        the same init left (see ``initstamp``); ``reconfigure`` and ``upgrade`` always run.

        Raises:
            TerraformError: Init failed.
            TerraformInterrupted: Ctrl-C stopped it.
        """
        # OpenTofu's init has no -json; its text lines arrive as "text" log events instead.
        args = ["init", *_BASE_FLAGS, *(["-json"] if self.binary.flavor == "terraform" else [])]
        args += [f"-backend-config={path.absolute()}" for path in backend_config_files]
        args += [f"-backend-config={k}={v}" for k, v in (backend_config or {}).items()]
        args += ["-reconfigure"] if reconfigure else []
        args += ["-upgrade"] if upgrade else []
        data_dir = self.data_dir or self.cwd / ".terraform"
        run = lambda: self._stream("init", args, on_event, ok=(0,))  # noqa: E731
        always = reconfigure or upgrade
        return initstamp.unless_current(
            self.binary, self.cwd, data_dir, args, self.environment, run=run, always=always
        )

    def validate(self) -> ValidateResult:
        """``terraform validate -json``: returns warnings when valid.

        Raises:
            TerraformError: The configuration is invalid (diagnostics attached).
        """
        argv, exit_, stdout = self._capture(["validate", "-no-color", "-json"])
        try:
            result = parse_validate(stdout)
        except ValueError:
            self._fail("validate", argv, exit_, ())
        if not result.valid:
            self._fail("validate", argv, exit_, result.diagnostics)
        return result

    def plan(
        self,
        out: Path | None = None,
        *,
        destroy: bool = False,
        refresh_only: bool = False,
        variables: Mapping[str, str] | None = None,
        var_files: Sequence[Path] = (),
        replace: Sequence[str] = (),
        on_event: EventCallback | None = None,
    ) -> PlanResult:
        """``terraform plan -detailed-exitcode``, saving the plan to ``out`` when given;
        ``replace`` names resource instances to plan as replaced (``-replace``).

        Raises:
            StateLockedError: Another run holds the state lock.
            TerraformError: Planning failed.
            TerraformInterrupted: Ctrl-C stopped it.
        """
        args = ["plan", *_BASE_FLAGS, "-json", "-detailed-exitcode"]
        args += [f"-lock-timeout={self.lock_timeout}"]
        args += [f"-out={out.absolute()}"] if out is not None else []
        args += ["-destroy"] if destroy else []
        args += ["-refresh-only"] if refresh_only else []
        args += [f"-var-file={path.absolute()}" for path in var_files]
        args += [f"-var={k}={v}" for k, v in (variables or {}).items()]
        args += [f"-replace={address}" for address in replace]
        run = self._stream("plan", args, on_event, ok=(0, 2))
        return PlanResult(
            argv=run.argv,
            returncode=run.returncode,
            events=run.events,
            stderr_tail=run.stderr_tail,
            plan_file=out,
            has_changes=run.returncode == 2,
        )

    def apply(self, plan_file: Path, *, on_event: EventCallback | None = None) -> RunResult:
        """``terraform apply PLANFILE``: applies exactly a saved plan, never a fresh one.

        Raises:
            StateLockedError: Another run holds the state lock.
            TerraformError: Applying failed (a stale plan is refused by terraform this way too).
            TerraformInterrupted: Ctrl-C stopped it.
        """
        args = ["apply", *_BASE_FLAGS, "-json", f"-lock-timeout={self.lock_timeout}"]
        return self._stream("apply", [*args, str(plan_file.absolute())], on_event, ok=(0,))

    def refresh(self, *, on_event: EventCallback | None = None) -> RunResult:
        """``terraform apply -refresh-only -auto-approve``: the state (and the root outputs)
        brought up to date with the real objects. It never changes an object, only the state.

        Raises:
            StateLockedError: Another run holds the state lock.
            TerraformError: Terraform failed.
        """
        args = ["apply", *_BASE_FLAGS, "-json", "-refresh-only", "-auto-approve"]
        args += [f"-lock-timeout={self.lock_timeout}"]
        return self._stream("apply", args, on_event, ok=(0,))

    def show_plan(self, plan_file: Path) -> Plan:
        """``terraform show -json PLANFILE``, parsed.

        Raises:
            TerraformError: Show failed or printed something that is not a 1.x plan.
        """
        argv, exit_, stdout = self._capture(
            ["show", "-no-color", "-json", str(plan_file.absolute())]
        )
        if exit_.returncode != 0:
            self._fail("show", argv, exit_, ())
        try:
            return parse_plan(stdout)
        except ValueError as exc:
            raise TerraformError(
                f"cannot read the plan {plan_file}: {exc}", argv=argv, returncode=0
            ) from exc

    def outputs(self) -> dict[str, OutputValue]:
        """``terraform output -json``: every root output by name.

        Raises:
            TerraformError: The command failed.
        """
        argv, exit_, stdout = self._capture(["output", "-no-color", "-json"])
        if exit_.returncode != 0:
            self._fail("output", argv, exit_, ())
        try:
            data = as_object(loads(stdout or "{}"))
        except ValueError as exc:
            raise TerraformError(f"unreadable `terraform output -json`: {exc}", argv=argv) from exc
        return {
            name: OutputValue(
                name=name,
                value=as_object(entry).get("value"),
                type=as_object(entry).get("type"),
                sensitive=get_bool(as_object(entry), "sensitive"),
            )
            for name, entry in data.items()
        }

    def state_list(self) -> list[str]:
        """``terraform state list``: every resource instance address in the state (none before
        the first apply).

        Raises:
            TerraformError: The command failed.
        """
        argv, exit_, stdout = self._capture(["state", "list", "-no-color"])
        if exit_.returncode != 0 and "No state file was found" in exit_.stderr_tail:
            return []  # a local backend before the first apply
        if exit_.returncode != 0:
            self._fail("state list", argv, exit_, ())
        return [line.strip() for line in stdout.splitlines() if line.strip()]

    def state_pull(self) -> str:
        """``terraform state pull``: the state as JSON text (empty before the first apply).

        Raises:
            TerraformError: The command failed.
        """
        argv, exit_, stdout = self._capture(["state", "pull"])
        if exit_.returncode != 0:
            self._fail("state pull", argv, exit_, ())
        return stdout

    def state_push(self, state_file: Path) -> None:
        """``terraform state push FILE`` into this root's (empty) backend state.

        Raises:
            TerraformError: Terraform refused (e.g. the backend already holds another state).
        """
        argv, exit_, _ = self._capture(["state", "push", str(state_file.absolute())])
        if exit_.returncode != 0:
            self._fail("state push", argv, exit_, ())

    def state_move(self, source: Path, target: Path, address: str) -> None:
        """Move ``address`` from one local state file to another (``state mv -state-out``).

        Runs in a folder without a backend: ``-state`` only addresses local state files.

        Raises:
            TerraformError: Terraform refused.
        """
        args = ["state", "mv", f"-state={source.absolute()}", f"-state-out={target.absolute()}"]
        argv, exit_, _ = self._capture([*args, address, address])
        if exit_.returncode != 0:
            self._fail("state mv", argv, exit_, ())

    def fmt(self) -> None:
        """``terraform fmt -recursive``: rewrite every ``.tf`` file under the folder in place.

        Raises:
            TerraformError: A file is not valid HCL (terraform's message says where).
        """
        argv, exit_, _ = self._capture(["fmt", "-no-color", "-list=false", "-recursive"])
        if exit_.returncode != 0:
            self._fail("fmt", argv, exit_, ())

    def force_unlock(self, lock_id: str) -> None:
        """``terraform force-unlock -force LOCK_ID``; only for a lock whose holder is gone.

        Raises:
            TerraformError: Terraform refused (e.g. no such lock).
        """
        argv, exit_, _ = self._capture(["force-unlock", "-no-color", "-force", lock_id])
        if exit_.returncode != 0:
            self._fail("force-unlock", argv, exit_, ())

    def _stream(
        self, verb: str, args: list[str], on_event: EventCallback | None, *, ok: tuple[int, ...]
    ) -> RunResult:
        argv = (self.binary.path, *args)
        tracker = Tracker(on_event)
        exit_ = self._run(argv, tracker.line, tracker)
        if exit_.interrupts:
            raise tracker.interrupted_error(
                verb=verb,
                argv=argv,
                cwd=self.cwd,
                returncode=exit_.returncode,
                interrupts=exit_.interrupts,
                stderr_tail=exit_.stderr_tail,
            )
        if exit_.returncode not in ok:
            self._fail(verb, argv, exit_, tracker.diagnostics)
        return RunResult(argv, exit_.returncode, tuple(tracker.events), exit_.stderr_tail)

    def _capture(self, args: list[str]) -> tuple[tuple[str, ...], Exit, str]:
        argv = (self.binary.path, *args)
        chunks: list[str] = []
        tracker = Tracker(None)
        exit_ = self._run(argv, chunks.append, tracker)
        if exit_.interrupts:
            raise tracker.interrupted_error(
                verb=args[0],
                argv=argv,
                cwd=self.cwd,
                returncode=exit_.returncode,
                interrupts=exit_.interrupts,
                stderr_tail=exit_.stderr_tail,
            )
        return argv, exit_, "".join(chunks)

    def _run(self, argv: Sequence[str], on_line: _LineSink, tracker: Tracker) -> Exit:
        if not self.cwd.is_dir():
            raise NotRenderedError(
                f"there is no Terraform root at {self.cwd}",
                hint="render it first: `gpuplat render` (`gpuplat plan` renders by itself)",
            )
        env = self.environment()
        cache = cachelock.cache_folder(env, self.cwd)

        def waiting(what: str) -> None:
            tracker.notify(CacheWait(type="gpuplat_cache_wait", message=what, cache=str(cache)))

        writes = tuple(argv[1:2]) == ("init",)
        with cachelock.turn(cache, writes=writes, on_wait=waiting):
            return self._child(argv, on_line, tracker, env)

    def _child(
        self, argv: Sequence[str], on_line: _LineSink, tracker: Tracker, env: dict[str, str]
    ) -> Exit:
        return run_child(
            argv,
            cwd=self.cwd,
            env=env,
            on_line=on_line,
            on_interrupt=tracker.interrupted,
            tail_lines=self.tail_lines,
        )

    def _fail(
        self,
        verb: str,
        argv: Sequence[str],
        exit_: Exit,
        diagnostics: Sequence[TerraformDiagnostic],
    ) -> NoReturn:
        locked = locked_error(
            diagnostics, argv=argv, where=str(self.cwd), unlock_command=self.unlock_command
        )
        if locked is not None:
            raise locked
        errors = [d for d in diagnostics if d.is_error] or list(diagnostics)
        details = [line for d in errors for line in d.to_lines(self.cwd)]
        if not details:
            details = [line for line in exit_.stderr_tail.splitlines() if line.strip()][-20:]
        raise TerraformError(
            f"terraform {verb} failed in {self.cwd} (exit {exit_.returncode})",
            details=tuple(details),
            argv=tuple(argv),
            returncode=exit_.returncode,
            diagnostics=tuple(diagnostics),
            stderr_tail=exit_.stderr_tail,
        )
