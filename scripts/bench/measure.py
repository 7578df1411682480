"""Running a command and measuring what it cost: CPU time, wall time, peak memory."""
from __future__ import annotations

import dataclasses
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


@dataclasses.dataclass
class Measurement:
    cpu: float
    """user+sys seconds"""
    wall: float
    peak_rss_mb: float | None = None
    failures: int = 0
    foreign_cpu: float = 0.0
    """CPU seconds the rest of the machine used meanwhile (other processes, hypervisor steal):
    when it is large, the wall time says more about the neighbours than about the code."""


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def machine_busy_cpu() -> float:
    """CPU seconds all cores spent busy since boot (user, nice, system, irq, softirq, steal)."""
    ticks = [int(t) for t in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = ticks
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def measure(commands: list[list[str]], log: Path, *, parallel: bool = False, rss: bool = False,
            env: dict | None = None) -> Measurement:
    """Runs the commands one after another (or all at once) from the repository root, where
    Tactus finds its presets; CPU is what the waited children used, stderr goes to `log`."""
    rss_files = [log.with_suffix(f".rss{i}") for i in range(len(commands))] if rss else []
    if rss:
        commands = [["/usr/bin/time", "-f", "%M", "-o", str(f), *c] for c, f in zip(commands, rss_files)]
    environment = {**os.environ, **(env or {})}
    with open(log, "a") as errors:
        def start(command: list[str]) -> subprocess.Popen:
            return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=errors, env=environment, cwd=ROOT)

        cpu, busy, began = children_cpu(), machine_busy_cpu(), time.perf_counter()
        if parallel:
            codes = [p.wait() for p in [start(c) for c in commands]]
        else:
            codes = [start(c).wait() for c in commands]
        wall, cpu, busy = time.perf_counter() - began, children_cpu() - cpu, machine_busy_cpu() - busy
    peak_kb = max((int(f.read_text().split()[-1]) for f in rss_files), default=None)
    return Measurement(cpu, wall, peak_kb / 1024 if peak_kb else None, sum(code != 0 for code in codes),
                       foreign_cpu=max(0.0, busy - cpu))


def self_reported(command: list[str], log: Path, rss: bool = False, env: dict | None = None) -> Measurement:
    """Runs a probe that prints its own CPU (and maybe wall) seconds as JSON: warm numbers,
    without the process start-up and imports that `measure` would count."""
    out = log.with_suffix(".json")
    outer = measure([["sh", "-c", 'exec "$@" > "$0"', str(out), *command]], log, rss=rss, env=env)
    if outer.failures:
        sys.exit(f"bench: {Path(command[0]).name} failed, see {log}")
    report = json.loads(out.read_text())
    return Measurement(report["cpu_seconds"], report.get("wall_seconds", outer.wall), outer.peak_rss_mb,
                       foreign_cpu=outer.foreign_cpu)


def progress(name: str, m: Measurement) -> None:
    extra = f", peak {m.peak_rss_mb:.1f} MB" if m.peak_rss_mb else ""
    failed = f", {m.failures} FAILED" if m.failures else ""
    print(f"bench: {name}: {m.cpu:.2f} CPU s, {m.wall:.2f} s wall{extra}{failed} "
          f"(others used {m.foreign_cpu:.2f} CPU s meanwhile)", file=sys.stderr, flush=True)
