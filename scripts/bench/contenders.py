"""The corpus and everything measured on it: Tactus, librosa, aubio and the machine's limit."""
from __future__ import annotations

import functools
import json
import shutil
import subprocess
import sys
from pathlib import Path

from librosa_baseline import tactus_frames
from measure import ROOT, Measurement, measure, progress, self_reported

HERE = Path(__file__).resolve().parent
# librosa "on one core": no thread pools in numpy's BLAS, OpenMP or numba.
ONE_CORE = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "NUMBA_NUM_THREADS": "1"}


class Corpus:
    """The generated files and what the manifest says about them (format, rate, seconds)."""

    def __init__(self, folder: Path):
        self.folder = folder
        manifest = json.loads((folder / "manifest.json").read_text())
        self.clips: list[dict] = manifest["clips"]
        self.long: dict = manifest["long"]

    def path(self, entry: dict) -> Path:
        return self.folder / entry["file"]

    def paths(self, entries: list[dict]) -> list[Path]:
        return [self.path(e) for e in entries]

    @staticmethod
    def seconds(entries: list[dict]) -> float:
        return sum(e["seconds"] for e in entries)


class Tactus:
    """The commands that run Tactus, with `convert` standing in while `batch` is missing."""

    def __init__(self, binary: Path):
        self.binary = str(binary)
        # An unknown subcommand makes the parser print the top-level help, so look for batch's own usage.
        usage = subprocess.run([self.binary, "batch", "--help"], capture_output=True, text=True).stdout
        self.has_batch = "USAGE: tactus batch" in usage
        # The default preset's frames, so every baseline does the same STFT work as Tactus.
        preset = subprocess.run([self.binary, "presets", "init", "--from", "default"], capture_output=True,
                                text=True, cwd=ROOT)
        try:
            stft = json.loads(preset.stdout)["stft"]
            self.window_ms, self.hop_ms = float(stft["windowMs"]), float(stft["hopMs"])
        except (ValueError, KeyError) as error:
            sys.exit(f"bench: cannot read the default preset's frames from `tactus presets init` ({error}): "
                     f"{preset.stderr.strip()}")

    def jobs(self, n: int, folder: Path, files: list[Path], out: Path) -> tuple[str, list[list[str]], bool]:
        """(label, commands, run in parallel) converting every file of `folder` with n jobs."""
        if self.has_batch:
            return (f"batch --jobs {n}",
                    [[self.binary, "batch", str(folder), "-o", str(out), "--jobs", str(n), "--quiet"]], False)
        if n == 1:
            return "convert FILES… (1 process; no batch yet)", [self.convert(files, out)], False
        return f"{n} × convert in parallel (no batch yet)", [self.convert(files[i::n], out) for i in range(n)], True

    def convert(self, files: list[Path], out: Path) -> list[str]:
        return [self.binary, "convert", "--quiet", *map(str, files), "-o", str(out)]


class Bench:
    """Runs each contender on corpus files, logging each run's stderr under work/logs.

    librosa, aubio and the limit use the frames of Tactus's default preset."""

    def __init__(self, work: Path, corpus: Corpus, frames_ms: tuple[float, float]):
        self.work, self.corpus = work, corpus
        self.window_ms, self.hop_ms = frames_ms
        self.logs = work / "logs"
        shutil.rmtree(self.logs, ignore_errors=True)
        self.logs.mkdir(parents=True)
        self.scratch = work / "outputs"

    def log(self, name: str) -> Path:
        return self.logs / (name.replace(" ", "-") + ".log")

    def tactus(self, name: str, commands: list[list[str]], expected: int, repeats: int = 1,
               written_ending: str = "ahap", again: bool = False, **options) -> Measurement:
        """Times a Tactus run into an empty folder and checks one file ending in
        `written_ending` per input was written (a run where every input failed stops the
        benchmark: its timings would mean nothing). With `again`, the commands run once
        unmeasured first and the run timed is the second, into the folder the first filled (a
        designer converting again after a change: the old outputs are there to recognise).

        With repeats, keeps the fastest run (by wall time): other work on the machine only
        ever slows a run down, so the minimum is the best estimate of what the code costs."""
        runs = []
        for _ in range(repeats):
            shutil.rmtree(self.scratch, ignore_errors=True)
            self.scratch.mkdir(parents=True)
            if again:
                measure(commands, self.log(name + " first"))
            result = measure(commands, self.log(name), **options)
            written = sum(1 for _ in self.scratch.rglob("*." + written_ending))
            result.failures = max(result.failures, expected - written)
            shutil.rmtree(self.scratch)
            if written == 0:
                first_error = (self.log(name).read_text().splitlines() or ["no message"])[0]
                sys.exit(f"bench: {name}: Tactus converted nothing ({first_error}); see {self.log(name)}")
            runs.append(result)
        best = min(runs, key=lambda m: m.wall)
        progress(name + (f" (fastest of {repeats})" if repeats > 1 else ""), best)
        return best

    @functools.cached_property
    def limit_binary(self) -> Path:
        binary = self.work / "machine_limit"
        flags = subprocess.run(["pkg-config", "--cflags", "--libs", "sndfile", "fftw3f"],
                               capture_output=True, text=True, check=True).stdout.split()
        subprocess.run(["gcc", "-O3", "-fno-math-errno", "-o", str(binary), str(HERE / "machine_limit.c"),
                        *flags, "-lm"], check=True)
        return binary

    def limit_command(self, paths: list[Path], decode_only: bool, pairing: bool) -> list[str]:
        """The C probe's command line: decode alone, or decode + STFT with Tactus's frames, and
        with `pairing` the files a pairing converter writes, into `scratch`."""
        options = (["--decode-only"] if decode_only
                   else ["--window-ms", str(self.window_ms), "--hop-ms", str(self.hop_ms)])
        if pairing:
            options += ["--pair-into", str(self.scratch)]
        return [str(self.limit_binary), *options, *map(str, paths)]

    def limit(self, name: str, entries: list[dict], decode_only: bool, rss: bool = False,
              pairing: bool = False) -> Measurement:
        """The C probe: decode + STFT, or decode alone, of the entries in one process; with
        `pairing`, decode + STFT + what a converter that pairs the audio must write (each
        file's playable audio and one small file per input, synced), into an empty folder as
        Tactus's runs get."""
        if pairing:
            shutil.rmtree(self.scratch, ignore_errors=True)
            self.scratch.mkdir(parents=True)
        try:
            m = self_reported(self.limit_command(self.corpus.paths(entries), decode_only, pairing), self.log(name), rss)
        finally:
            if pairing:
                shutil.rmtree(self.scratch, ignore_errors=True)
        progress(name, m)
        return m

    @functools.cached_property
    def first_minute(self) -> Path:
        """The 60-minute file's first 60 s, cut by sox: long enough for every stage to show,
        short enough to count instructions on in seconds."""
        path = self.work / "first-minute.wav"
        source = self.corpus.path(self.corpus.long)
        if not path.exists() or path.stat().st_mtime < source.stat().st_mtime:
            subprocess.run(["sox", str(source), str(path), "trim", "0", "60"], check=True)
        return path

    def instructions(self, name: str, command: list[str]) -> int:
        """User-space instructions one run executes, the whole process (start-up included) and any
        it execs or starts (a wrapper script's binary, say), as callgrind counts them, into an
        empty `scratch`: unlike CPU time, the same on every run, whatever else the machine does."""
        shutil.rmtree(self.scratch, ignore_errors=True)
        self.scratch.mkdir(parents=True)
        stem = name.replace(" ", "-")
        for old in self.logs.glob(f"{stem}.callgrind.*"):
            old.unlink()
        try:
            with open(self.log(name), "a") as errors:
                subprocess.run(["valgrind", "--tool=callgrind", "--dump-instr=no", "--trace-children=yes",
                                f"--callgrind-out-file={self.logs / stem}.callgrind.%p", *command],
                               stdout=subprocess.DEVNULL, stderr=errors, cwd=ROOT, check=True)
        finally:
            shutil.rmtree(self.scratch, ignore_errors=True)
        total = sum(int(line.split()[1]) for counts in self.logs.glob(f"{stem}.callgrind.*")
                    for line in counts.read_text().splitlines() if line.startswith("summary:"))
        print(f"bench: {name}: {total / 1e6:,.1f} M instructions", file=sys.stderr, flush=True)
        return total

    def limit_split(self, name: str, entries: list[dict], processes: int) -> Measurement:
        """Decode + STFT of the entries by `processes` limit processes at once, each taking every
        n-th file (wall time of the whole, process start-up included): what the machine gives
        perfectly parallel CPU work, the ceiling for `--jobs n`."""
        paths = [str(p) for p in self.corpus.paths(entries)]
        options = ["--window-ms", str(self.window_ms), "--hop-ms", str(self.hop_ms)]
        m = measure([[str(self.limit_binary), *options, *paths[i::processes]] for i in range(processes)],
                    self.log(name), parallel=True)
        progress(name, m)
        return m

    def librosa(self, name: str, geometry: str, entries: list[dict], rss: bool = False) -> Measurement:
        command = [sys.executable, str(HERE / "librosa_baseline.py"), "--geometry", geometry,
                   "--window-ms", str(self.window_ms), "--hop-ms", str(self.hop_ms),
                   "--warmup", str(self.corpus.path(self.corpus.clips[0])), *map(str, self.corpus.paths(entries))]
        m = self_reported(command, self.log(name), rss, env=ONE_CORE)
        progress(name, m)
        return m

    def aubio(self, name: str, entries: list[dict], rss: bool = False) -> Measurement:
        """aubioonset on each entry, with an FFT and hop as big as Tactus's at its rate."""
        commands = []
        for entry in entries:
            frames = tactus_frames(entry["rate"], self.window_ms, self.hop_ms)
            commands.append(["aubioonset", "-i", str(self.corpus.path(entry)),
                             "-B", str(frames["n_fft"]), "-H", str(frames["hop"])])
        m = measure(commands, self.log(name), rss=rss)
        progress(name, m)
        return m
