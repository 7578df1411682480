package dev.tactus.haptics;

import android.annotation.TargetApi;
import android.os.Build;
import android.os.VibrationEffect;
import android.os.Vibrator;
import android.os.vibrator.VibratorEnvelopeEffectInfo;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Plays a Tactus {@code <stem>.android.json} file (Integrations/Android/FORMAT.md, version 1)
 * with the best form the device supports: envelope (API 36), composition of primitives
 * (API 30), waveform with amplitudes, or on/off waveform (API 26).
 *
 * <pre>
 * TactusHaptics boom;
 * try (InputStream in = context.getAssets().open("boom.android.json")) {
 *     boom = TactusHaptics.load(in);
 * }
 * boom.play(context.getSystemService(Vibrator.class));
 * </pre>
 *
 * Loading validates the whole file and throws {@link InvalidFileException} naming the first
 * problem and its JSON path, so the effect builders get only values they accept.
 * Parsing and the choice of form are plain Java (no Android call), so they run in JVM tests.
 * Java 8 language level, no dependency.
 */
public final class TactusHaptics {
    /** The {@code format} value of every file this class reads. */
    public static final String FORMAT = "tactus-android";
    /** The only {@code version} this class reads. */
    public static final int VERSION = 1;
    /** Largest file accepted: characters for {@link #load(String)}, bytes for {@link #load(InputStream)}. */
    public static final int MAX_SIZE = 4 << 20;
    /** Largest integer accepted anywhere (ms): createWaveform and addPrimitive take them as int. */
    static final int MAX_INTEGER = Integer.MAX_VALUE;
    /** Bounds of every envelope control point's durationMs (FORMAT.md: what every envelope-capable device supports). */
    static final int ENVELOPE_MIN_MS = 20, ENVELOPE_MAX_MS = 1000;

    /** The forms a file is played in, best first; NONE when the device cannot vibrate. */
    public enum Form { ENVELOPE, COMPOSITION, WAVEFORM, ON_OFF, NONE }

    /** A file that is not a valid version-1 tactus-android file; the message names the JSON path. */
    public static final class InvalidFileException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        InvalidFileException(String path, String problem) {
            super("invalid " + FORMAT + " file: " + path + ": " + problem);
        }
    }

    /** The composition primitives a file may use, with their SDK constant and first API level. */
    enum PrimitiveType {
        CLICK(VibrationEffect.Composition.PRIMITIVE_CLICK, Build.VERSION_CODES.R),
        TICK(VibrationEffect.Composition.PRIMITIVE_TICK, Build.VERSION_CODES.R),
        LOW_TICK(VibrationEffect.Composition.PRIMITIVE_LOW_TICK, Build.VERSION_CODES.S),
        THUD(VibrationEffect.Composition.PRIMITIVE_THUD, Build.VERSION_CODES.S),
        SPIN(VibrationEffect.Composition.PRIMITIVE_SPIN, Build.VERSION_CODES.S),
        QUICK_RISE(VibrationEffect.Composition.PRIMITIVE_QUICK_RISE, Build.VERSION_CODES.R),
        SLOW_RISE(VibrationEffect.Composition.PRIMITIVE_SLOW_RISE, Build.VERSION_CODES.R),
        QUICK_FALL(VibrationEffect.Composition.PRIMITIVE_QUICK_FALL, Build.VERSION_CODES.R);

        final int id;
        final int sinceApi;

        PrimitiveType(int id, int sinceApi) {
            this.id = id;
            this.sinceApi = sinceApi;
        }

        /** Whether the SDK has this primitive at API level {@code sdkInt}. */
        boolean availableOn(int sdkInt) {
            return sdkInt >= sinceApi;
        }

        /** The type written as {@code name} in a file, or null. */
        static PrimitiveType named(String name) {
            for (PrimitiveType type : values()) {
                if (type.name().equals(name)) return type;
            }
            return null;
        }
    }

    /** One {@code composition.primitives} entry: scale 0…1, startMs from the start of the sound. */
    static final class Primitive {
        final PrimitiveType type;
        final float scale;
        final int startMs;

        Primitive(PrimitiveType type, float scale, int startMs) {
            this.type = type;
            this.scale = scale;
            this.startMs = startMs;
        }
    }

    /** One {@code envelope.controlPoints} entry: intensity and sharpness 0…1, reached over durationMs (20…1000). */
    static final class ControlPoint {
        final float intensity;
        final float sharpness;
        final int durationMs;

        ControlPoint(float intensity, float sharpness, int durationMs) {
            this.intensity = intensity;
            this.sharpness = sharpness;
            this.durationMs = durationMs;
        }
    }

    /** A device's {@code getEnvelopeEffectInfo()} limits; durations in ms. */
    static final class EnvelopeLimits {
        final int maxSize;
        final long minControlPointMs, maxControlPointMs, maxTotalMs;

        EnvelopeLimits(int maxSize, long minControlPointMs, long maxControlPointMs, long maxTotalMs) {
            this.maxSize = maxSize;
            this.minControlPointMs = minControlPointMs;
            this.maxControlPointMs = maxControlPointMs;
            this.maxTotalMs = maxTotalMs;
        }
    }

    /** What a device can play, read once from its {@link Vibrator}; plain values so the choice of form is testable. */
    static final class Capabilities {
        final boolean hasVibrator;
        final boolean amplitudeControl;
        /** Supported primitives (among those asked about) and their durations in ms (0 when unknown, API 30). */
        final Map<PrimitiveType, Integer> primitiveDurationsMs;
        /** Null when the device has no envelope effects. */
        final EnvelopeLimits envelope;

        Capabilities(boolean hasVibrator, boolean amplitudeControl,
                     Map<PrimitiveType, Integer> primitiveDurationsMs, EnvelopeLimits envelope) {
            this.hasVibrator = hasVibrator;
            this.amplitudeControl = amplitudeControl;
            this.primitiveDurationsMs = primitiveDurationsMs;
            this.envelope = envelope;
        }

        /** Asks {@code vibrator} about the primitives in {@code used} and everything else a choice needs. */
        @TargetApi(Build.VERSION_CODES.O)
        static Capabilities of(Vibrator vibrator, Set<PrimitiveType> used) {
            Map<PrimitiveType, Integer> primitives = new EnumMap<>(PrimitiveType.class);
            if (Build.VERSION.SDK_INT >= Build.VERSION_CODES.R) {
                for (PrimitiveType type : used) {
                    if (type.availableOn(Build.VERSION.SDK_INT) && vibrator.areAllPrimitivesSupported(type.id)) {
                        int durationMs = Build.VERSION.SDK_INT >= Build.VERSION_CODES.S
                                ? vibrator.getPrimitiveDurations(type.id)[0] : 0;
                        primitives.put(type, Math.max(0, durationMs));
                    }
                }
            }
            EnvelopeLimits envelope = null;
            if (Build.VERSION.SDK_INT >= Build.VERSION_CODES.BAKLAVA && vibrator.areEnvelopeEffectsSupported()) {
                VibratorEnvelopeEffectInfo info = vibrator.getEnvelopeEffectInfo();
                if (info != null) {
                    envelope = new EnvelopeLimits(info.getMaxSize(), info.getMinControlPointDurationMillis(),
                            info.getMaxControlPointDurationMillis(), info.getMaxDurationMillis());
                }
            }
            return new Capabilities(vibrator.hasVibrator(), vibrator.hasAmplitudeControl(), primitives, envelope);
        }

        int primitiveDurationMs(PrimitiveType type) {
            Integer durationMs = primitiveDurationsMs.get(type);
            return durationMs == null ? 0 : durationMs;
        }
    }

    private final Map<String, String> metadata;
    private final int durationMs;
    final long[] waveformTimings;
    final int[] waveformAmplitudes;
    final long[] onOffTimings;
    final boolean compositionComplete;
    final Primitive[] primitives;
    final float initialSharpness;
    final ControlPoint[] controlPoints;

    private TactusHaptics(Map<String, String> metadata, int durationMs, long[] waveformTimings,
                          int[] waveformAmplitudes, long[] onOffTimings, boolean compositionComplete,
                          Primitive[] primitives, float initialSharpness, ControlPoint[] controlPoints) {
        this.metadata = metadata;
        this.durationMs = durationMs;
        this.waveformTimings = waveformTimings;
        this.waveformAmplitudes = waveformAmplitudes;
        this.onOffTimings = onOffTimings;
        this.compositionComplete = compositionComplete;
        this.primitives = primitives;
        this.initialSharpness = initialSharpness;
        this.controlPoints = controlPoints;
    }

    /** Reads and validates a file's text. @throws InvalidFileException naming the first problem */
    public static TactusHaptics load(String json) {
        return Schema.read(Json.parse(json));
    }

    /** Reads and validates a file (UTF-8) from {@code in}, which is read to its end but not closed. */
    public static TactusHaptics load(InputStream in) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        for (int n = in.read(buffer); n != -1; n = in.read(buffer)) {
            bytes.write(buffer, 0, n);
            if (bytes.size() > MAX_SIZE) throw new InvalidFileException("$", "larger than " + MAX_SIZE + " bytes");
        }
        try {
            return load(StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes.toByteArray())).toString());
        } catch (CharacterCodingException e) {
            throw new InvalidFileException("$", "not UTF-8 text");
        }
    }

    /** The file's {@code metadata} (Source, Preset, ToolVersion…), in file order. */
    public Map<String, String> metadata() {
        return metadata;
    }

    /** Length of the haptics, ms. */
    public int durationMs() {
        return durationMs;
    }

    /**
     * Plays the best form {@code vibrator} supports and returns it; below API 26 (no
     * VibrationEffect) or without a vibrator, plays nothing and returns {@link Form#NONE}.
     */
    public Form play(Vibrator vibrator) {
        if (Build.VERSION.SDK_INT < Build.VERSION_CODES.O) return Form.NONE;
        Capabilities device = Capabilities.of(vibrator, primitiveTypes());
        Form form = chooseForm(device);
        if (form != Form.NONE) vibrator.vibrate(effect(form, device));
        return form;
    }

    /**
     * FORMAT.md's "Which form a player uses", in its order; NONE without a vibrator, and never
     * an empty composition (see {@link #compositionPlayable}).
     */
    Form chooseForm(Capabilities device) {
        if (!device.hasVibrator) return Form.NONE;
        if (device.envelope != null && envelopeFits(device.envelope)) return Form.ENVELOPE;
        if (compositionPlayable(device) && (compositionComplete || !device.amplitudeControl)) return Form.COMPOSITION;
        if (device.amplitudeControl) return Form.WAVEFORM;
        return Form.ON_OFF;
    }

    /** Whether the envelope has at most maxSize points, each duration within the device's bounds, and a total within its maximum. */
    boolean envelopeFits(EnvelopeLimits limits) {
        if (controlPoints.length > limits.maxSize) return false;
        long totalMs = 0;
        for (ControlPoint point : controlPoints) {
            if (point.durationMs < limits.minControlPointMs || point.durationMs > limits.maxControlPointMs) return false;
            totalMs += point.durationMs;
        }
        return totalMs <= limits.maxTotalMs;
    }

    /**
     * Whether every primitive used is supported; an empty composition is never playable
     * ({@code Composition.compose()} refuses it, and it would play nothing).
     */
    boolean compositionPlayable(Capabilities device) {
        if (primitives.length == 0) return false;
        for (Primitive primitive : primitives) {
            if (!device.primitiveDurationsMs.containsKey(primitive.type)) return false;
        }
        return true;
    }

    /**
     * {@code addPrimitive} delays, ms: {@code max(0, startMs − end of the previous primitive)},
     * where a primitive ends its duration after it really starts (later than its startMs when
     * the one before it was still playing), so one late primitive does not delay the rest.
     * Durations are the device's ({@code getPrimitiveDurations}, API 31), 0 when unknown (API 30).
     */
    int[] compositionDelays(Capabilities device) {
        int[] delays = new int[primitives.length];
        long previousEndMs = 0;
        for (int i = 0; i < primitives.length; i++) {
            delays[i] = (int) Math.max(0, primitives[i].startMs - previousEndMs);
            previousEndMs = Math.max(previousEndMs, primitives[i].startMs) + device.primitiveDurationMs(primitives[i].type);
        }
        return delays;
    }

    private Set<PrimitiveType> primitiveTypes() {
        Set<PrimitiveType> types = EnumSet.noneOf(PrimitiveType.class);
        for (Primitive primitive : primitives) types.add(primitive.type);
        return types;
    }

    @TargetApi(Build.VERSION_CODES.O)
    private VibrationEffect effect(Form form, Capabilities device) {
        switch (form) {
            case ENVELOPE: return envelopeEffect();
            case COMPOSITION: return compositionEffect(device);
            case WAVEFORM: return VibrationEffect.createWaveform(waveformTimings, waveformAmplitudes, -1);
            case ON_OFF: return VibrationEffect.createWaveform(onOffTimings, -1);
            default: throw new IllegalArgumentException("no effect for " + form);
        }
    }

    @TargetApi(Build.VERSION_CODES.BAKLAVA)
    private VibrationEffect envelopeEffect() {
        VibrationEffect.BasicEnvelopeBuilder builder =
                new VibrationEffect.BasicEnvelopeBuilder().setInitialSharpness(initialSharpness);
        for (ControlPoint point : controlPoints) {
            builder.addControlPoint(point.intensity, point.sharpness, point.durationMs);
        }
        return builder.build();
    }

    @TargetApi(Build.VERSION_CODES.R)
    private VibrationEffect compositionEffect(Capabilities device) {
        VibrationEffect.Composition composition = VibrationEffect.startComposition();
        int[] delays = compositionDelays(device);
        for (int i = 0; i < primitives.length; i++) {
            composition.addPrimitive(primitives[i].type.id, primitives[i].scale, delays[i]);
        }
        return composition.compose();
    }

    /** Turns parsed JSON into a TactusHaptics, checking every rule of FORMAT.md; unknown keys are ignored. */
    static final class Schema {
        private Schema() {}

        static TactusHaptics read(Object root) {
            Map<?, ?> file = object(root, "$");
            Object format = member(file, "$", "format");
            if (!FORMAT.equals(format)) {
                throw new InvalidFileException("$.format", "expected \"" + FORMAT + "\", found " + Json.describe(format));
            }
            int version = integer(member(file, "$", "version"), "$.version", 0, MAX_INTEGER);
            if (version != VERSION) {
                throw new InvalidFileException("$.version", "version " + version + " is not supported (this reader knows version " + VERSION + ")");
            }
            Map<?, ?> waveform = object(member(file, "$", "waveform"), "$.waveform");
            long[] timings = timings(waveform, "$.waveform");
            List<?> amplitudeList = array(member(waveform, "$.waveform", "amplitudes"), "$.waveform.amplitudes");
            if (amplitudeList.size() != timings.length) {
                throw new InvalidFileException("$.waveform.amplitudes", amplitudeList.size() + " entries, but $.waveform.timings has "
                        + timings.length + " (they must be the same length)");
            }
            int[] amplitudes = new int[timings.length];
            for (int i = 0; i < amplitudes.length; i++) {
                amplitudes[i] = integer(amplitudeList.get(i), "$.waveform.amplitudes[" + i + "]", 0, 255);
            }
            Map<?, ?> composition = object(member(file, "$", "composition"), "$.composition");
            Object complete = member(composition, "$.composition", "complete");
            if (!(complete instanceof Boolean)) {
                throw new InvalidFileException("$.composition.complete", "expected true or false, found " + Json.describe(complete));
            }
            Map<?, ?> envelope = object(member(file, "$", "envelope"), "$.envelope");
            return new TactusHaptics(
                    metadata(member(file, "$", "metadata")),
                    integer(member(file, "$", "durationMs"), "$.durationMs", 0, MAX_INTEGER),
                    timings, amplitudes,
                    timings(object(member(file, "$", "onOff"), "$.onOff"), "$.onOff"),
                    (Boolean) complete,
                    primitives(array(member(composition, "$.composition", "primitives"), "$.composition.primitives")),
                    unit(member(envelope, "$.envelope", "initialSharpness"), "$.envelope.initialSharpness"),
                    controlPoints(array(member(envelope, "$.envelope", "controlPoints"), "$.envelope.controlPoints")));
        }

        private static Map<String, String> metadata(Object value) {
            Map<String, String> metadata = new LinkedHashMap<>();
            for (Map.Entry<?, ?> entry : object(value, "$.metadata").entrySet()) {
                String key = (String) entry.getKey();
                if (!(entry.getValue() instanceof String)) {
                    throw new InvalidFileException("$.metadata." + key, "expected a string, found " + Json.describe(entry.getValue()));
                }
                metadata.put(key, (String) entry.getValue());
            }
            return Collections.unmodifiableMap(metadata);
        }

        /** {@code part.timings}: at least one entry, integers ≥ 0, not all 0 (Android refuses a waveform without time). */
        private static long[] timings(Map<?, ?> part, String path) {
            List<?> list = array(member(part, path, "timings"), path + ".timings");
            if (list.isEmpty()) throw new InvalidFileException(path + ".timings", "empty (at least one entry is needed)");
            long[] timings = new long[list.size()];
            long totalMs = 0;
            for (int i = 0; i < timings.length; i++) {
                timings[i] = integer(list.get(i), path + ".timings[" + i + "]", 0, MAX_INTEGER);
                totalMs += timings[i];
            }
            if (totalMs == 0) throw new InvalidFileException(path + ".timings", "all 0 (Android needs at least one timing above 0)");
            return timings;
        }

        private static Primitive[] primitives(List<?> list) {
            Primitive[] primitives = new Primitive[list.size()];
            for (int i = 0; i < primitives.length; i++) {
                String path = "$.composition.primitives[" + i + "]";
                Map<?, ?> entry = object(list.get(i), path);
                Object name = member(entry, path, "primitive");
                PrimitiveType type = name instanceof String ? PrimitiveType.named((String) name) : null;
                if (type == null) {
                    throw new InvalidFileException(path + ".primitive", "expected one of CLICK, TICK, LOW_TICK, THUD, SPIN, "
                            + "QUICK_RISE, SLOW_RISE, QUICK_FALL, found " + Json.describe(name));
                }
                int startMs = integer(member(entry, path, "startMs"), path + ".startMs", 0, MAX_INTEGER);
                if (i > 0 && startMs < primitives[i - 1].startMs) {
                    throw new InvalidFileException(path + ".startMs", startMs + " is before the previous primitive's "
                            + primitives[i - 1].startMs + " (primitives must be sorted by startMs)");
                }
                primitives[i] = new Primitive(type, unit(member(entry, path, "scale"), path + ".scale"), startMs);
            }
            return primitives;
        }

        private static ControlPoint[] controlPoints(List<?> list) {
            if (list.isEmpty()) throw new InvalidFileException("$.envelope.controlPoints", "empty (at least one point is needed)");
            ControlPoint[] points = new ControlPoint[list.size()];
            for (int i = 0; i < points.length; i++) {
                String path = "$.envelope.controlPoints[" + i + "]";
                Map<?, ?> entry = object(list.get(i), path);
                points[i] = new ControlPoint(
                        unit(member(entry, path, "intensity"), path + ".intensity"),
                        unit(member(entry, path, "sharpness"), path + ".sharpness"),
                        integer(member(entry, path, "durationMs"), path + ".durationMs", ENVELOPE_MIN_MS, ENVELOPE_MAX_MS));
            }
            float lastIntensity = points[points.length - 1].intensity;
            if (lastIntensity != 0) {
                throw new InvalidFileException("$.envelope.controlPoints[" + (points.length - 1) + "].intensity",
                        "the last control point must have intensity 0, found " + lastIntensity);
            }
            return points;
        }

        private static Object member(Map<?, ?> object, String path, String key) {
            Object value = object.get(key);
            if (value == null) throw new InvalidFileException(path + "." + key, "missing");
            return value;
        }

        private static Map<?, ?> object(Object value, String path) {
            if (!(value instanceof Map)) throw new InvalidFileException(path, "expected an object, found " + Json.describe(value));
            return (Map<?, ?>) value;
        }

        private static List<?> array(Object value, String path) {
            if (!(value instanceof List)) throw new InvalidFileException(path, "expected an array, found " + Json.describe(value));
            return (List<?>) value;
        }

        /** An integer literal within min…max (no fraction or exponent, as Tactus writes integers). */
        private static int integer(Object value, String path, int min, int max) {
            if (!(value instanceof Long) || (Long) value < min || (Long) value > max) {
                throw new InvalidFileException(path, "expected an integer from " + min + " to " + max + ", found " + Json.describe(value));
            }
            return ((Long) value).intValue();
        }

        /** A number from 0 to 1. */
        private static float unit(Object value, String path) {
            double x = value instanceof Long ? (Long) value : value instanceof Double ? (Double) value : Double.NaN;
            if (!(x >= 0 && x <= 1)) throw new InvalidFileException(path, "expected a number from 0 to 1, found " + Json.describe(value));
            return (float) x;
        }
    }

    /**
     * A strict JSON (RFC 8259) reader bounded for hostile input: at most {@link #MAX_SIZE}
     * characters, {@link #MAX_DEPTH} levels of nesting (so recursion stays shallow), no
     * duplicate keys. Objects become {@code Map<String, Object>} in file order, arrays
     * {@code List<Object>}, integer literals of up to 18 digits {@code Long}, other numbers
     * {@code Double} (±Infinity when out of range), then String, Boolean and {@link #NULL}.
     */
    static final class Json {
        /** Deepest nesting of objects and arrays accepted (the format needs 4). */
        static final int MAX_DEPTH = 32;
        /** JSON null, distinct from a missing key. */
        static final Object NULL = new Object();

        private final String text;
        private int pos;

        private Json(String text) {
            this.text = text;
        }

        static Object parse(String text) {
            if (text.length() > MAX_SIZE) throw new InvalidFileException("$", "longer than " + MAX_SIZE + " characters");
            Json reader = new Json(text);
            reader.skipSpace();
            Object value = reader.value("$", 1);
            reader.skipSpace();
            if (reader.pos < text.length()) throw reader.syntax("$", "the end of the text");
            return value;
        }

        /** A short description of a parsed value for messages. */
        static String describe(Object value) {
            if (value == NULL) return "null";
            if (value instanceof Map) return "an object";
            if (value instanceof List) return "an array";
            if (value instanceof String) {
                String s = (String) value;
                return "\"" + (s.length() > 40 ? s.substring(0, 40) + "…" : s) + "\"";
            }
            return value.toString();
        }

        private Object value(String path, int depth) {
            switch (pos < text.length() ? text.charAt(pos) : '\0') {
                case '{': return object(path, depth);
                case '[': return array(path, depth);
                case '"': return string(path);
                case 't': return literal("true", Boolean.TRUE, path);
                case 'f': return literal("false", Boolean.FALSE, path);
                case 'n': return literal("null", NULL, path);
                default: return number(path);
            }
        }

        private Map<String, Object> object(String path, int depth) {
            enter(path, depth);
            Map<String, Object> object = new LinkedHashMap<>();
            skipSpace();
            if (take('}')) return object;
            do {
                skipSpace();
                if (pos >= text.length() || text.charAt(pos) != '"') throw syntax(path, "a key in double quotes");
                String key = string(path);
                String child = path + "." + key;
                skipSpace();
                if (!take(':')) throw syntax(child, "':'");
                skipSpace();
                if (object.containsKey(key)) throw new InvalidFileException(child, "duplicate key");
                object.put(key, value(child, depth + 1));
                skipSpace();
            } while (take(','));
            if (!take('}')) throw syntax(path, "',' or '}'");
            return object;
        }

        private List<Object> array(String path, int depth) {
            enter(path, depth);
            List<Object> array = new ArrayList<>();
            skipSpace();
            if (take(']')) return array;
            do {
                skipSpace();
                array.add(value(path + "[" + array.size() + "]", depth + 1));
                skipSpace();
            } while (take(','));
            if (!take(']')) throw syntax(path, "',' or ']'");
            return array;
        }

        /** Steps over the opening bracket of a container at nesting level {@code depth}. */
        private void enter(String path, int depth) {
            if (depth > MAX_DEPTH) throw new InvalidFileException(path, "nested deeper than " + MAX_DEPTH + " levels");
            pos++;
        }

        private String string(String path) {
            StringBuilder out = new StringBuilder();
            pos++;
            while (true) {
                if (pos >= text.length()) throw syntax(path, "a closing '\"'");
                char c = text.charAt(pos++);
                if (c == '"') return out.toString();
                if (c < 0x20) { pos--; throw syntax(path, "no control character inside a string"); }
                if (c != '\\') { out.append(c); continue; }
                char escape = pos < text.length() ? text.charAt(pos++) : '\0';
                int simple = "\"\\/bfnrt".indexOf(escape);
                if (simple >= 0) {
                    out.append("\"\\/\b\f\n\r\t".charAt(simple));
                } else if (escape == 'u' && pos + 4 <= text.length() && isHex(text.substring(pos, pos + 4))) {
                    out.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
                    pos += 4;
                } else {
                    pos--;
                    throw syntax(path, "a valid escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)");
                }
            }
        }

        private static boolean isHex(String s) {
            for (int i = 0; i < s.length(); i++) {
                if (Character.digit(s.charAt(i), 16) < 0) return false;
            }
            return true;
        }

        private Object literal(String word, Object value, String path) {
            if (!text.startsWith(word, pos)) throw syntax(path, "a value");
            pos += word.length();
            return value;
        }

        /** {@code -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?} */
        private Object number(String path) {
            int start = pos;
            take('-');
            if (!take('0') && digits() == 0) throw syntax(path, "a value");
            boolean integral = true;
            if (take('.')) {
                integral = false;
                if (digits() == 0) throw syntax(path, "a digit after '.'");
            }
            if (take('e') || take('E')) {
                integral = false;
                if (!take('+')) take('-');
                if (digits() == 0) throw syntax(path, "a digit in the exponent");
            }
            String literal = text.substring(start, pos);
            int digitCount = literal.length() - (literal.startsWith("-") ? 1 : 0);
            // 18 digits always fit a long; longer integers are out of every range anyway.
            if (integral && digitCount <= 18) return Long.valueOf(literal);
            return Double.valueOf(literal);
        }

        private int digits() {
            int start = pos;
            while (pos < text.length() && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') pos++;
            return pos - start;
        }

        private boolean take(char c) {
            if (pos < text.length() && text.charAt(pos) == c) {
                pos++;
                return true;
            }
            return false;
        }

        private void skipSpace() {
            while (pos < text.length() && " \t\n\r".indexOf(text.charAt(pos)) >= 0) pos++;
        }

        /** A syntax error at the current position: what was expected, and where (line, column). */
        private InvalidFileException syntax(String path, String expected) {
            int line = 1, lineStart = 0;
            for (int i = 0; i < pos && i < text.length(); i++) {
                if (text.charAt(i) == '\n') {
                    line++;
                    lineStart = i + 1;
                }
            }
            String found = pos >= text.length() ? "the end of the text" : "'" + text.charAt(pos) + "'";
            return new InvalidFileException(path, "invalid JSON at line " + line + ", column " + (pos - lineStart + 1)
                    + ": expected " + expected + ", found " + found);
        }
    }
}
