package dev.tactus.haptics;

import dev.tactus.haptics.TactusHaptics.Capabilities;
import dev.tactus.haptics.TactusHaptics.EnvelopeLimits;
import dev.tactus.haptics.TactusHaptics.Form;
import dev.tactus.haptics.TactusHaptics.InvalidFileException;
import dev.tactus.haptics.TactusHaptics.PrimitiveType;

import android.media.AudioAttributes;
import android.media.MediaPlayer;
import android.os.Vibrator;
import dev.tactus.haptics.TactusAudioCoupled.Route;

import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.Random;

/**
 * JVM tests of TactusHaptics (parsing, refusals, choice of form, composition delays), run by
 * scripts/check-android.sh: {@code java TactusHapticsTest <fixture folder> <FORMAT.md>}, the
 * folder holding {@code *.android.json} files written by the tactus tool. Prints one line per
 * failure, then "N passed, M failed"; exits 1 when anything failed.
 */
final class TactusHapticsTest {
    private int passed, failed;

    /** A check that throws AssertionError (or anything) when it fails. */
    private interface Check {
        void run() throws Exception;
    }

    public static void main(String[] args) throws IOException {
        TactusHapticsTest test = new TactusHapticsTest();
        test.formatExample(new String(Files.readAllBytes(new File(args[1]).toPath()), StandardCharsets.UTF_8));
        test.toolFiles(new File(args[0]));
        test.refusals();
        test.jsonSyntax();
        test.limits();
        test.unknownKeysIgnored();
        test.hostileInputNeverCrashes();
        test.formChoice();
        test.envelopeLimits();
        test.compositionDelays();
        test.primitiveTypes();
        test.audioCoupledRouting();
        test.oggFiles(new File(args[0]));
        System.out.println(test.passed + " passed, " + test.failed + " failed");
        System.exit(test.failed == 0 ? 0 : 1);
    }

    // MARK: - Audio-coupled haptics (TactusAudioCoupled)

    /** A MediaPlayer that records what it is asked, in order. */
    private static final class RecordingPlayer extends MediaPlayer {
        final StringBuilder calls = new StringBuilder();
        AudioAttributes attributes;

        @Override public void setAudioAttributes(AudioAttributes attributes) {
            this.attributes = attributes;
            calls.append("attributes ");
        }
        @Override public void setDataSource(String path) { calls.append("source:").append(path).append(' '); }
        @Override public void prepare() { calls.append("prepare "); }
        @Override public void start() { calls.append("start"); }
    }

    /** A vibrator with amplitude control that records nothing (the stubbed SDK level is 0). */
    private static final class QuietVibrator extends Vibrator {
        @Override public boolean hasVibrator() { return true; }
        @Override public boolean hasAmplitudeControl() { return true; }
    }

    /** Where haptic channels play, the file plays with them unmuted and the vibrator is left
     * alone; elsewhere they stay muted (the SDK's default) and the JSON forms take over. */
    private void audioCoupledRouting() {
        check("haptic channel route", () -> {
            RecordingPlayer player = new RecordingPlayer();
            Route route = TactusAudioCoupled.play(player, "boom.android.ogg", TactusHaptics.load(BASE), new QuietVibrator(), true);
            expect(route == Route.HAPTIC_CHANNEL, "route " + route);
            expect(!player.attributes.areHapticChannelsMuted(), "haptic channels left muted");
            expect(player.attributes.getUsage() == AudioAttributes.USAGE_MEDIA, "usage " + player.attributes.getUsage());
            expect(player.calls.toString().equals("attributes source:boom.android.ogg prepare start"), player.calls.toString());
        });
        check("vibrator fallback route", () -> {
            RecordingPlayer player = new RecordingPlayer();
            Route route = TactusAudioCoupled.play(player, "boom.android.ogg", TactusHaptics.load(BASE), new QuietVibrator(), false);
            expect(route == Route.VIBRATOR_FALLBACK, "route " + route);
            expect(player.attributes.areHapticChannelsMuted(), "haptic channels unmuted on a device without them");
            expect(player.calls.toString().endsWith("start"), player.calls.toString());
        });
    }

    /** The tool's .android.ogg files declare their haptic channel where Android reads it: an
     * {@code ANDROID_HAPTIC=1} Vorbis comment in the stream's first pages. */
    private void oggFiles(File folder) {
        File[] files = folder.listFiles((dir, name) -> name.endsWith(".android.ogg"));
        check("tool .android.ogg files found", () -> expect(files != null && files.length > 0, "no .android.ogg in " + folder));
        if (files == null) {
            return;
        }
        byte[] tag = "ANDROID_HAPTIC=1".getBytes(StandardCharsets.US_ASCII);
        for (File file : files) {
            check("haptic comment in " + file.getName(), () -> {
                byte[] bytes = Files.readAllBytes(file.toPath());
                expect(bytes.length > 4 && bytes[0] == 'O' && bytes[1] == 'g' && bytes[2] == 'g' && bytes[3] == 'S', "not Ogg");
                int limit = Math.min(bytes.length, 1 << 16) - tag.length;
                boolean found = false;
                for (int i = 0; i <= limit && !found; i++) {
                    found = Arrays.equals(Arrays.copyOfRange(bytes, i, i + tag.length), tag);
                }
                expect(found, "no ANDROID_HAPTIC=1 in its first 64 KB");
            });
        }
    }

    // MARK: - Fixtures

    /** JSON written with ' for " (readable in Java 8 source). */
    private static String q(String text) {
        return text.replace('\'', '"');
    }

    /** A valid file: FORMAT.md's example, compact. */
    private static final String BASE = q("{'format': 'tactus-android', 'version': 1,"
            + " 'metadata': {'Source': 'boom.wav', 'Preset': 'default'},"
            + " 'durationMs': 1520,"
            + " 'waveform': {'timings': [120, 10, 40, 30, 1320], 'amplitudes': [0, 255, 90, 40, 0]},"
            + " 'onOff': {'timings': [120, 60, 1340]},"
            + " 'composition': {'complete': false, 'primitives': ["
            + "{'primitive': 'THUD', 'scale': 0.95, 'startMs': 120},"
            + " {'primitive': 'TICK', 'scale': 0.4, 'startMs': 700}]},"
            + " 'envelope': {'initialSharpness': 0.5, 'controlPoints': ["
            + "{'intensity': 0, 'sharpness': 0.5, 'durationMs': 110},"
            + " {'intensity': 1, 'sharpness': 0.35, 'durationMs': 20},"
            + " {'intensity': 0, 'sharpness': 0.35, 'durationMs': 200}]}}");

    /** {@code text} with the single occurrence of {@code from} replaced (fails loudly if not exactly one). */
    private static String replaceOnce(String text, String from, String to) {
        int at = text.indexOf(from);
        if (at < 0 || text.indexOf(from, at + 1) >= 0) throw new AssertionError("fixture text not found once: " + from);
        return text.substring(0, at) + to + text.substring(at + from.length());
    }

    /** BASE with one quoted-JSON fragment replaced. */
    private static String base(String from, String to) {
        return replaceOnce(BASE, q(from), q(to));
    }

    private static String repeat(String s, int times) {
        StringBuilder out = new StringBuilder(s.length() * times);
        for (int i = 0; i < times; i++) out.append(s);
        return out.toString();
    }

    // MARK: - Runner

    private void check(String name, Check check) {
        try {
            check.run();
            passed++;
        } catch (Throwable t) {
            failed++;
            System.out.println("FAIL " + name + ": " + t);
        }
    }

    private static void expect(boolean condition, String what) {
        if (!condition) throw new AssertionError(what);
    }

    private static void expectEqual(Object expected, Object actual) {
        if (!Arrays.deepEquals(new Object[] {expected}, new Object[] {actual})) {
            throw new AssertionError("expected " + Arrays.deepToString(new Object[] {expected})
                    + ", got " + Arrays.deepToString(new Object[] {actual}));
        }
    }

    /** Loading {@code json} must throw InvalidFileException whose message holds every fragment. */
    private void refused(String name, String json, String... fragments) {
        check("refuses " + name, () -> {
            try {
                TactusHaptics.load(json);
            } catch (InvalidFileException e) {
                for (String fragment : fragments) {
                    expect(e.getMessage().contains(fragment), "message \"" + e.getMessage() + "\" lacks \"" + fragment + "\"");
                }
                return;
            }
            throw new AssertionError("loaded");
        });
    }

    // MARK: - Parsing

    /** FORMAT.md's own example loads with exactly its values. */
    private void formatExample(String formatMd) {
        int start = formatMd.indexOf("```json\n") + "```json\n".length();
        String example = formatMd.substring(start, formatMd.indexOf("```", start));
        check("FORMAT.md example: values", () -> {
            TactusHaptics h = TactusHaptics.load(example);
            expectEqual("boom.wav", h.metadata().get("Source"));
            expectEqual("\u2026", h.metadata().get("ToolVersion"));
            expectEqual(1520, h.durationMs());
            expectEqual(new long[] {120, 10, 40, 30, 1320}, h.waveformTimings);
            expectEqual(new int[] {0, 255, 90, 40, 0}, h.waveformAmplitudes);
            expectEqual(new long[] {120, 60, 1340}, h.onOffTimings);
            expectEqual(false, h.compositionComplete);
            expectEqual(2, h.primitives.length);
            expectEqual(PrimitiveType.THUD, h.primitives[0].type);
            expectEqual(0.95f, h.primitives[0].scale);
            expectEqual(120, h.primitives[0].startMs);
            expectEqual(PrimitiveType.TICK, h.primitives[1].type);
            expectEqual(0.40f, h.primitives[1].scale);
            expectEqual(700, h.primitives[1].startMs);
            expectEqual(0.5f, h.initialSharpness);
            expectEqual(3, h.controlPoints.length);
            expectEqual(1f, h.controlPoints[1].intensity);
            expectEqual(0.35f, h.controlPoints[1].sharpness);
            expectEqual(20, h.controlPoints[1].durationMs);
            expectEqual(200, h.controlPoints[2].durationMs);
        });
        check("FORMAT.md example: every truncation refused", () -> {
            for (int length = 0; length < example.trim().length(); length++) {
                try {
                    TactusHaptics.load(example.substring(0, length));
                    throw new AssertionError("loaded the first " + length + " characters");
                } catch (InvalidFileException expected) {
                    // the only acceptable outcome
                }
            }
        });
    }

    /** Every file the tool wrote loads, with values consistent with the writer's rules. */
    private void toolFiles(File folder) {
        File[] files = folder.listFiles((dir, name) -> name.endsWith(".android.json"));
        check("tool files found", () -> expect(files != null && files.length > 0, "no .android.json in " + folder));
        if (files == null) return;
        Arrays.sort(files);
        for (File file : files) {
            String stem = file.getName().substring(0, file.getName().length() - ".android.json".length());
            check("tool file " + file.getName(), () -> {
                TactusHaptics h;
                try (InputStream in = Files.newInputStream(file.toPath())) {
                    h = TactusHaptics.load(in);
                }
                expectEqual(stem + ".wav", h.metadata().get("Source"));
                // Both waveforms are run lengths of the same per-millisecond levels over durationMs.
                expectEqual((long) h.durationMs(), sum(h.waveformTimings));
                expectEqual((long) h.durationMs(), sum(h.onOffTimings));
                for (int i = 1; i < h.waveformAmplitudes.length; i++) {
                    expect(h.waveformAmplitudes[i] != h.waveformAmplitudes[i - 1], "run-length encoded amplitudes");
                }
            });
        }
        check("tool file: clicks are a complete composition", () -> {
            TactusHaptics h = TactusHaptics.load(new String(Files.readAllBytes(new File(folder, "ui_clicks.android.json").toPath()),
                    StandardCharsets.UTF_8));
            expect(h.compositionComplete && h.primitives.length > 0, "complete with primitives");
            expectEqual(Form.COMPOSITION, h.chooseForm(device(true, allPrimitives(), null)));
        });
        check("tool file: an engine loop is not a complete composition", () -> {
            TactusHaptics h = TactusHaptics.load(new String(Files.readAllBytes(new File(folder, "engine_loop.android.json").toPath()),
                    StandardCharsets.UTF_8));
            expect(!h.compositionComplete, "not complete");
            expectEqual(Form.WAVEFORM, h.chooseForm(device(true, allPrimitives(), null)));
        });
    }

    private static long sum(long[] values) {
        long total = 0;
        for (long value : values) total += value;
        return total;
    }

    private void refusals() {
        refused("another format", base("'format': 'tactus-android'", "'format': 'tactus-ahap'"),
                "$.format: expected \"tactus-android\", found \"tactus-ahap\"");
        refused("version 2", base("'version': 1", "'version': 2"), "$.version: version 2 is not supported");
        refused("a version as text", base("'version': 1", "'version': '1'"), "$.version: expected an integer");
        refused("arrays of different lengths", base("'amplitudes': [0, 255, 90, 40, 0]", "'amplitudes': [0, 255, 90, 40]"),
                "$.waveform.amplitudes: 4 entries, but $.waveform.timings has 5");
        refused("amplitude 256", base("[0, 255, 90", "[0, 256, 90"),
                "$.waveform.amplitudes[1]: expected an integer from 0 to 255, found 256");
        refused("negative timing", base("[120, 10, 40", "[120, -10, 40"),
                "$.waveform.timings[1]: expected an integer from 0 to 2147483647, found -10");
        refused("fractional timing", base("[120, 10, 40", "[120, 10.5, 40"), "$.waveform.timings[1]:", "found 10.5");
        refused("timing with a fraction of 0", base("[120, 10, 40", "[120, 10.0, 40"), "$.waveform.timings[1]:", "found 10.0");
        refused("timing with an exponent", base("[120, 10, 40", "[120, 1e1, 40"), "$.waveform.timings[1]:", "found 10.0");
        refused("timing above int", base("[120, 10, 40", "[120, 2147483648, 40"), "$.waveform.timings[1]:", "found 2147483648");
        refused("huge timing", base("[120, 10, 40", "[120, 99999999999999999999, 40"), "$.waveform.timings[1]:", "found 1.0E20");
        refused("huge scale", base("'scale': 0.95", "'scale': 1e999"),
                "$.composition.primitives[0].scale: expected a number from 0 to 1, found Infinity");
        refused("scale above 1", base("'scale': 0.95", "'scale': 1.5"), "$.composition.primitives[0].scale:", "found 1.5");
        refused("negative intensity", base("{'intensity': 1,", "{'intensity': -0.1,"),
                "$.envelope.controlPoints[1].intensity: expected a number from 0 to 1");
        refused("sharpness above 1", base("'initialSharpness': 0.5", "'initialSharpness': 2"), "$.envelope.initialSharpness:");
        refused("envelope duration below 20", base("'durationMs': 110", "'durationMs': 19"),
                "$.envelope.controlPoints[0].durationMs: expected an integer from 20 to 1000, found 19");
        refused("envelope duration above 1000", base("'durationMs': 200", "'durationMs': 1001"),
                "$.envelope.controlPoints[2].durationMs:", "found 1001");
        refused("envelope not ending at 0", base("{'intensity': 0, 'sharpness': 0.35", "{'intensity': 0.2, 'sharpness': 0.35"),
                "$.envelope.controlPoints[2].intensity: the last control point must have intensity 0");
        refused("an empty envelope", BASE.replaceAll("\"controlPoints\": \\[.*\\]", "\"controlPoints\": []"),
                "$.envelope.controlPoints: empty");
        refused("empty timings", base("'onOff': {'timings': [120, 60, 1340]}", "'onOff': {'timings': []}"),
                "$.onOff.timings: empty");
        refused("timings all 0", base("[120, 60, 1340]", "[0, 0, 0]"), "$.onOff.timings: all 0");
        refused("an unknown primitive", base("'THUD'", "'BOOM'"), "$.composition.primitives[0].primitive:", "found \"BOOM\"");
        refused("unsorted primitives", base("'startMs': 700", "'startMs': 100"),
                "$.composition.primitives[1].startMs: 100 is before the previous primitive's 120");
        refused("complete as text", base("'complete': false", "'complete': 'no'"),
                "$.composition.complete: expected true or false, found \"no\"");
        refused("a missing part", base("'onOff': {'timings': [120, 60, 1340]},", ""), "$.onOff: missing");
        refused("null for a number", base("'durationMs': 1520", "'durationMs': null"), "$.durationMs:", "found null");
        refused("a metadata value that is not a string", base("'Preset': 'default'", "'Preset': 3"),
                "$.metadata.Preset: expected a string, found 3");
        refused("an array where an object belongs", base("'onOff': {'timings': [120, 60, 1340]}", "'onOff': [1]"),
                "$.onOff: expected an object, found an array");
        refused("a top-level array", "[1]", "$: expected an object, found an array");
    }

    private void jsonSyntax() {
        refused("truncated JSON", BASE.substring(0, BASE.length() / 2), "invalid JSON at line 1", "found the end of the text");
        refused("empty text", "", "$: invalid JSON", "expected a value, found the end of the text");
        refused("trailing text", BASE + " x", "$: invalid JSON", "expected the end of the text, found 'x'");
        refused("a duplicate key", base("'durationMs': 1520,", "'durationMs': 1520, 'durationMs': 5,"), "$.durationMs: duplicate key");
        refused("a leading zero", base("[120, 10, 40", "[0120, 10, 40"), "$.waveform.timings: invalid JSON", "found '1'");
        refused("NaN", base("'scale': 0.95", "'scale': NaN"), "$.composition.primitives[0].scale: invalid JSON");
        refused("a bare minus", base("'scale': 0.95", "'scale': -"), "invalid JSON", "expected a value");
        refused("a fraction without digits", base("'scale': 0.95", "'scale': 1."), "expected a digit after '.'");
        refused("an invalid escape", base("'boom.wav'", "'bo\\qm.wav'"), "$.metadata.Source: invalid JSON", "a valid escape");
        refused("a short \\u escape", base("'boom.wav'", "'boom\\u12'"), "a valid escape");
        refused("a control character in a string", base("'boom.wav'", "'boom\u0001.wav'"), "no control character");
        refused("an unquoted key", base("'durationMs': 1520", "durationMs': 1520"), "a key in double quotes", "found 'd'");
        refused("a missing colon", base("'durationMs': 1520", "'durationMs' 1520"), "$.durationMs: invalid JSON", "expected ':'");
        refused("a missing comma", base("[120, 60, 1340]", "[120 60, 1340]"), "expected ',' or ']'");
        refused("an unknown literal", base("'complete': false", "'complete': fals"), "$.composition.complete: invalid JSON");
        check("line and column in syntax errors", () -> {
            try {
                TactusHaptics.load("{\n  \"format\": x}");
                throw new AssertionError("loaded");
            } catch (InvalidFileException e) {
                expect(e.getMessage().contains("line 2, column 13"), e.getMessage());
            }
        });
        check("escapes decoded", () -> {
            TactusHaptics h = TactusHaptics.load(replaceOnce(BASE, "\"boom.wav\"", "\"b\\u00f6\\\"om\\\\\\n\\/\""));
            expectEqual("b\u00f6\"om\\\n/", h.metadata().get("Source"));
        });
    }

    private void limits() {
        refused("deep nesting", base("'durationMs': 1520,", "'deep': " + repeat("[", 100_000) + repeat("]", 100_000) + ", 'durationMs': 1520,"),
                "$.deep" + repeat("[0]", TactusHaptics.Json.MAX_DEPTH - 1) + ": nested deeper than 32 levels");
        refused("deep nesting at the top", repeat("[", 1_000_000), "nested deeper than 32 levels");
        check("nesting up to the limit is accepted (unknown key)", () -> {
            String deep = repeat("[", TactusHaptics.Json.MAX_DEPTH - 1) + repeat("]", TactusHaptics.Json.MAX_DEPTH - 1);
            TactusHaptics.load(base("'durationMs': 1520,", "'deep': " + deep + ", 'durationMs': 1520,"));
        });
        refused("text beyond the size limit", BASE + repeat(" ", TactusHaptics.MAX_SIZE), "$: longer than 4194304 characters");
        check("stream beyond the size limit refused", () -> {
            byte[] bytes = (BASE + repeat(" ", TactusHaptics.MAX_SIZE)).getBytes(StandardCharsets.UTF_8);
            try {
                TactusHaptics.load(new ByteArrayInputStream(bytes));
                throw new AssertionError("loaded");
            } catch (InvalidFileException e) {
                expect(e.getMessage().contains("larger than 4194304 bytes"), e.getMessage());
            }
        });
        check("stream that is not UTF-8 refused", () -> {
            byte[] bytes = base("'boom.wav'", "'boom?wav'").getBytes(StandardCharsets.UTF_8);
            bytes[BASE.indexOf("boom.wav") + 4] = (byte) 0xC3; // a lead byte followed by ASCII
            try {
                TactusHaptics.load(new ByteArrayInputStream(bytes));
                throw new AssertionError("loaded");
            } catch (InvalidFileException e) {
                expect(e.getMessage().contains("$: not UTF-8 text"), e.getMessage());
            }
        });
        check("a valid UTF-8 stream loads", () ->
                expectEqual(1520, TactusHaptics.load(new ByteArrayInputStream(BASE.getBytes(StandardCharsets.UTF_8))).durationMs()));
    }

    private void unknownKeysIgnored() {
        check("unknown keys ignored", () -> {
            String json = base("'durationMs': 1520,", "'future': {'a': [1, -2.5e3, {'b': null}], 'c': true}, 'durationMs': 1520,");
            json = replaceOnce(json, q("'timings': [120, 10"), q("'gain': 3, 'timings': [120, 10"));
            json = replaceOnce(json, q("{'primitive': 'THUD',"), q("{'pan': -1, 'primitive': 'THUD',"));
            json = replaceOnce(json, q("'durationMs': 110}"), q("'durationMs': 110, 'curve': 'ease'}"));
            TactusHaptics h = TactusHaptics.load(json);
            TactusHaptics plain = TactusHaptics.load(BASE);
            expectEqual(plain.durationMs(), h.durationMs());
            expectEqual(plain.waveformTimings, h.waveformTimings);
            expectEqual(PrimitiveType.THUD, h.primitives[0].type);
            expectEqual(110, h.controlPoints[0].durationMs);
        });
        check("keys in any order", () -> {
            String json = base("'format': 'tactus-android', 'version': 1,", "");
            json = replaceOnce(json, "}}", "}, " + q("'version': 1, 'format': 'tactus-android'}"));
            expectEqual(1520, TactusHaptics.load(json).durationMs());
        });
    }

    /** Seeded random edits of a valid file: each loads or is refused with InvalidFileException, nothing else. */
    private void hostileInputNeverCrashes() {
        check("5000 random edits load or are refused cleanly", () -> {
            Random random = new Random(20240601);
            String alphabet = "{}[]\",:0123456789.-+eE \\tfnu";
            for (int i = 0; i < 5000; i++) {
                StringBuilder json = new StringBuilder(BASE);
                for (int edits = 1 + random.nextInt(3); edits > 0; edits--) {
                    int at = random.nextInt(json.length());
                    switch (random.nextInt(3)) {
                        case 0: json.setCharAt(at, alphabet.charAt(random.nextInt(alphabet.length()))); break;
                        case 1: json.deleteCharAt(at); break;
                        default: json.insert(at, alphabet.charAt(random.nextInt(alphabet.length())));
                    }
                }
                try {
                    TactusHaptics.load(json.toString());
                } catch (InvalidFileException expected) {
                    // a clean refusal
                } catch (RuntimeException | Error e) {
                    throw new AssertionError("edit " + i + " crashed with " + e + " on " + json, e);
                }
            }
        });
    }

    // MARK: - Choice of form

    private static Map<PrimitiveType, Integer> allPrimitives() {
        Map<PrimitiveType, Integer> durations = new EnumMap<>(PrimitiveType.class);
        for (PrimitiveType type : PrimitiveType.values()) durations.put(type, 20);
        return durations;
    }

    private static Map<PrimitiveType, Integer> allButTick() {
        Map<PrimitiveType, Integer> durations = allPrimitives();
        durations.remove(PrimitiveType.TICK);
        return durations;
    }

    private static Capabilities device(boolean amplitudeControl, Map<PrimitiveType, Integer> primitives, EnvelopeLimits envelope) {
        return new Capabilities(true, amplitudeControl, primitives, envelope);
    }

    /** Limits BASE's envelope (3 points: 110, 20, 200 ms) fits. */
    private static final EnvelopeLimits FITS = new EnvelopeLimits(16, 20, 1000, 16_000);
    /** Limits it does not fit (2 points at most). */
    private static final EnvelopeLimits TOO_SMALL = new EnvelopeLimits(2, 20, 1000, 2_000);

    /** One row of FORMAT.md's list: a device, whether the composition is complete, the expected form. */
    private void choice(EnvelopeLimits envelope, Map<PrimitiveType, Integer> primitives, boolean complete,
                        boolean amplitudeControl, Form expected) {
        String name = "form: envelope " + (envelope == null ? "unsupported" : envelope == FITS ? "fits" : "too small")
                + ", " + (primitives.size() == PrimitiveType.values().length ? "all primitives" : "TICK unsupported")
                + ", complete " + complete + ", amplitude control " + amplitudeControl;
        check(name, () -> {
            TactusHaptics h = TactusHaptics.load(base("'complete': false", "'complete': " + complete));
            expectEqual(expected, h.chooseForm(device(amplitudeControl, primitives, envelope)));
        });
    }

    private void formChoice() {
        Map<PrimitiveType, Integer> all = allPrimitives(), missing = allButTick();
        // 1. envelope whenever it fits, whatever else the device has.
        for (Map<PrimitiveType, Integer> primitives : Arrays.asList(all, missing)) {
            for (boolean complete : new boolean[] {true, false}) {
                for (boolean amplitude : new boolean[] {true, false}) choice(FITS, primitives, complete, amplitude, Form.ENVELOPE);
            }
        }
        // 2.–4. without a usable envelope (unsupported, or beyond the device's limits).
        for (EnvelopeLimits envelope : new EnvelopeLimits[] {null, TOO_SMALL}) {
            choice(envelope, all, true, true, Form.COMPOSITION);
            choice(envelope, all, true, false, Form.COMPOSITION);
            choice(envelope, all, false, true, Form.WAVEFORM);
            choice(envelope, all, false, false, Form.COMPOSITION);
            choice(envelope, missing, true, true, Form.WAVEFORM);
            choice(envelope, missing, true, false, Form.ON_OFF);
            choice(envelope, missing, false, true, Form.WAVEFORM);
            choice(envelope, missing, false, false, Form.ON_OFF);
        }
        check("form: no vibrator plays nothing", () ->
                expectEqual(Form.NONE, TactusHaptics.load(BASE).chooseForm(new Capabilities(false, true, allPrimitives(), FITS))));
        check("form: an empty composition is never chosen", () -> {
            TactusHaptics h = TactusHaptics.load(BASE.replaceAll("\"primitives\": \\[.*?\\]}", "\"primitives\": []}")
                    .replace("\"complete\": false", "\"complete\": true"));
            expectEqual(0, h.primitives.length);
            expectEqual(Form.ON_OFF, h.chooseForm(device(false, allPrimitives(), null)));
            expectEqual(Form.WAVEFORM, h.chooseForm(device(true, allPrimitives(), null)));
        });
    }

    private void envelopeLimits() {
        // BASE's envelope: 3 points of 110, 20 and 200 ms, 330 ms in all.
        Object[][] cases = {
            {new EnvelopeLimits(3, 20, 200, 330), true, "exactly at every limit"},
            {new EnvelopeLimits(2, 20, 200, 330), false, "one point too many"},
            {new EnvelopeLimits(3, 21, 200, 330), false, "a point shorter than the minimum"},
            {new EnvelopeLimits(3, 20, 199, 330), false, "a point longer than the maximum"},
            {new EnvelopeLimits(3, 20, 200, 329), false, "longer than the maximum total"},
        };
        for (Object[] c : cases) {
            check("envelope limits: " + c[2], () ->
                    expectEqual(c[1], TactusHaptics.load(BASE).envelopeFits((EnvelopeLimits) c[0])));
        }
    }

    private void compositionDelays() {
        String five = base("{'primitive': 'THUD', 'scale': 0.95, 'startMs': 120}, {'primitive': 'TICK', 'scale': 0.4, 'startMs': 700}",
                "{'primitive': 'CLICK', 'scale': 1, 'startMs': 0}, {'primitive': 'THUD', 'scale': 1, 'startMs': 40},"
                + " {'primitive': 'TICK', 'scale': 1, 'startMs': 200}, {'primitive': 'SLOW_RISE', 'scale': 1, 'startMs': 205},"
                + " {'primitive': 'QUICK_FALL', 'scale': 1, 'startMs': 400}");
        check("composition delays with the device's durations", () -> {
            Map<PrimitiveType, Integer> durations = new EnumMap<>(PrimitiveType.class);
            durations.put(PrimitiveType.CLICK, 12);
            durations.put(PrimitiveType.THUD, 60);
            durations.put(PrimitiveType.TICK, 8);
            durations.put(PrimitiveType.SLOW_RISE, 150);
            durations.put(PrimitiveType.QUICK_FALL, 20);
            // Each delay counts from where the previous primitive really ends: 0; 40 − 12;
            // 200 − 100; SLOW_RISE waits for TICK's end (208), so it ends at 358; 400 − 358.
            expectEqual(new int[] {0, 28, 100, 0, 42}, TactusHaptics.load(five).compositionDelays(device(true, durations, null)));
        });
        check("composition delays with unknown durations (API 30)", () -> {
            Map<PrimitiveType, Integer> unknown = new EnumMap<>(PrimitiveType.class);
            for (PrimitiveType type : PrimitiveType.values()) unknown.put(type, 0);
            expectEqual(new int[] {0, 40, 160, 5, 195}, TactusHaptics.load(five).compositionDelays(device(true, unknown, null)));
        });
        check("composition delays: the first waits its startMs", () ->
                expectEqual(new int[] {120, 700 - (120 + 20)},
                        TactusHaptics.load(BASE).compositionDelays(device(true, allPrimitives(), null))));
    }

    private void primitiveTypes() {
        check("primitive ids are the SDK's PRIMITIVE_* values", () -> {
            int[] expected = {1, 7, 8, 2, 3, 4, 5, 6}; // CLICK TICK LOW_TICK THUD SPIN QUICK_RISE SLOW_RISE QUICK_FALL
            for (PrimitiveType type : PrimitiveType.values()) expectEqual(expected[type.ordinal()], type.id);
        });
        check("primitive API levels: THUD, SPIN, LOW_TICK from 31, the others from 30", () -> {
            for (PrimitiveType type : PrimitiveType.values()) {
                boolean since31 = type == PrimitiveType.THUD || type == PrimitiveType.SPIN || type == PrimitiveType.LOW_TICK;
                expectEqual(!since31, type.availableOn(30));
                expectEqual(true, type.availableOn(31));
                expectEqual(false, type.availableOn(29));
            }
        });
    }
}
