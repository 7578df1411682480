// Compile-time stand-in for the Android SDK class, signatures as of API 36; only what
// TactusHaptics uses. On a device the real class is used; this file is never packaged.
package android.os;

/** API 26. */
public abstract class VibrationEffect {
    VibrationEffect() {
    }

    public static VibrationEffect createWaveform(long[] timings, int repeat) {
        throw new RuntimeException("Stub!");
    }

    public static VibrationEffect createWaveform(long[] timings, int[] amplitudes, int repeat) {
        throw new RuntimeException("Stub!");
    }

    /** API 30. */
    public static Composition startComposition() {
        throw new RuntimeException("Stub!");
    }

    /** API 30; the PRIMITIVE_* values are the SDK's (javac inlines them). */
    public static final class Composition {
        public static final int PRIMITIVE_CLICK = 1;
        public static final int PRIMITIVE_THUD = 2;
        public static final int PRIMITIVE_SPIN = 3;
        public static final int PRIMITIVE_QUICK_RISE = 4;
        public static final int PRIMITIVE_SLOW_RISE = 5;
        public static final int PRIMITIVE_QUICK_FALL = 6;
        public static final int PRIMITIVE_TICK = 7;
        public static final int PRIMITIVE_LOW_TICK = 8;

        Composition() {
        }

        public Composition addPrimitive(int primitiveId, float scale, int delay) {
            throw new RuntimeException("Stub!");
        }

        public VibrationEffect compose() {
            throw new RuntimeException("Stub!");
        }
    }

    /** API 36. */
    public static final class BasicEnvelopeBuilder {
        public BasicEnvelopeBuilder() {
            throw new RuntimeException("Stub!");
        }

        public BasicEnvelopeBuilder setInitialSharpness(float initialSharpness) {
            throw new RuntimeException("Stub!");
        }

        public BasicEnvelopeBuilder addControlPoint(float intensity, float sharpness, long durationMillis) {
            throw new RuntimeException("Stub!");
        }

        public VibrationEffect build() {
            throw new RuntimeException("Stub!");
        }
    }
}
