/*
 * The machine's limit for Tactus's work: the least a converter must do on every file.
 *
 * Decodes each file with libsndfile in 4096-frame blocks, as Tactus does: 16-bit PCM as
 * integers (libsndfile then only copies), everything else as floats; mixes it down to mono
 * and, unless --decode-only, runs the same short-time Fourier transform as
 * Tactus's analysis: periodic Hann window of round(windowMs * rate / 1000) samples, hop of
 * round(hopMs * rate / 1000), FFT size the next power of two (at least 16), frames centred
 * like librosa's center=True (zeros outside the signal, one frame per hop while the centre
 * lies inside), FFTW single-precision r2c planned with FFTW_ESTIMATE, plus the power of
 * every bin. No onsets, curves, mapping or writing: a converter cannot go faster than this
 * on this machine without a faster decoder or FFT.
 *
 * With --pair-into DIR it also writes what a converter that pairs the audio must write for
 * each file, as Tactus writes it into an output folder: the sound Apple devices play (a
 * WAV/AIFF/CAF copied unchanged, by reflink where the file system shares extents, else by
 * sendfile; anything else decoded into a WAV of the same rate, channels and sample format,
 * while it is analysed) and one small file standing for the haptic file, each written under
 * a temporary name and renamed into place, all of them and DIR synced before the exit.
 *
 * Prints one line of JSON: files, samples (mono), frames, CPU seconds (getrusage of the
 * process, user+sys) and a checksum that keeps the compiler from dropping the work.
 *
 * Build: gcc -O2 machine_limit.c $(pkg-config --cflags --libs sndfile fftw3f) -lm
 * Usage: machine_limit (--decode-only | --window-ms 20 --hop-ms 10 [--pair-into DIR]) FILE...
 */
#include <errno.h>
#include <fcntl.h>
#include <fftw3.h>
#include <math.h>
#include <sndfile.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/sendfile.h>
#include <unistd.h>

enum { BLOCK_FRAMES = 4096 };

typedef struct {
    int window, hop, fft_size;
    float *hann, *history, *in, *power;
    fftwf_complex *out;
    fftwf_plan plan;
    long filled;     /* samples held in history (starts with window/2 leading zeros) */
    long seen;       /* signal samples pushed */
    long next_frame; /* index of the next frame to emit */
    long start;      /* history offset of the next frame's first sample */
} Stft;

static double checksum;
static long frames_done;

static Stft stft_make(double rate, double window_ms, double hop_ms) {
    Stft s = {0};
    s.window = (int)lround(window_ms * rate / 1000);
    if (s.window < 16) s.window = 16;
    s.hop = (int)lround(hop_ms * rate / 1000);
    if (s.hop < 1) s.hop = 1;
    for (s.fft_size = 16; s.fft_size < s.window; s.fft_size *= 2) {}
    s.hann = malloc(sizeof(float) * s.window);
    for (int i = 0; i < s.window; i++) s.hann[i] = (float)(0.5 - 0.5 * cos(2 * M_PI * i / s.window));
    /* Room for the window, a decoded block and the trailing zero padding. */
    s.history = calloc(4 * s.window + BLOCK_FRAMES, sizeof(float));
    s.in = fftwf_alloc_real(s.fft_size);
    s.out = fftwf_alloc_complex(s.fft_size / 2 + 1);
    s.power = malloc(sizeof(float) * (s.fft_size / 2 + 1));
    memset(s.in, 0, sizeof(float) * s.fft_size);
    s.plan = fftwf_plan_dft_r2c_1d(s.fft_size, s.in, s.out, FFTW_ESTIMATE | FFTW_DESTROY_INPUT);
    s.filled = s.window / 2;
    return s;
}

static void stft_free(Stft *s) {
    fftwf_destroy_plan(s->plan);
    fftwf_free(s->in);
    fftwf_free(s->out);
    free(s->hann);
    free(s->history);
    free(s->power);
}

static void stft_frame(Stft *s, const float *x) {
    for (int i = 0; i < s->window; i++) s->in[i] = x[i] * s->hann[i];
    for (int i = s->window; i < s->fft_size; i++) s->in[i] = 0;
    fftwf_execute(s->plan);
    int bins = s->fft_size / 2 + 1;
    for (int k = 0; k < bins; k++) s->power[k] = s->out[k][0] * s->out[k][0] + s->out[k][1] * s->out[k][1];
    /* The spectrum must exist in memory, as Tactus's frames hold it. One bin a frame goes into
     * the checksum: a sum over every bin would be a chain of dependent additions that the
     * work itself does not need. */
    __asm__ volatile("" : : "r"(s->power) : "memory");
    checksum += s->power[frames_done % bins];
    frames_done++;
}

/* Emits every frame whose window is complete, then drops the samples no frame needs. */
static void stft_drain(Stft *s) {
    while (s->filled - s->start >= s->window && s->next_frame * s->hop < s->seen) {
        stft_frame(s, s->history + s->start);
        s->start += s->hop;
        s->next_frame++;
    }
    memmove(s->history, s->history + s->start, sizeof(float) * (s->filled - s->start));
    s->filled -= s->start;
    s->start = 0;
}

static void stft_push(Stft *s, const float *mono, long n) {
    memcpy(s->history + s->filled, mono, sizeof(float) * n);
    s->filled += n;
    s->seen += n;
    stft_drain(s);
}

static void stft_finish(Stft *s) {
    memset(s->history + s->filled, 0, sizeof(float) * s->window);
    s->filled += s->window;
    stft_drain(s);
}

/* Mono mix with the common channel counts as their own loops, so they vectorise. */
static void mix_shorts(const short *in, sf_count_t frames, int channels, float *mono) {
    const float unit = 1.0f / 32768;
    if (channels == 1) { for (sf_count_t i = 0; i < frames; i++) mono[i] = in[i] * unit; return; }
    if (channels == 2) { for (sf_count_t i = 0; i < frames; i++) mono[i] = (in[2 * i] + in[2 * i + 1]) * (unit * 0.5f); return; }
    for (sf_count_t i = 0; i < frames; i++) {
        int total = 0;
        for (int c = 0; c < channels; c++) total += in[i * channels + c];
        mono[i] = total * unit / channels;
    }
}

static void mix_floats(const float *in, sf_count_t frames, int channels, float *mono) {
    if (channels == 1) { memcpy(mono, in, sizeof(float) * frames); return; }
    if (channels == 2) { for (sf_count_t i = 0; i < frames; i++) mono[i] = (in[2 * i] + in[2 * i + 1]) * 0.5f; return; }
    for (sf_count_t i = 0; i < frames; i++) {
        float sum = 0;
        for (int c = 0; c < channels; c++) sum += in[i * channels + c];
        mono[i] = sum / channels;
    }
}


/* --- Writing what a pairing converter writes (--pair-into) --- */

enum { FICLONE_REQUEST = 0x40049409 }; /* _IOW(0x94, 9, int) */

static char **written; /* final paths, synced before the exit */
static long written_count;

static void die(const char *what, const char *path) {
    fprintf(stderr, "machine_limit: %s %s: %s\n", what, path, strerror(errno));
    exit(1);
}

/* Renames the staged file into place and remembers it for the final sync. */
static void commit(const char *staged, const char *final) {
    if (rename(staged, final) != 0) die("cannot rename to", final);
    written = realloc(written, sizeof(char *) * (written_count + 1));
    written[written_count++] = strdup(final);
}

enum { PATH_CHARS = 4096 };

/* An output's final path, DIR/NAME, and the hidden name it is written under, DIR/.NAME.partial. */
typedef struct { char staged[PATH_CHARS], final[PATH_CHARS]; } OutputPaths;

static OutputPaths output_paths(const char *dir, const char *name) {
    OutputPaths paths;
    if (snprintf(paths.staged, sizeof paths.staged, "%s/.%s.partial", dir, name) >= (int)sizeof paths.staged ||
        snprintf(paths.final, sizeof paths.final, "%s/%s", dir, name) >= (int)sizeof paths.final) {
        fprintf(stderr, "machine_limit: %s/%s: path too long\n", dir, name);
        exit(1);
    }
    return paths;
}

/* The last component of `path` followed by `suffix`, into `out`. */
static void file_name(char out[PATH_CHARS], const char *path, const char *suffix) {
    const char *slash = strrchr(path, '/');
    if (snprintf(out, PATH_CHARS, "%s%s", slash ? slash + 1 : path, suffix) >= PATH_CHARS) {
        fprintf(stderr, "machine_limit: %s: name too long\n", path);
        exit(1);
    }
}

/* Apple devices play WAV, AIFF and CAF with PCM or float samples as they are. */
static int apple_playable(int format) {
    int major = format & SF_FORMAT_TYPEMASK, sub = format & SF_FORMAT_SUBMASK;
    int container = major == SF_FORMAT_WAV || major == SF_FORMAT_WAVEX || major == SF_FORMAT_AIFF || major == SF_FORMAT_CAF;
    int encoding = sub == SF_FORMAT_PCM_S8 || sub == SF_FORMAT_PCM_U8 || sub == SF_FORMAT_PCM_16 ||
                   sub == SF_FORMAT_PCM_24 || sub == SF_FORMAT_PCM_32 || sub == SF_FORMAT_FLOAT ||
                   sub == SF_FORMAT_DOUBLE || sub == SF_FORMAT_ULAW || sub == SF_FORMAT_ALAW ||
                   sub == SF_FORMAT_IMA_ADPCM;
    return container && encoding;
}

/* The paired WAV's sample format for a transcoded source: its own where WAV holds it. */
static int transcoded_subtype(int format) {
    switch (format & SF_FORMAT_SUBMASK) {
    case SF_FORMAT_PCM_24: return SF_FORMAT_PCM_24;
    case SF_FORMAT_PCM_32: return SF_FORMAT_PCM_32;
    case SF_FORMAT_FLOAT: case SF_FORMAT_DOUBLE: return SF_FORMAT_FLOAT;
    default: return SF_FORMAT_PCM_16;
    }
}

static void copy_unchanged(const char *source, const char *dir) {
    char name[PATH_CHARS];
    file_name(name, source, "");
    OutputPaths paths = output_paths(dir, name);
    int in = open(source, O_RDONLY | O_CLOEXEC);
    if (in < 0) die("cannot open", source);
    int out = open(paths.staged, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (out < 0) die("cannot create", paths.staged);
    if (ioctl(out, FICLONE_REQUEST, in) != 0) {
        ssize_t sent;
        while ((sent = sendfile(out, in, NULL, 1 << 20)) != 0)
            if (sent < 0 && errno != EINTR) die("cannot copy", source);
    }
    close(in);
    close(out);
    commit(paths.staged, paths.final);
}

/* The file standing for the haptic output: one small text file per input. */
static void write_stand_in(const char *source, const char *dir) {
    char name[PATH_CHARS];
    file_name(name, source, ".haptic-stand-in");
    OutputPaths paths = output_paths(dir, name);
    FILE *out = fopen(paths.staged, "w");
    if (!out) die("cannot create", paths.staged);
    fprintf(out, "{\"frames\": %ld, \"checksum\": %.6g}\n", frames_done, checksum);
    fclose(out);
    commit(paths.staged, paths.final);
}

static void sync_path(const char *path) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0 || fsync(fd) != 0) die("cannot sync", path);
    close(fd);
}

int main(int argc, char **argv) {
    int decode_only = 0;
    double window_ms = 0, hop_ms = 0;
    const char *pair_into = NULL;
    long files = 0, samples = 0;
    int first = 1;
    for (; first < argc && strncmp(argv[first], "--", 2) == 0; first++) {
        if (strcmp(argv[first], "--decode-only") == 0) decode_only = 1;
        else if (strcmp(argv[first], "--window-ms") == 0 && first + 1 < argc) window_ms = atof(argv[++first]);
        else if (strcmp(argv[first], "--hop-ms") == 0 && first + 1 < argc) hop_ms = atof(argv[++first]);
        else if (strcmp(argv[first], "--pair-into") == 0 && first + 1 < argc) pair_into = argv[++first];
        else { fprintf(stderr, "machine_limit: unknown option %s\n", argv[first]); return 64; }
    }
    if (decode_only && pair_into) {
        fprintf(stderr, "machine_limit: --pair-into writes what a converter writes; it needs the STFT, not --decode-only\n");
        return 64;
    }
    if (!decode_only && (window_ms <= 0 || hop_ms <= 0)) {
        fprintf(stderr, "machine_limit: give --window-ms and --hop-ms (Tactus's frames) or --decode-only\n");
        return 64;
    }
    for (int f = first; f < argc; f++) {
        SF_INFO info = {0};
        SNDFILE *file = sf_open(argv[f], SFM_READ, &info);
        if (!file) { fprintf(stderr, "machine_limit: %s: %s\n", argv[f], sf_strerror(NULL)); return 1; }
        float *block = malloc(sizeof(float) * BLOCK_FRAMES * info.channels), mono[BLOCK_FRAMES];
        short *shorts = malloc(sizeof(short) * BLOCK_FRAMES * info.channels);
        /* A transcoded pairing is written from the decoded floats, as Tactus writes it. */
        int transcode = pair_into && !apple_playable(info.format);
        int sixteen_bit = (info.format & SF_FORMAT_SUBMASK) == SF_FORMAT_PCM_16 && !transcode;
        SNDFILE *paired = NULL;
        OutputPaths paths;
        if (transcode) {
            char name[PATH_CHARS];
            file_name(name, argv[f], "");
            char *dot = strrchr(name, '.');
            if (dot) *dot = 0;
            char wav[PATH_CHARS];
            file_name(wav, name, ".wav");
            paths = output_paths(pair_into, wav);
            SF_INFO out = {.samplerate = info.samplerate, .channels = info.channels,
                           .format = SF_FORMAT_WAV | transcoded_subtype(info.format)};
            paired = sf_open(paths.staged, SFM_WRITE, &out);
            if (!paired) { fprintf(stderr, "machine_limit: %s: %s\n", paths.staged, sf_strerror(NULL)); return 1; }
            sf_command(paired, SFC_SET_CLIPPING, NULL, SF_TRUE);
        }
        Stft s = stft_make(info.samplerate, window_ms, hop_ms);
        sf_count_t got;
        while ((got = sixteen_bit ? sf_readf_short(file, shorts, BLOCK_FRAMES)
                                  : sf_readf_float(file, block, BLOCK_FRAMES)) > 0) {
            if (paired && sf_writef_float(paired, block, got) != got) die("cannot write", paths.staged);
            if (sixteen_bit) mix_shorts(shorts, got, info.channels, mono);
            else mix_floats(block, got, info.channels, mono);
            samples += got;
            if (decode_only) checksum += mono[0];
            else stft_push(&s, mono, got);
        }
        if (!decode_only) stft_finish(&s);
        stft_free(&s);
        free(block);
        free(shorts);
        sf_close(file);
        if (paired) { sf_close(paired); commit(paths.staged, paths.final); }
        else if (pair_into) copy_unchanged(argv[f], pair_into);
        if (pair_into) write_stand_in(argv[f], pair_into);
        files++;
    }
    for (long i = 0; i < written_count; i++) sync_path(written[i]);
    if (pair_into) sync_path(pair_into);
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    double cpu = usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
    printf("{\"files\": %ld, \"samples\": %ld, \"frames\": %ld, \"cpu_seconds\": %.4f, \"checksum\": %.6g}\n",
           files, samples, frames_done, cpu, checksum);
    return 0;
}
