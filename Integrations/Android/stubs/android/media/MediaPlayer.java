// Compile-time stand-in for the Android SDK class, signatures as of API 36; only what
// TactusAudioCoupled uses (the JVM tests override these). Never packaged.
package android.media;

import java.io.IOException;

public class MediaPlayer {
    /** API 21. */
    public void setAudioAttributes(AudioAttributes attributes) {
        throw new RuntimeException("Stub!");
    }

    public void setDataSource(String path) throws IOException {
        throw new RuntimeException("Stub!");
    }

    public void prepare() throws IOException {
        throw new RuntimeException("Stub!");
    }

    public void start() {
        throw new RuntimeException("Stub!");
    }
}
