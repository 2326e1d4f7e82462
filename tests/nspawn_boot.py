"""Debian 12's own systemd booted in a ``systemd-nspawn`` container, for ``tests/system/test_unit_boot.py``: the
real unit runs under a real systemd, which a machine running the tests as a plain process cannot give.

- The root file system: ``debootstrap --variant=minbase`` of bookworm with systemd, dbus and python3,
  built once and kept under ``/var/tmp/boardkeeper-nspawn`` (``BOARDKEEPER_NSPAWN_CACHE``), keyed by a hash
  of what goes into it; every boot lays a tmpfs over it (``--volatile=overlay``), so each starts clean and
  the cached tree is never written.
- The packages ``install.sh`` fetches: the container has no network (``PrivateNetwork=yes`` needs
  ``--private-network`` to set up its loopback), so pip finds the project's dependencies in a wheelhouse
  downloaded on the host (cached too), and apt finds a local archive of two stand-in packages built here,
  ``python3-lgpio`` and ``python3-smbus2`` (``tests/standin``): the Pi's GPIO and I2C, wired like the
  simulated table.
- nspawn runs in a cgroup of its own, in the cgroup2 hierarchy (and the named systemd one of a hybrid
  layout), with the BPF capabilities and syscall, so that the container's systemd can attach the device
  programs of ``DevicePolicy=`` (without them it silently does not).

``python -m tests.nspawn_boot`` builds the caches alone: ``.ci/run`` runs it before the suite, so that the
debootstrap's two minutes on a new machine are not spent inside the test.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import platform
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Iterator, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STANDIN = Path(__file__).resolve().parent / "standin"
SUITE = "bookworm"
PACKAGES = ("systemd", "systemd-sysv", "dbus", "python3", "python3-venv")
MIRROR = os.environ.get("BOARDKEEPER_DEBIAN_MIRROR", "http://deb.debian.org/debian")
CACHE = Path(os.environ.get("BOARDKEEPER_NSPAWN_CACHE", "/var/tmp/boardkeeper-nspawn"))
INSTALL_HINT = "apt-get install systemd-container debootstrap"
TOOL_PATH = os.pathsep.join([os.environ.get("PATH", ""), "/usr/local/sbin", "/usr/sbin", "/sbin", "/usr/bin", "/bin"])
ENV = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8",
       "SYSTEMD_PAGER": "", "SYSTEMD_COLORS": "0", "DEBIAN_FRONTEND": "noninteractive"}


def cgroup_roots() -> list[Path]:
    """The hierarchies nspawn's own cgroup is made in: the cgroup2 one (``unified`` in a hybrid layout)
    and, in a hybrid layout, the named ``systemd`` one."""
    base = Path("/sys/fs/cgroup")
    if (base / "cgroup.controllers").exists():
        return [base]
    return [base / h for h in ("unified", "systemd") if (base / h / "cgroup.procs").exists()]


def missing() -> str | None:
    """Why nspawn cannot run here, naming the missing part and the command that installs it; None if it can."""
    if os.geteuid() != 0:
        return ("systemd-nspawn needs root: sudo .venv/bin/python -m pytest tests/system/test_unit_boot.py "
                "(CI runs as root)")
    tools = {"systemd-nspawn": INSTALL_HINT, "debootstrap": INSTALL_HINT, "nsenter": "apt-get install util-linux",
             "dpkg-deb": "apt-get install dpkg"}
    absent = [t for t in tools if shutil.which(t, path=TOOL_PATH) is None]
    if absent:
        return f"{', '.join(absent)} not installed: {tools[absent[0]]}"
    if not any(r.name != "systemd" for r in cgroup_roots()):
        return "no cgroup2 hierarchy under /sys/fs/cgroup: the container's systemd needs one"
    return None


@contextlib.contextmanager
def _locked(name: str) -> Iterator[None]:
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def rootfs() -> Path:
    """The debootstrapped tree, built on first use (about two minutes) and kept."""
    key = hashlib.sha256(f"{SUITE} minbase {','.join(PACKAGES)} {MIRROR}".encode()).hexdigest()[:12]
    tree = CACHE / f"{SUITE}-{key}"
    with _locked(tree.name):
        if not (tree / ".complete").exists():
            work = Path(tempfile.mkdtemp(prefix=f"{tree.name}.", dir=CACHE))
            try:
                result = subprocess.run(["debootstrap", "--variant=minbase", f"--include={','.join(PACKAGES)}",
                                         SUITE, str(work), MIRROR], capture_output=True, text=True,
                                        env=dict(os.environ, PATH=TOOL_PATH))
                if result.returncode != 0:
                    raise RuntimeError(f"debootstrap failed:\n{result.stdout[-3000:]}{result.stderr[-3000:]}")
                (work / ".complete").touch()
                shutil.rmtree(tree, ignore_errors=True)
                work.rename(tree)
            finally:
                shutil.rmtree(work, ignore_errors=True)
    return tree


def requirements() -> list[str]:
    """What pip in the container installs: the project's dependencies, the web page's extra (a profile with the
    page on installs it) and its build backend."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return [*project["project"]["dependencies"], *project["project"]["optional-dependencies"]["web"],
            *project["build-system"]["requires"], "wheel"]


def wheelhouse() -> Path:
    """Wheels of the project's dependencies for the container's Python (Debian 12's 3.11), cached by what
    is asked for. smbus2 is left out: the stand-in package provides it, and pip must take that one."""
    wanted = requirements()
    machine = platform.machine()
    key = hashlib.sha256(json.dumps([wanted, machine]).encode()).hexdigest()[:12]
    house = CACHE / f"wheels-{key}"
    with _locked(house.name):
        if not (house / ".complete").exists():
            shutil.rmtree(house, ignore_errors=True)
            platforms = [f"manylinux_2_{n}_{machine}" for n in (36, 34, 31, 28, 27, 17)] + [f"manylinux2014_{machine}"]
            result = subprocess.run([sys.executable, "-m", "pip", "download", "-q", "-d", str(house),
                                     "--only-binary=:all:", "--python-version", "3.11", "--implementation", "cp",
                                     *(a for p in platforms for a in ("--platform", p)), *wanted],
                                    capture_output=True, text=True)
            if result.returncode != 0:
                raise RuntimeError(f"pip download failed:\n{result.stdout[-3000:]}{result.stderr[-3000:]}")
            for wheel in house.glob("smbus2-*"):
                wheel.unlink()
            (house / ".complete").touch()
    return house


def _deb(out: Path, name: str, version: str, files: dict[str, bytes], description: str) -> Path:
    """A binary package of ``files`` (path in the system -> contents), built with dpkg-deb."""
    tree = out / f"{name}.tree"
    for path, data in files.items():
        target = tree / path.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    (tree / "DEBIAN").mkdir(parents=True)
    (tree / "DEBIAN" / "control").write_text(
        f"Package: {name}\nVersion: {version}\nArchitecture: all\nMaintainer: boardkeeper tests <tests@localhost>\n"
        f"Depends: python3\nSection: python\nPriority: optional\nDescription: {description}\n")
    deb = out / f"{name}_{version}_all.deb"
    subprocess.run(["dpkg-deb", "--root-owner-group", "--build", str(tree), str(deb)], check=True,
                   capture_output=True, env=dict(os.environ, PATH=TOOL_PATH))
    shutil.rmtree(tree)
    return deb


def standin_archive(folder: Path) -> Path:
    """A local apt archive (``deb [trusted=yes] file:/srv/standin/apt ./``) with the stand-in packages."""
    apt = folder / "apt"
    apt.mkdir(parents=True)
    site = "/usr/lib/python3/dist-packages"
    debs = [
        _deb(apt, "python3-lgpio", "0.2.2-0standin1", {f"{site}/lgpio.py": (STANDIN / "lgpio.py").read_bytes()},
             "stand-in lgpio for the unit's boot test (tests/standin/lgpio.py)"),
        _deb(apt, "python3-smbus2", "0.6.1-0standin1", {
            f"{site}/smbus2.py": (STANDIN / "smbus2.py").read_bytes(),
            f"{site}/smbus2-0.6.1.dist-info/METADATA": b"Metadata-Version: 2.1\nName: smbus2\nVersion: 0.6.1\n",
            f"{site}/smbus2-0.6.1.dist-info/INSTALLER": b"debian\n"},
            "stand-in smbus2 with an SSD1306 on the bus, for the unit's boot test (tests/standin/smbus2.py)"),
    ]
    stanzas = []
    for deb in debs:
        control = subprocess.run(["dpkg-deb", "--field", str(deb)], check=True, capture_output=True, text=True,
                                 env=dict(os.environ, PATH=TOOL_PATH)).stdout.strip()
        data = deb.read_bytes()
        stanzas.append(f"{control}\nFilename: ./{deb.name}\nSize: {len(data)}\n"
                       f"SHA256: {hashlib.sha256(data).hexdigest()}\n")
    packages = "\n".join(stanzas).encode()
    (apt / "Packages").write_bytes(packages)
    (apt / "Release").write_text(f"Origin: boardkeeper-standin\nLabel: boardkeeper-standin\nSuite: {SUITE}\n"
                                 "Date: Thu, 01 Jan 2026 00:00:00 UTC\n"
                                 f"SHA256:\n {hashlib.sha256(packages).hexdigest()} {len(packages)} Packages\n")
    for path in [folder, apt, *apt.iterdir()]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    return apt


class Container:
    """A booted container: commands run in it through ``nsenter`` into all of its namespaces, as root."""

    def __init__(self, tree: Path, binds: dict[str, Path], name: str, log: Path) -> None:
        self.name = name
        self.log = log
        self.cgroups = [r / name for r in cgroup_roots()]
        for cgroup in self.cgroups:
            cgroup.mkdir(exist_ok=True)
        env = dict(os.environ, SYSTEMD_NSPAWN_UNIFIED_HIERARCHY="1", PATH=TOOL_PATH)
        cmd = ["systemd-nspawn", "-D", str(tree), "--volatile=overlay", "--boot", "--register=no", "--keep-unit",
               "--private-network", "--console=read-only", "--capability=CAP_BPF,CAP_PERFMON",
               "--system-call-filter=bpf", f"--machine={name}",
               *(f"--bind-ro={host}:{inside}" for inside, host in binds.items())]
        with open(log, "w") as out:
            cmd[0] = shutil.which(cmd[0], path=TOOL_PATH) or cmd[0]
            self.nspawn = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                           env=env, preexec_fn=self._join_cgroups)
        self.leader = 0
        self._wait_for_boot()

    def _join_cgroups(self) -> None:
        for cgroup in self.cgroups:
            (cgroup / "cgroup.procs").write_text(str(os.getpid()))

    def _wait_for_boot(self) -> None:
        """Find the container's PID 1 (nspawn's child running systemd) and wait for its boot to be over."""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.nspawn.poll() is not None:
                raise RuntimeError(f"systemd-nspawn exited {self.nspawn.returncode}:\n{self.log.read_text()[-3000:]}")
            if not self.leader:
                for task in Path(f"/proc/{self.nspawn.pid}/task").iterdir():
                    for child in (task / "children").read_text().split():
                        with contextlib.suppress(OSError):
                            if Path(f"/proc/{child}/comm").read_text().strip() == "systemd":
                                self.leader = int(child)
            if self.leader:
                state = self.run("systemctl", "is-system-running", "--wait", check=False, timeout=60).stdout.strip()
                if state in ("running", "degraded"):
                    return
            time.sleep(0.05)
        raise RuntimeError(f"the container did not boot in 60 s:\n{self.log.read_text()[-3000:]}")

    def run(self, *cmd: str, check: bool = True, timeout: float = 120,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        nsenter = shutil.which("nsenter", path=TOOL_PATH) or "nsenter"
        result = subprocess.run([nsenter, "-t", str(self.leader), "-a", *cmd], capture_output=True, text=True,
                                timeout=timeout, env={**ENV, **(env or {})})
        if check and result.returncode != 0:
            raise AssertionError(f"{' '.join(cmd)}: exit {result.returncode}\n{result.stdout}{result.stderr}")
        return result

    def path(self, inside: str) -> Path:
        """A path in the container's file system, as the host sees it (through its PID 1's root)."""
        return Path(f"/proc/{self.leader}/root") / inside.lstrip("/")

    def stop(self) -> None:
        """Power off (nspawn turns SIGTERM into the container's clean shutdown), then remove the cgroups."""
        if self.nspawn.poll() is None:
            self.nspawn.send_signal(signal.SIGTERM)
            try:
                self.nspawn.wait(30)
            except subprocess.TimeoutExpired:
                self.nspawn.kill()
                self.nspawn.wait()
        for cgroup in self.cgroups:
            for folder in sorted((p for p in cgroup.rglob("*") if p.is_dir()), key=lambda p: -len(p.parts)):
                with contextlib.suppress(OSError):
                    folder.rmdir()
            with contextlib.suppress(OSError):
                cgroup.rmdir()


def boot(binds: dict[str, Path], log: Path, name: str | None = None) -> Container:
    return Container(rootfs(), binds, name or f"boardkeeper-test-{os.getpid()}", log)


def main(argv: Sequence[str]) -> int:
    """Build the caches (the root file system and the wheelhouse), where nspawn can run at all."""
    reason = missing()
    if reason:
        print(f"nspawn_boot: not preparing ({reason})")
        return 0
    started = time.monotonic()
    print(f"nspawn_boot: {rootfs()} and {wheelhouse()} ready in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
