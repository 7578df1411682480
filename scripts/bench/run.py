#!/usr/bin/env python3
"""`make bench`: Tactus beside librosa and aubio on one generated corpus, in one run.

Measures, on the 500-clip mixed corpus and on one 60-minute file (make_corpus.py):
  - Tactus: `batch --jobs 1`, `batch --jobs 2` (falling back to `convert FILES...` while `batch`
    does not exist), one `convert` process per file, each format alone, the 44.1 kHz WAV clips,
    and those clips written in each output format alone (`--format ID`, no paired audio);
  - librosa in a warm process (load + onset_detect + rms + spectral_centroid), with Tactus's
    frame geometry (the ratio baseline) and with librosa's defaults;
  - `aubioonset`, one process per file, with Tactus's frame geometry;
  - the machine's limit: libsndfile decode + the same STFT in C (machine_limit.c), decode alone,
    and decode + STFT + the files a converter that pairs the audio must write;
then profiles Tactus with perf by pipeline stage (profile_stages.py). CPU time is user+sys
from getrusage, peak RSS from GNU time's %M. Prints the report and writes it to
<work>/report.md, the numbers to <work>/results.json.

With --floor-only, only the floor ratios: the whole job's floor (decode + STFT + the same
files written, in C) ÷ Tactus's CPU (`batch --jobs 1` on the corpus, `convert` of the 60-minute
file, with its peak RSS), for each binary given (--baseline too), their runs alternating.

With --instructions, also the same floor ratios by instruction count (valgrind's callgrind,
user space, the whole process): the corpus, and the 60-minute file's first minute. CPU times on
a shared or virtual machine move by tens of per cent from run to run; instruction counts do not.

Usage: run.py --tactus .build/release/tactus [--work bench-out] [--no-profile] [--repeats N] [--instructions]
       run.py --tactus .build/release/tactus --floor-only [--baseline OTHER_TACTUS] [--repeats N] [--instructions]
"""
from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import profile_stages
import report
from contenders import Bench, Corpus, Tactus
from measure import ROOT

HERE = Path(__file__).resolve().parent
# Every built-in output format, with the ending of the file it writes.
OUTPUT_FORMATS = [("ahap", "ahap"), ("haptic", "haptic"), ("android", "android.json"), ("rumble", "rumble.json"),
                  ("pcm", "pcm.wav"), ("dualsense", "dualsense.wav")]


def measure_everything(bench: Bench, corpus: Corpus, tactus: Tactus, repeats: int) -> report.Results:
    clips, long = corpus.clips, [corpus.long]
    files, out = corpus.paths(clips), bench.scratch
    results = report.Results(corpus=corpus, tactus=tactus, repeats=repeats)
    m = results.measurements

    def best(run):
        """The run with the least CPU of `repeats`, for every contender alike: on a shared
        or virtual machine a run is only ever slowed down (seen here: the same command
        varying by 40 % within minutes), so the minimum is the best estimate of the cost."""
        return min((run() for _ in range(repeats)), key=lambda measurement: measurement.cpu)

    for target, entries in [("corpus", clips), ("long", long)]:
        m[f"limit-{target}"] = best(lambda: bench.limit(f"limit {target}", entries, decode_only=False, rss=target == "long"))
        m[f"decode-{target}"] = best(lambda: bench.limit(f"decode {target}", entries, decode_only=True, rss=target == "long"))
        m[f"limit-pair-{target}"] = best(lambda: bench.limit(f"limit with pairing {target}", entries,
                                                             decode_only=False, pairing=True))

    # --jobs 1 and --jobs 2 alternate, so each pair meets the machine in the same mood: the
    # speed-up is the median of the pairs' ratios; the table keeps each one's fastest run.
    def alternate(name: str, *settings: str) -> dict[int, list]:
        runs: dict[int, list] = {1: [], 2: []}
        for _ in range(max(3, repeats)):
            for n in (1, 2):
                label, commands, parallel = tactus.jobs(n, files[0].parent, files, out)
                if not settings:
                    results.labels[f"jobs{n}"], results.commands[f"jobs{n}"] = label, commands
                commands = [[*command, *settings] for command in commands]
                runs[n].append(bench.tactus(f"tactus jobs {n}{name}", commands, len(clips), parallel=parallel))
        return runs

    def speedups(runs: dict[int, list]) -> list[float]:
        return sorted(one.wall / two.wall for one, two in zip(runs[1], runs[2]))

    runs = alternate("")
    for n in (1, 2):
        m[f"jobs{n}"] = min(runs[n], key=lambda measurement: measurement.wall)
    results.pair_speedups = speedups(runs)
    # Again without the paired audio (AHAPs only): Tactus's own work, without 1 GB of copies
    # and their writeback on the same cores.
    results.unpaired_speedups = speedups(alternate(" without paired audio", "--set", "output.pairAudio=false"))
    # The same alternation for the limit in one and in two processes: the machine's own
    # two-core speed-up on work with no writing and nothing shared.
    limit_runs: dict[int, list] = {1: [], 2: []}
    for _ in range(max(3, repeats)):
        for n in (1, 2):
            limit_runs[n].append(bench.limit_split(f"limit {n} process{'es' if n > 1 else ''}", clips, n))
    results.limit_pair_speedups = speedups(limit_runs)
    m["one-clip"] = best(lambda: bench.tactus("tactus one clip", [tactus.convert(files[:1], out)], 1, rss=True))
    m["per-file"] = best(lambda: bench.tactus("tactus per file", [tactus.convert([f], out) for f in files], len(clips)))
    wav44 = results.wav44_clips()
    m["wav44"] = best(lambda: bench.tactus("tactus 44.1 kHz WAV", [tactus.convert(corpus.paths(wav44), out)], len(wav44)))
    m["limit-wav44"] = best(lambda: bench.limit("limit 44.1 kHz WAV", wav44, decode_only=False))
    for fmt, entries in results.formats().items():
        m[f"tactus-{fmt}"] = best(lambda: bench.tactus(f"tactus {fmt}", [tactus.convert(corpus.paths(entries), out)], len(entries)))
        m[f"limit-{fmt}"] = best(lambda: bench.limit(f"limit {fmt}", entries, decode_only=False))
        m[f"decode-{fmt}"] = best(lambda: bench.limit(f"decode {fmt}", entries, decode_only=True))

    # What writing each output format costs beside AHAP: the same analysis, one format written.
    for format_id, ending in OUTPUT_FORMATS:
        m[f"write-{format_id}"] = best(lambda: bench.tactus(
            f"tactus --format {format_id}",
            [[*tactus.convert(corpus.paths(wav44), out), "--format", format_id, "--set", "output.pairAudio=false"]],
            len(wav44), written_ending=ending))

    long_file = corpus.path(corpus.long)
    _, long_batch, _ = tactus.jobs(1, long_file.parent, [long_file], out)
    results.commands["long"] = [tactus.convert([long_file], out)]
    m["long-jobs1"] = best(lambda: bench.tactus("tactus 60-min jobs 1", long_batch, 1, rss=True))
    m["long-convert"] = (m["long-jobs1"] if long_batch == results.commands["long"]
                         else best(lambda: bench.tactus("tactus 60-min convert", results.commands["long"], 1, rss=True)))
    m["long-again"] = best(lambda: bench.tactus("tactus 60-min convert again", results.commands["long"], 1, rss=True,
                                                again=True))

    m["librosa"] = best(lambda: bench.librosa("librosa", "tactus", clips))
    m["librosa-long"] = best(lambda: bench.librosa("librosa 60-min", "tactus", long, rss=True))
    m["librosa-default"] = best(lambda: bench.librosa("librosa defaults", "default", clips))
    m["aubio"] = best(lambda: bench.aubio("aubioonset", clips))
    m["aubio-long"] = best(lambda: bench.aubio("aubioonset 60-min", long, rss=True))
    return results


def measure_floor(bench: Bench, corpus: Corpus, binaries: dict[str, Tactus], repeats: int) -> str:
    """The floor ratios of each binary, runs of the limit and of every binary alternating
    `repeats` times (each keeps its least CPU): the lines of a small report."""
    clips, long_file, out = corpus.clips, corpus.path(corpus.long), bench.scratch
    files = corpus.paths(clips)
    runs: dict[str, list] = {}
    for _ in range(repeats):
        runs.setdefault("limit-pair-corpus", []).append(
            bench.limit("limit with pairing corpus", clips, decode_only=False, pairing=True))
        runs.setdefault("limit-pair-long", []).append(
            bench.limit("limit with pairing long", [corpus.long], decode_only=False, pairing=True))
        for name, tactus in binaries.items():
            _, commands, parallel = tactus.jobs(1, files[0].parent, files, out)
            runs.setdefault(f"{name} corpus", []).append(
                bench.tactus(f"tactus {name} jobs 1", commands, len(clips), parallel=parallel))
            runs.setdefault(f"{name} long", []).append(
                bench.tactus(f"tactus {name} 60-min convert", [tactus.convert([long_file], out)], 1, rss=True))
    best = {key: min(values, key=lambda m: m.cpu) for key, values in runs.items()}
    lines = [f"Floor ratios (the whole job's floor, decode + STFT + the same files written in C, ÷ Tactus's CPU; "
             f"least CPU of {repeats} alternating runs; target ≥ {report.TARGET_FLOOR_SHARE}):", ""]
    for name in binaries:
        corpus_ratio = best["limit-pair-corpus"].cpu / best[f"{name} corpus"].cpu
        long_ratio = best["limit-pair-long"].cpu / best[f"{name} long"].cpu
        lines.append(f"- {name} ({binaries[name].binary}): corpus {corpus_ratio:.2f} "
                     f"({best['limit-pair-corpus'].cpu:.2f} / {best[f'{name} corpus'].cpu:.2f} CPU s), "
                     f"60-minute file {long_ratio:.2f} ({best['limit-pair-long'].cpu:.2f} / "
                     f"{best[f'{name} long'].cpu:.2f} CPU s), 60-minute peak RSS "
                     f"{max(m.peak_rss_mb or 0 for m in runs[f'{name} long']):.1f} MB")
    lines.append("- every run, CPU s: " + "; ".join(f"{key} " + ", ".join(f"{m.cpu:.2f}" for m in values)
                                                  for key, values in runs.items()))
    return "\n".join(lines) + "\n"


def count_instructions(bench: Bench, corpus: Corpus, binaries: dict[str, Tactus]) -> dict[str, int]:
    """Callgrind's instruction counts of the whole job's floor and of each binary: `batch --jobs 1`
    on the corpus, `convert` of the 60-minute file's first minute (the hour itself would take
    minutes under callgrind; its cost per minute is the same), each into an empty folder."""
    files, minute, out = corpus.paths(corpus.clips), bench.first_minute, bench.scratch
    counts = {"limit-pair-corpus": bench.instructions("limit with pairing corpus",
                                                      bench.limit_command(files, decode_only=False, pairing=True)),
              "limit-pair-minute": bench.instructions("limit with pairing first minute",
                                                      bench.limit_command([minute], decode_only=False, pairing=True))}
    for name, tactus in binaries.items():
        _, commands, _ = tactus.jobs(1, files[0].parent, files, out)
        counts[f"{name} corpus"] = bench.instructions(f"tactus {name} jobs 1", commands[0])
        counts[f"{name} minute"] = bench.instructions(f"tactus {name} first minute", tactus.convert([minute], out))
    return counts


def instruction_lines(counts: dict[str, int], binaries: dict[str, Tactus]) -> list[str]:
    """The floor ratios by instructions, a line per binary."""
    return [f"- {name}, by instructions (callgrind): "
            + ", ".join(f"{label} {share:.3f} ({counted})" for label, share, counted in report.instruction_shares(counts, name))
            for name in binaries]


def profile(bench: Bench, results: report.Results) -> None:
    """perf-profiles `--jobs 1` on the corpus and `convert` on the 60-minute file; a perf that
    cannot sample here (e.g. kernel.perf_event_paranoid) costs the profile, not the report."""
    profiles = {}
    for name, commands in [("corpus", results.commands["jobs1"]), ("long", results.commands["long"])]:
        shutil.rmtree(bench.scratch, ignore_errors=True)
        data = bench.work / f"perf-{name}.data"
        try:
            profile_stages.record(commands[0], data)
            profiles[name] = profile_stages.analyse(data, Path(commands[0][0]).name)
        except subprocess.CalledProcessError as error:
            print(f"bench: no stage profile: {' '.join(error.cmd[:2])} failed (exit {error.returncode})",
                  file=sys.stderr)
            return
        finally:
            shutil.rmtree(bench.scratch, ignore_errors=True)
        print(f"bench: profiled {name}: {profiles[name]['samples']} samples", file=sys.stderr, flush=True)
    results.profiles = profiles


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tactus", type=Path, required=True, help="the release tactus binary")
    parser.add_argument("--work", type=Path, default=ROOT / "bench-out")
    parser.add_argument("--no-profile", action="store_true", help="skip the perf stage profile")
    parser.add_argument("--repeats", type=int, default=2,
                        help="runs of every other row, the one with the least CPU kept (default 2)")
    parser.add_argument("--floor-only", action="store_true",
                        help="only the floor ratios and the 60-minute file's peak RSS (no contenders, no profile)")
    parser.add_argument("--baseline", type=Path, help="with --floor-only: another tactus binary, measured alternately")
    parser.add_argument("--instructions", action="store_true",
                        help="also the floor ratios by instruction count (callgrind): the same on every run")
    args = parser.parse_args()
    work = args.work.resolve()

    started = datetime.datetime.now().astimezone()
    load_before = os.getloadavg()[0]
    subprocess.run([sys.executable, str(HERE / "make_corpus.py"), "--out", str(work / "corpus")], check=True)
    corpus = Corpus(work / "corpus")
    tactus = Tactus(args.tactus.resolve())
    bench = Bench(work, corpus, (tactus.window_ms, tactus.hop_ms))
    if args.floor_only:
        binaries = {"tactus": tactus} | ({"baseline": Tactus(args.baseline.resolve())} if args.baseline else {})
        text = measure_floor(bench, corpus, binaries, max(1, args.repeats))
        if args.instructions:
            text += "\n".join(instruction_lines(count_instructions(bench, corpus, binaries), binaries)) + "\n"
        (work / "floor.md").write_text(text)
        print(text)
        return 0
    results = measure_everything(bench, corpus, tactus, max(1, args.repeats))
    if args.instructions:
        results.instructions = count_instructions(bench, corpus, {"tactus": tactus})
    if not args.no_profile and shutil.which("perf"):
        profile(bench, results)

    text = report.render(results, started, load_before, os.getloadavg()[0])
    (work / "report.md").write_text(text)
    (work / "results.json").write_text(json.dumps(
        {"measurements": {k: dataclasses.asdict(v) for k, v in results.measurements.items()},
         "profiles": results.profiles, "instructions": results.instructions, "checks": report.checks(results)},
        indent=1) + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
