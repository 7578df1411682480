// Compile-time stand-in for the Android SDK class, signatures as of API 36; only what
// TactusHaptics uses. On a device the real class is used; this file is never packaged.
package android.os.vibrator;

/** API 36. */
public final class VibratorEnvelopeEffectInfo {
    private VibratorEnvelopeEffectInfo() {
    }

    public int getMaxSize() {
        throw new RuntimeException("Stub!");
    }

    public long getMinControlPointDurationMillis() {
        throw new RuntimeException("Stub!");
    }

    public long getMaxControlPointDurationMillis() {
        throw new RuntimeException("Stub!");
    }

    public long getMaxDurationMillis() {
        throw new RuntimeException("Stub!");
    }
}
