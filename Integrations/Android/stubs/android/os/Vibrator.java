// Compile-time stand-in for the Android SDK class, signatures as of API 36; only what
// TactusHaptics uses. On a device the real class is used; this file is never packaged.
package android.os;

import android.os.vibrator.VibratorEnvelopeEffectInfo;

public abstract class Vibrator {
    public abstract boolean hasVibrator();

    /** API 26. */
    public abstract boolean hasAmplitudeControl();

    /** API 30. */
    public final boolean areAllPrimitivesSupported(int... primitiveIds) {
        throw new RuntimeException("Stub!");
    }

    /** API 31. */
    public int[] getPrimitiveDurations(int... primitiveIds) {
        throw new RuntimeException("Stub!");
    }

    /** API 36. */
    public boolean areEnvelopeEffectsSupported() {
        throw new RuntimeException("Stub!");
    }

    /** API 36. */
    public VibratorEnvelopeEffectInfo getEnvelopeEffectInfo() {
        throw new RuntimeException("Stub!");
    }

    /** API 26. */
    public void vibrate(VibrationEffect vibe) {
        throw new RuntimeException("Stub!");
    }
}
