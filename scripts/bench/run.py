#!/usr/bin/env python3
"""`make bench`: Tactus beside librosa and aubio on one generated corpus, in one run.

Measures, on the 500-clip mixed corpus and on one 60-minute file (scripts/bench/make_corpus.py):
  - Tactus: `batch --jobs 1`, `batch --jobs 2`, one `convert` process per file, and the
    44.1 kHz WAV clips alone (falls back to `convert FILES...` while `batch` does not exist);
  - librosa in a warm process (load + onset_detect + rms + spectral_centroid), with Tactus's
    frame geometry (the ratio baseline) and with librosa's defaults;
  - `aubioonset`, one process per file, with Tactus's frame geometry;
  - the machine's limit: libsndfile decode + the same STFT in C (machine_limit.c), and decode alone.
CPU time is user+sys from getrusage of the waited children (or of the warm process itself),
peak RSS comes from GNU time's %M. Then a perf profile splits Tactus's CPU time into stages
(profile_stages.py). Writes bench-out/report.md and bench-out/results.json and prints the report.

Usage: run.py --tactus .build/release/tactus [--work bench-out] [--no-profile]
"""
from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

import profile_stages
import table
from librosa_baseline import tactus_frames

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
ONE_CORE = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "NUMBA_NUM_THREADS": "1"}
TARGET_RATIO, AIM_RATIO = 10.0, 20.0
TARGET_WAV_44K = 2000.0
TARGET_JOBS2_SPEEDUP = 1.8
TARGET_LONG_RSS_MB = 40.0


@dataclasses.dataclass
class Measurement:
    cpu: float
    wall: float
    peak_rss_mb: float | None = None
    failures: int = 0


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measure(commands: list[list[str]], log: Path, *, parallel: bool = False, rss: bool = False,
            env: dict | None = None) -> Measurement:
    """Runs the commands one after another (or all at once) and measures what they cost."""
    rss_files = [log.with_suffix(f".rss{i}") for i in range(len(commands))] if rss else []
    if rss:
        commands = [["/usr/bin/time", "-f", "%M", "-o", str(f), *c] for c, f in zip(commands, rss_files)]
    environment = {**os.environ, **(env or {})}
    with open(log, "a") as errors:
        cpu, start = children_cpu(), time.perf_counter()
        if parallel:
            running = [subprocess.Popen(c, stdout=subprocess.DEVNULL, stderr=errors, env=environment) for c in commands]
            codes = [p.wait() for p in running]
        else:
            codes = [subprocess.run(c, stdout=subprocess.DEVNULL, stderr=errors, env=environment).returncode
                     for c in commands]
        wall, cpu = time.perf_counter() - start, children_cpu() - cpu
    peak = max((int(f.read_text().split()[-1]) for f in rss_files), default=None)
    return Measurement(cpu, wall, peak / 1024 if peak else None, sum(code != 0 for code in codes))


def json_result(command: list[str], log: Path, rss: bool = False, env: dict | None = None) -> tuple[dict, Measurement]:
    """Runs a probe that reports its own CPU time as JSON on stdout."""
    out = log.with_suffix(".json")
    wrapped = ["sh", "-c", 'exec "$@" > "$0"', str(out), *command]
    outer = measure([wrapped], log, rss=rss, env=env)
    if outer.failures:
        sys.exit(f"bench: {command[0]} failed, see {log}")
    report = json.loads(out.read_text())
    return report, Measurement(report["cpu_seconds"], report.get("wall_seconds", outer.wall), outer.peak_rss_mb)


class Tactus:
    """The commands that run Tactus, with `convert` standing in while `batch` is missing."""

    def __init__(self, binary: Path):
        self.binary = str(binary)
        # An unknown subcommand makes the parser print the top-level help, so look for batch's own usage.
        usage = subprocess.run([self.binary, "batch", "--help"], capture_output=True, text=True).stdout
        self.has_batch = "USAGE: tactus batch" in usage

    def jobs(self, n: int, folder: Path, files: list[Path], out: Path) -> tuple[str, list[list[str]], bool]:
        """(label, commands, run in parallel) converting every file of `folder` with n jobs."""
        if self.has_batch:
            return f"batch --jobs {n}", [[self.binary, "batch", str(folder), "-o", str(out), "--jobs", str(n),
                                          "--quiet"]], False
        if n == 1:
            return "convert FILES… (1 process; no batch yet)", [self.convert(files, out)], False
        return (f"{n} × convert in parallel (no batch yet)",
                [self.convert(files[i::n], out) for i in range(n)], True)

    def convert(self, files: list[Path], out: Path) -> list[str]:
        return [self.binary, "convert", "--quiet", *map(str, files), "-o", str(out)]


class Bench:
    def __init__(self, tactus: Tactus, work: Path):
        self.tactus, self.work = tactus, work
        self.corpus = work / "corpus"
        manifest = json.loads((self.corpus / "manifest.json").read_text())
        self.clips = manifest["clips"]
        self.long = manifest["long"]
        self.clip_files = [self.corpus / c["file"] for c in self.clips]
        self.long_file = self.corpus / self.long["file"]
        self.clip_seconds = sum(c["seconds"] for c in self.clips)
        self.logs = work / "logs"
        shutil.rmtree(self.logs, ignore_errors=True)
        self.logs.mkdir(parents=True)
        self.scratch = work / "outputs"

    def run_tactus(self, name: str, commands: list[list[str]], expected: int, **options) -> Measurement:
        """Times a Tactus run into an empty folder, then checks one AHAP per input was written."""
        shutil.rmtree(self.scratch, ignore_errors=True)
        self.scratch.mkdir(parents=True)
        result = measure(commands, self.logs / f"{name}.log", **options)
        written = sum(1 for _ in self.scratch.rglob("*.ahap"))
        result.failures = max(result.failures, expected - written)
        shutil.rmtree(self.scratch)
        progress(name, result)
        return result

    def machine_limit(self) -> dict[str, Measurement]:
        binary = self.work / "machine_limit"
        flags = subprocess.run(["pkg-config", "--cflags", "--libs", "sndfile", "fftw3f"],
                               capture_output=True, text=True, check=True).stdout.split()
        subprocess.run(["gcc", "-O3", "-fno-math-errno", "-o", str(binary), str(HERE / "machine_limit.c"),
                        *flags, "-lm"], check=True)
        results = {}
        for mode, options in [("limit", []), ("decode", ["--decode-only"])]:
            for target, files, rss in [("corpus", self.clip_files, False), ("long", [self.long_file], True)]:
                _, m = json_result([str(binary), *options, *map(str, files)], self.logs / f"{mode}-{target}.log", rss)
                results[f"{mode}-{target}"] = m
                progress(f"{mode} {target}", m)
        return results

    def librosa(self, geometry: str, files: list[Path], rss: bool = False) -> Measurement:
        command = [sys.executable, str(HERE / "librosa_baseline.py"), "--geometry", geometry,
                   "--warmup", str(self.clip_files[0]), *map(str, files)]
        _, m = json_result(command, self.logs / f"librosa-{geometry}-{len(files)}.log", rss, env=ONE_CORE)
        progress(f"librosa {geometry} ({len(files)} files)", m)
        return m

    def aubio(self, entries: list[dict], rss: bool = False) -> Measurement:
        """aubioonset on each manifest entry, with an FFT and hop as big as Tactus's at its rate."""
        commands = []
        for entry in entries:
            frames = tactus_frames(entry["rate"])
            commands.append(["aubioonset", "-i", str(self.corpus / entry["file"]),
                             "-B", str(frames["n_fft"]), "-H", str(frames["hop"])])
        m = measure(commands, self.logs / f"aubio-{len(entries)}.log", rss=rss)
        progress(f"aubioonset ({len(entries)} files)", m)
        return m


def progress(name: str, m: Measurement) -> None:
    extra = f", peak {m.peak_rss_mb:.1f} MB" if m.peak_rss_mb else ""
    failed = f", {m.failures} FAILED" if m.failures else ""
    print(f"bench: {name}: {m.cpu:.2f} CPU s, {m.wall:.2f} s wall{extra}{failed}", file=sys.stderr, flush=True)


def text_of(command: list[str]) -> str:
    try:
        return subprocess.run(command, capture_output=True, text=True).stdout.strip()
    except OSError:
        return "?"


def machine_description(tactus: Tactus) -> list[str]:
    model = next((line.split(":", 1)[1].strip() for line in text_of(["lscpu"]).splitlines()
                  if line.startswith("Model name")), platform.processor())
    memory_kb = next(int(line.split()[1]) for line in Path("/proc/meminfo").read_text().splitlines()
                     if line.startswith("MemTotal"))
    revision = text_of(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"])
    # GIT_OPTIONAL_LOCKS=0: reading the status must not refresh (write) the shared index.
    dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True, env={**os.environ, "GIT_OPTIONAL_LOCKS": "0"}).stdout
    swift = (text_of(["swift", "--version"]).splitlines() or ["swift ?"])[0]
    versions = text_of([sys.executable, "-c", "import librosa, numpy; print(librosa.__version__, numpy.__version__)"])
    librosa_version, numpy_version = (versions.split() + ["?", "?"])[:2]
    return [
        f"- CPU: {model}, `nproc` = {os.cpu_count()}; memory {memory_kb / 1024 / 1024:.1f} GiB; "
        f"Linux {platform.release()}",
        f"- Tactus {revision}{' + uncommitted changes' if dirty.strip() else ''}, "
        f"{swift}, "
        f"release build; `tactus batch` {'present' if tactus.has_batch else 'absent (convert fallback)'}",
        f"- libsndfile {text_of(['pkg-config', '--modversion', 'sndfile'])}, "
        f"FFTW {text_of(['pkg-config', '--modversion', 'fftw3f'])}; librosa {librosa_version}, numpy {numpy_version}, "
        f"Python {platform.python_version()}; aubio {text_of(['dpkg-query', '-W', '-f=${Version}', 'aubio-tools'])}",
    ]


def rate(seconds: float, m: Measurement | None) -> float | None:
    return seconds / m.cpu if m and m.cpu > 0 else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tactus", type=Path, required=True, help="the release tactus binary")
    parser.add_argument("--work", type=Path, default=ROOT / "bench-out")
    parser.add_argument("--no-profile", action="store_true", help="skip the perf stage profile")
    args = parser.parse_args()

    started = datetime.datetime.now().astimezone()
    load_before = os.getloadavg()[0]
    subprocess.run([sys.executable, str(HERE / "make_corpus.py"), "--out", str(args.work / "corpus")], check=True)
    tactus = Tactus(args.tactus.resolve())
    bench = Bench(tactus, args.work.resolve())
    clips, long_seconds = bench.clip_files, bench.long["seconds"]
    mixed, long_folder = clips[0].parent, bench.long_file.parent
    out = bench.scratch
    wav44 = [bench.corpus / c["file"] for c in bench.clips if c["rate"] == 44100 and c["format"].startswith("wav")]
    wav44_seconds = sum(c["seconds"] for c in bench.clips if bench.corpus / c["file"] in set(wav44))

    limits = bench.machine_limit()
    label1, jobs1_commands, _ = tactus.jobs(1, mixed, clips, out)
    jobs1 = bench.run_tactus("tactus-jobs1", jobs1_commands, len(clips))
    label2, jobs2_commands, parallel = tactus.jobs(2, mixed, clips, out)
    jobs2 = bench.run_tactus("tactus-jobs2", jobs2_commands, len(clips), parallel=parallel)
    per_file = bench.run_tactus("tactus-per-file", [tactus.convert([f], out) for f in clips], len(clips))
    only_wav44 = bench.run_tactus("tactus-wav44", [tactus.convert(wav44, out)], len(wav44))
    _, long_jobs_commands, _ = tactus.jobs(1, long_folder, [bench.long_file], out)
    long_jobs1 = bench.run_tactus("tactus-long-jobs1", long_jobs_commands, 1, rss=True)
    long_convert_command = tactus.convert([bench.long_file], out)
    long_convert = (long_jobs1 if long_jobs_commands == [long_convert_command]
                    else bench.run_tactus("tactus-long-convert", [long_convert_command], 1, rss=True))
    librosa = bench.librosa("tactus", clips)
    librosa_long = bench.librosa("tactus", [bench.long_file], rss=True)
    librosa_default = bench.librosa("default", clips)
    aubio = bench.aubio(bench.clips)
    aubio_long = bench.aubio([bench.long], rss=True)

    seconds = bench.clip_seconds
    rows_spec = [
        (f"Tactus `{label1}`", jobs1, long_jobs1, len(clips), seconds),
        (f"Tactus `{label2}`", jobs2, None, len(clips), seconds),
        ("Tactus `convert`, one process per file", per_file, long_convert, len(clips), seconds),
        (f"Tactus, the {len(wav44)} 44.1 kHz WAV clips (1 process)", only_wav44, None, len(wav44), wav44_seconds),
        ("librosa, warm process, Tactus's frames", librosa, librosa_long, len(clips), seconds),
        ("librosa, warm process, its defaults (22.05 kHz)", librosa_default, None, len(clips), seconds),
        ("aubioonset, one process per file", aubio, aubio_long, len(clips), seconds),
        ("limit: libsndfile decode + STFT (C)", limits["limit-corpus"], limits["limit-long"], len(clips), seconds),
        ("limit: libsndfile decode alone (C)", limits["decode-corpus"], limits["decode-long"], len(clips), seconds),
    ]
    headers = ["Contender", "CPU s", "wall s", "audio s / CPU s", "files / s", "librosa CPU ÷ this",
               "60-min CPU s", "60-min audio s / CPU s", "60-min peak RSS MB"]
    rows = []
    for name, corpus, long_run, files, audio in rows_spec:
        same_files = files == len(clips)
        rows.append([name + (f" ⚠ {corpus.failures} failed" if corpus.failures else ""),
                     table.number(corpus.cpu, 2), table.number(corpus.wall, 2), table.number(rate(audio, corpus), 0),
                     table.number(files / corpus.wall, 1),
                     table.number(librosa.cpu / corpus.cpu, 1) if same_files else "—",
                     table.number(long_run.cpu if long_run else None, 2), table.number(rate(long_seconds, long_run), 0),
                     table.number(long_run.peak_rss_mb if long_run else None, 1)])

    ratio = librosa.cpu / jobs1.cpu
    speedup = jobs1.wall / jobs2.wall
    long_rss = max(m.peak_rss_mb or 0 for m in (long_jobs1, long_convert))
    checks = [
        (f"CPU vs librosa on the corpus ≥ {TARGET_RATIO:.0f}× (aim {AIM_RATIO:.0f}×)", f"{ratio:.1f}×",
         ratio >= TARGET_RATIO),
        (f"≥ {TARGET_WAV_44K:,.0f} audio s per CPU s on 44.1 kHz WAV (clips / 60-min file)",
         f"{rate(wav44_seconds, only_wav44):,.0f} / {rate(long_seconds, long_convert):,.0f}",
         min(rate(wav44_seconds, only_wav44), rate(long_seconds, long_convert)) >= TARGET_WAV_44K),
        (f"`--jobs 2` ≥ {TARGET_JOBS2_SPEEDUP}× faster (wall) than `--jobs 1`", f"{speedup:.2f}×",
         speedup >= TARGET_JOBS2_SPEEDUP),
        (f"60-minute file peak RSS ≤ {TARGET_LONG_RSS_MB:.0f} MB", f"{long_rss:.1f} MB", long_rss <= TARGET_LONG_RSS_MB),
    ]
    corpus_formats = ", ".join(f"{n} {fmt}" for fmt, n in sorted(
        {c["format"]: sum(1 for d in bench.clips if d["format"] == c["format"]) for c in bench.clips}.items()))
    lines = [
        f"## Run of {started:%Y-%m-%d %H:%M %Z}", "",
        *machine_description(tactus),
        f"- Load average (1 min) {load_before:.2f} before the run, {os.getloadavg()[0]:.2f} after: anything "
        "above ~0.3 means other work shared the cores, which inflates wall times more than CPU times.",
        f"- Corpus: {len(clips)} clips, {seconds:,.0f} s of audio ({corpus_formats}; "
        f"{', '.join(sorted({str(c['rate']) for c in bench.clips}, key=int))} Hz; mono and stereo; 0.5–10 s) "
        f"and one {long_seconds / 60:.0f}-minute 44.1 kHz 16-bit stereo WAV.",
        "", table.markdown(headers, rows), "",
        "CPU s = user+sys; audio s / CPU s = seconds of audio per CPU second; files / s per wall second; "
        "librosa's and the limits' CPU exclude process start-up (warm), Tactus's and aubio's include it.", "",
        "Targets:", "",
        *[f"- {'PASS' if ok else 'FAIL'}  {what}: {value}" for what, value, ok in checks],
    ]
    results = {"rows": {name: dataclasses.asdict(m) for name, m, _, _, _ in rows_spec},
               "long": {name: dataclasses.asdict(m) for name, _, m, _, _ in rows_spec if m},
               "checks": [{"target": w, "value": v, "pass": ok} for w, v, ok in checks]}

    if not args.no_profile and shutil.which("perf"):
        lines += profile_section(bench, jobs1_commands[0], jobs1, long_convert_command, long_convert, limits, results)

    report = "\n".join(lines) + "\n"
    (args.work / "report.md").write_text(report)
    (args.work / "results.json").write_text(json.dumps(results, indent=1) + "\n")
    print(report)
    return 0


def profile_section(bench: Bench, corpus_command: list[str], corpus_run: Measurement, long_command: list[str],
                    long_run: Measurement, limits: dict[str, Measurement], results: dict) -> list[str]:
    """perf-profiles Tactus on the corpus and the 60-minute file; stage shares × unprofiled CPU."""
    profiles = {}
    for name, command in [("corpus", corpus_command), ("long", long_command)]:
        shutil.rmtree(bench.scratch, ignore_errors=True)
        data = bench.work / f"perf-{name}.data"
        profile_stages.record(command, data)
        shutil.rmtree(bench.scratch, ignore_errors=True)
        profiles[name] = profile_stages.analyse(data, Path(command[0]).name)
        print(f"bench: profiled {name}: {profiles[name]['samples']} samples", file=sys.stderr, flush=True)
    results["profile"] = profiles
    cpu = {"corpus": corpus_run.cpu, "long": long_run.cpu}
    rows = [[stage] + [cell for name in ("corpus", "long") for cell in
                       (table.number(100 * profiles[name]["stages"][stage], 1),
                        table.number(profiles[name]["stages"][stage] * cpu[name], 2))]
            for stage in profile_stages.STAGE_NAMES]
    floor = {name: sum(profiles[name]["stages"][s] for s in ("decode + mixdown", "STFT")) * cpu[name]
             for name in cpu}
    lines = ["", "Per-stage profile (perf, 250 Hz, DWARF stacks; see scripts/bench/profile_stages.py):", "",
             table.markdown(["Stage", "corpus %", "corpus CPU s", "60-min %", "60-min CPU s"], rows), "",
             f"Decode + STFT cost Tactus {floor['corpus']:.2f} CPU s on the corpus and {floor['long']:.2f} on the "
             f"60-minute file; the same work in C takes {limits['limit-corpus'].cpu:.2f} and "
             f"{limits['limit-long'].cpu:.2f} (decode alone {limits['decode-corpus'].cpu:.2f} and "
             f"{limits['decode-long'].cpu:.2f})."]
    for name, title in [("corpus", "corpus"), ("long", "60-minute file")]:
        lines += ["", f"Hot spots, {title} (self time; `←` names the Tactus function that called a library):", ""]
        lines += [f"- {100 * share:4.1f} %  `{spot}`" for spot, share in profiles[name]["hot_spots"]]
    return lines


if __name__ == "__main__":
    sys.exit(main())
