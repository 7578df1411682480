"""The benchmark report: machine, one table of contenders, targets, formats, stage profile."""
from __future__ import annotations

import dataclasses
import datetime
import os
import platform
import subprocess
import sys
from pathlib import Path

import profile_stages
import table
from contenders import Corpus, Tactus
from measure import ROOT, Measurement

TARGET_WAV_44K = 2000.0
TARGET_JOBS2_SPEEDUP = 1.85
TARGET_LONG_RSS_MB = 32.0
# Tactus's CPU over the machine's limit's (decode + STFT in C) on the same files.
TARGET_FLOOR_RATIO, AIM_FLOOR_RATIO = 1.4, 1.25
# The whole job's floor (decode + STFT + the same files written, in C) ÷ Tactus's CPU (issue 43).
TARGET_FLOOR_SHARE = 0.7
# Above this share of a run's wall time spent by other processes, its wall time is not trusted.
BUSY_MACHINE = 0.2


@dataclasses.dataclass
class Results:
    corpus: Corpus
    tactus: Tactus
    measurements: dict[str, Measurement] = dataclasses.field(default_factory=dict)
    labels: dict[str, str] = dataclasses.field(default_factory=dict)
    commands: dict[str, list[list[str]]] = dataclasses.field(default_factory=dict)
    profiles: dict[str, dict] = dataclasses.field(default_factory=dict)
    repeats: int = 1
    pair_speedups: list[float] = dataclasses.field(default_factory=list)
    """`--jobs 1` wall ÷ `--jobs 2` wall of each adjacent pair of runs, sorted."""
    unpaired_speedups: list[float] = dataclasses.field(default_factory=list)
    """The same pairs with `--set output.pairAudio=false` (AHAPs only), sorted."""
    limit_pair_speedups: list[float] = dataclasses.field(default_factory=list)
    """The limit in one process ÷ in two processes (wall), each adjacent pair, sorted."""
    instructions: dict[str, int] = dataclasses.field(default_factory=dict)
    """Callgrind's instruction counts (run.py's `count_instructions`), when measured."""

    def wav44_clips(self) -> list[dict]:
        return [c for c in self.corpus.clips if c["rate"] == 44100 and c["format"].startswith("wav")]

    def formats(self) -> dict[str, list[dict]]:
        groups: dict[str, list[dict]] = {}
        for clip in self.corpus.clips:
            groups.setdefault(clip["format"], []).append(clip)
        return dict(sorted(groups.items()))


def per_cpu_second(seconds: float, m: Measurement | None) -> float | None:
    return seconds / m.cpu if m and m.cpu > 0 else None


def median(sorted_ratios: list[float]) -> float:
    return sorted_ratios[len(sorted_ratios) // 2]


def listed(ratios: list[float]) -> str:
    return ", ".join(f"{ratio:.2f}" for ratio in ratios)


def checks(r: Results) -> list[dict]:
    m, long_seconds = r.measurements, r.corpus.long["seconds"]
    wav44 = per_cpu_second(Corpus.seconds(r.wav44_clips()), m["wav44"])
    long_rate = per_cpu_second(long_seconds, m["long-convert"])
    limits = (per_cpu_second(Corpus.seconds(r.wav44_clips()), m["limit-wav44"]),
              per_cpu_second(long_seconds, m["limit-long"]))
    pairs = r.pair_speedups
    speedup = median(pairs) if pairs else m["jobs1"].wall / m["jobs2"].wall
    # Three decimals: a median of 1.849 must not read "1.85×" beside FAIL.
    speedup_text = f"{speedup:.3f}×" + (f" (median of {len(pairs)} adjacent pairs: {listed(pairs)})" if pairs else "")
    if r.unpaired_speedups:
        speedup_text += (f"; without the paired audio {median(r.unpaired_speedups):.2f}× "
                         f"({listed(r.unpaired_speedups)})")
    if r.limit_pair_speedups:
        speedup_text += (f"; the limit in two processes against one, the machine's own ceiling: "
                         f"{median(r.limit_pair_speedups):.2f}× ({listed(r.limit_pair_speedups)})")
    contended = any(m[k].foreign_cpu > BUSY_MACHINE * m[k].wall for k in ("jobs1", "jobs2"))
    fresh_rss = max(m[run].peak_rss_mb or 0 for run in ("long-jobs1", "long-convert"))
    again_rss = m["long-again"].peak_rss_mb or 0
    long_rss = max(fresh_rss, again_rss)

    def status(ok: bool, trusted: bool = True) -> str:
        return "PASS" if ok else ("FAIL" if trusted else "UNSURE (other processes held the cores)")

    def over_floor(run: str, target: str) -> dict:
        plain, paired = m[run].cpu / m[f"limit-{target}"].cpu, m[run].cpu / m[f"limit-pair-{target}"].cpu
        # What the files alone cost against the limit that writes none: a converter that
        # writes what Tactus writes and analyses nothing is already this far above it.
        writing = m[f"limit-pair-{target}"].cpu / m[f"limit-{target}"].cpu
        return {"value": f"{plain:.2f}× decode + STFT; {paired:.2f}× decode + STFT + the same files written "
                         f"(those files alone, with no analysis: {writing:.2f}× decode + STFT); the whole job's "
                         f"floor ÷ Tactus {1 / paired:.2f} (issue 43: ≥ {TARGET_FLOOR_SHARE})",
                "status": status(plain <= TARGET_FLOOR_RATIO)
                + ("" if plain <= TARGET_FLOOR_RATIO else
                   f" (against the limit that writes what Tactus writes: {status(paired <= TARGET_FLOOR_RATIO)})")}

    rows = [
        {"target": f"`{r.labels['jobs1']}` on the corpus: CPU ≤ {TARGET_FLOOR_RATIO}× the limit's "
                   f"(aim {AIM_FLOOR_RATIO}×)", **over_floor("jobs1", "corpus")},
        {"target": f"`convert` of the 60-minute file: CPU ≤ {TARGET_FLOOR_RATIO}× the limit's",
         **over_floor("long-convert", "long")},
        {"target": f"≥ {TARGET_WAV_44K:,.0f} audio s per CPU s on 44.1 kHz WAV (clips / 60-min file)",
         "value": f"{wav44:,.0f} / {long_rate:,.0f} (the limit: {limits[0]:,.0f} / {limits[1]:,.0f})",
         "status": status(min(wav44, long_rate) >= TARGET_WAV_44K)},
        {"target": f"`--jobs 2` ≥ {TARGET_JOBS2_SPEEDUP}× faster (wall) than `--jobs 1`",
         "value": speedup_text, "status": status(speedup >= TARGET_JOBS2_SPEEDUP, trusted=not contended)},
        {"target": f"60-minute file peak RSS ≤ {TARGET_LONG_RSS_MB:.0f} MB",
         "value": f"{long_rss:.1f} MB (into an empty folder {fresh_rss:.1f}, `convert` again into the folder it filled {again_rss:.1f})",
         "status": status(long_rss <= TARGET_LONG_RSS_MB)},
    ]
    if r.instructions:
        shares = instruction_shares(r.instructions, "tactus")
        rows.append({"target": f"the whole job's floor ÷ Tactus by instructions (callgrind, the same on every run) "
                               f"≥ {TARGET_FLOOR_SHARE}: " + " / ".join(label for label, _, _ in shares),
                     "value": " / ".join(f"{share:.3f} ({counted})" for _, share, counted in shares),
                     "status": status(min(share for _, share, _ in shares) >= TARGET_FLOOR_SHARE)})
    return rows


# The runs instructions are counted on (run.py's `count_instructions`): key, label.
INSTRUCTION_RUNS = (("corpus", "corpus"), ("minute", "the 60-minute file's first minute"))


def instruction_shares(counts: dict[str, int], name: str) -> list[tuple[str, float, str]]:
    """The whole job's floor ÷ the binary `name` by instruction count, per run of
    `INSTRUCTION_RUNS`: (label, share, "floor M ÷ binary M")."""
    return [(label, counts[f"limit-pair-{key}"] / counts[f"{name} {key}"],
             f"{counts[f'limit-pair-{key}'] / 1e6:,.0f} M ÷ {counts[f'{name} {key}'] / 1e6:,.0f} M")
            for key, label in INSTRUCTION_RUNS]


def render(r: Results, started: datetime.datetime, load_before: float, load_after: float) -> str:
    lines = [f"## Run of {started:%Y-%m-%d %H:%M %Z}", "", *machine(r.tactus),
             f"- Load average (1 min) {load_before:.2f} before the run, {load_after:.2f} after. Other processes' "
             "CPU during each run is in the table: where it is large, wall times (files / s, the `--jobs 2` "
             "speed-up) describe the neighbours more than Tactus; CPU times suffer much less.",
             corpus_line(r.corpus),
             f"- Frames: {r.tactus.window_ms:g} ms window, {r.tactus.hop_ms:g} ms hop, FFT size the next power of "
             "two, at each file's rate (Tactus's default preset); librosa, aubio and the limits use the same.",
             "", contenders_table(r), "",
             "CPU s = user+sys; audio s / CPU s = seconds of audio per CPU second; files / s per wall second. "
             "librosa's and the limits' CPU exclude process start-up and imports (warm); Tactus's and aubio's "
             "include them. The two `--jobs` rows are the fastest of three runs, made in alternating pairs; every other row (Tactus, "
             f"librosa, aubio and the limits alike) is the run with the least CPU of {r.repeats}.", "",
             *overheads(r), "", "Targets:", "",
             *[f"- {c['status']}  {c['target']}: {c['value']}" for c in checks(r)],
             "", "By format (Tactus: `convert` of that format's clips in one process; limits in C):", "",
             formats_table(r), "",
             "By output format (Tactus: `convert --format ID` of the 44.1 kHz WAV clips, no paired audio; "
             "the extra CPU is over `--format ahap`, the same analysis):", "", output_formats_table(r)]
    if r.profiles:
        lines += profile_lines(r)
    return "\n".join(lines) + "\n"


def text_of(command: list[str], env: dict | None = None) -> str:
    try:
        return subprocess.run(command, capture_output=True, text=True, env=env).stdout.strip()
    except OSError:
        return "?"


def machine(tactus: Tactus) -> list[str]:
    model = next((line.split(":", 1)[1].strip() for line in text_of(["lscpu"]).splitlines()
                  if line.startswith("Model name")), platform.processor())
    memory_kb = next(int(line.split()[1]) for line in Path("/proc/meminfo").read_text().splitlines()
                     if line.startswith("MemTotal"))
    revision = text_of(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"])
    # GIT_OPTIONAL_LOCKS=0: reading the status must not refresh (write) the shared index.
    dirty = text_of(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
                    env={**os.environ, "GIT_OPTIONAL_LOCKS": "0"})
    swift = (text_of(["swift", "--version"]).splitlines() or ["swift ?"])[0]
    python_versions = text_of([sys.executable, "-c",
                               "import librosa, numpy; print(librosa.__version__, numpy.__version__)"])
    librosa_version, numpy_version = (python_versions.split() + ["?", "?"])[:2]
    return [
        f"- CPU: {model}, `nproc` = {os.cpu_count()}; memory {memory_kb / 1024 / 1024:.1f} GiB; "
        f"Linux {platform.release()}",
        f"- Tactus {revision}{' + uncommitted changes' if dirty else ''}, {swift}, release build; "
        f"`tactus batch` {'present' if tactus.has_batch else 'absent (convert fallback)'}",
        f"- libsndfile {text_of(['pkg-config', '--modversion', 'sndfile'])}, "
        f"FFTW {text_of(['pkg-config', '--modversion', 'fftw3f'])}; librosa {librosa_version}, "
        f"numpy {numpy_version}, Python {platform.python_version()}; "
        f"aubio {text_of(['dpkg-query', '-W', '-f=${Version}', 'aubio-tools'])}",
    ]


def corpus_line(corpus: Corpus) -> str:
    counts: dict[str, int] = {}
    for clip in corpus.clips:
        counts[clip["format"]] = counts.get(clip["format"], 0) + 1
    rates = sorted({c["rate"] for c in corpus.clips})
    return (f"- Corpus: {len(corpus.clips)} clips, {Corpus.seconds(corpus.clips):,.0f} s of audio "
            f"({', '.join(f'{n} {f}' for f, n in sorted(counts.items()))}; {', '.join(map(str, rates))} Hz; "
            f"mono and stereo; 0.5–10 s) and one {corpus.long['seconds'] / 60:.0f}-minute 44.1 kHz 16-bit "
            "stereo WAV.")


def contenders_table(r: Results) -> str:
    m, clips = r.measurements, r.corpus.clips
    long_seconds, wav44 = r.corpus.long["seconds"], r.wav44_clips()
    rows = [  # name, corpus run, its files, 60-minute run
        (f"Tactus `{r.labels['jobs1']}`", m["jobs1"], clips, m["long-jobs1"]),
        (f"Tactus `{r.labels['jobs2']}`", m["jobs2"], clips, None),
        ("Tactus `convert`, one process per file", m["per-file"], clips, m["long-convert"]),
        (f"Tactus, the {len(wav44)} 44.1 kHz WAV clips (1 process)", m["wav44"], wav44, None),
        ("librosa, warm process, Tactus's frames", m["librosa"], clips, m["librosa-long"]),
        ("librosa, warm process, its defaults (22.05 kHz)", m["librosa-default"], clips, None),
        ("aubioonset, one process per file", m["aubio"], clips, m["aubio-long"]),
        ("limit: libsndfile decode + STFT (C)", m["limit-corpus"], clips, m["limit-long"]),
        ("limit: decode + STFT + each file's paired audio and a small file per input, written and synced (C)",
         m["limit-pair-corpus"], clips, m["limit-pair-long"]),
        ("limit: libsndfile decode alone (C)", m["decode-corpus"], clips, m["decode-long"]),
    ]
    cells = []
    for name, run, files, long_run in rows:
        whole_corpus = len(files) == len(clips)
        cells.append([name + (f" ⚠ {run.failures} failed" if run.failures else ""),
                      table.number(run.cpu, 2), table.number(run.wall, 2),
                      table.number(per_cpu_second(Corpus.seconds(files), run), 0),
                      table.number(len(files) / run.wall, 1),
                      table.number(m["librosa"].cpu / run.cpu, 1) if whole_corpus else "—",
                      table.number(long_run.cpu if long_run else None, 2),
                      table.number(per_cpu_second(long_seconds, long_run), 0),
                      table.number(long_run.peak_rss_mb if long_run else None, 1),
                      table.number(run.foreign_cpu, 1)])
    headers = ["Contender", "CPU s", "wall s", "audio s / CPU s", "files / s", "librosa CPU ÷ this",
               "60-min CPU s", "60-min audio s / CPU s", "60-min peak RSS MB", "others' CPU s"]
    return table.markdown(headers, cells)


def overheads(r: Results) -> list[str]:
    m, files, minutes = r.measurements, len(r.corpus.clips), r.corpus.long["seconds"] / 60
    floor, long_rss = m["one-clip"].peak_rss_mb, m["long-convert"].peak_rss_mb
    return [
        f"- A `tactus convert` process costs {1000 * (m['per-file'].cpu - m['jobs1'].cpu) / files:.0f} ms of CPU "
        "beyond the work (one process per file minus one process for all, per file).",
        f"- Peak RSS: {floor:.1f} MB converting one short clip (the floor: runtime, Foundation, presets), "
        f"{long_rss:.1f} MB for the 60-minute file: {(long_rss - floor) / minutes:.2f} MB more per minute of audio.",
    ]


def formats_table(r: Results) -> str:
    m, rows = r.measurements, []
    for fmt, entries in r.formats().items():
        seconds = Corpus.seconds(entries)
        tactus, limit, decode = m[f"tactus-{fmt}"], m[f"limit-{fmt}"], m[f"decode-{fmt}"]
        rows.append([fmt, str(len(entries)), table.number(seconds, 0),
                     table.number(per_cpu_second(seconds, tactus), 0), table.number(per_cpu_second(seconds, limit), 0),
                     table.number(per_cpu_second(seconds, decode), 0), table.number(tactus.cpu / limit.cpu, 1)])
    return table.markdown(["Format", "clips", "audio s", "Tactus audio s / CPU s", "limit: decode + STFT",
                           "limit: decode alone", "Tactus CPU ÷ limit"], rows)


def output_formats_table(r: Results) -> str:
    m, rows = r.measurements, []
    seconds = Corpus.seconds(r.wav44_clips())
    ahap = m.get("write-ahap")
    for key in sorted(k for k in m if k.startswith("write-")):
        run = m[key]
        extra = run.cpu - ahap.cpu if ahap else None
        rows.append([key.removeprefix("write-"), table.number(run.cpu, 2), table.number(per_cpu_second(seconds, run), 0),
                     table.number(extra, 2) if extra is not None else "?",
                     table.number(1000 * extra / seconds, 2) if extra is not None else "?"])
    return table.markdown(["Output format", "CPU s", "audio s / CPU s", "extra CPU s over AHAP",
                           "extra CPU ms per audio s"], rows)


def profile_lines(r: Results) -> list[str]:
    m, profiles = r.measurements, r.profiles
    cpu = {"corpus": m["jobs1"].cpu, "long": m["long-convert"].cpu}
    rows = [[stage] + [cell for name in ("corpus", "long") for cell in
                       (table.number(100 * profiles[name]["stages"][stage], 1),
                        table.number(profiles[name]["stages"][stage] * cpu[name], 2))]
            for stage in profile_stages.STAGE_NAMES]
    floor = {name: sum(profiles[name]["stages"][s] for s in ("decode + mixdown", "STFT")) * cpu[name] for name in cpu}
    lines = ["", f"Per-stage profile of `{r.labels['jobs1']}` on the corpus and `convert` on the 60-minute file "
             "(perf, 250 Hz, DWARF stacks; shares × the unprofiled CPU time):", "",
             table.markdown(["Stage", "corpus %", "corpus CPU s", "60-min %", "60-min CPU s"], rows), "",
             f"Decode + STFT cost Tactus {floor['corpus']:.2f} CPU s on the corpus and {floor['long']:.2f} on the "
             f"60-minute file; the same work in C takes {m['limit-corpus'].cpu:.2f} and {m['limit-long'].cpu:.2f} "
             f"(decode alone {m['decode-corpus'].cpu:.2f} and {m['decode-long'].cpu:.2f})."]
    for name, title in [("corpus", "corpus"), ("long", "60-minute file")]:
        lines += ["", f"Hot spots, {title} (self time; `←` names the Tactus function that called a library):", ""]
        lines += [f"- {100 * share:4.1f} %  `{spot}`" for spot, share in profiles[name]["hot_spots"]]
    return lines
