// Compile-time stand-in for the Android SDK class, signatures as of API 36; only what
// TactusAudioCoupled uses. On a device the real class is used; this file is never packaged.
package android.media;

public class AudioManager {
    /** API 29. */
    public static boolean isHapticPlaybackSupported() {
        throw new RuntimeException("Stub!");
    }
}
