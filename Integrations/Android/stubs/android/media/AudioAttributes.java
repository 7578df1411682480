// Stand-in for the Android SDK class, signatures as of API 36; only what TactusAudioCoupled
// uses. It keeps the values it is given, with the SDK's documented default (haptic channels
// muted), so the JVM tests can read what the helper asked for. Never packaged.
package android.media;

public final class AudioAttributes {
    public static final int USAGE_MEDIA = 1;

    private final int usage;
    private final boolean hapticChannelsMuted;

    private AudioAttributes(int usage, boolean hapticChannelsMuted) {
        this.usage = usage;
        this.hapticChannelsMuted = hapticChannelsMuted;
    }

    public int getUsage() {
        return usage;
    }

    /** API 29. */
    public boolean areHapticChannelsMuted() {
        return hapticChannelsMuted;
    }

    public static class Builder {
        private int usage;
        private boolean hapticChannelsMuted = true;

        public Builder setUsage(int usage) {
            this.usage = usage;
            return this;
        }

        /** API 29; ignored without the VIBRATE permission. */
        public Builder setHapticChannelsMuted(boolean muted) {
            this.hapticChannelsMuted = muted;
            return this;
        }

        public AudioAttributes build() {
            return new AudioAttributes(usage, hapticChannelsMuted);
        }
    }
}
