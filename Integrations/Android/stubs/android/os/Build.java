// Compile-time stand-in for the Android SDK class, signatures as of API 36; only what
// TactusHaptics uses. On a device the real class is used; this file is never packaged.
package android.os;

public class Build {
    public static class VERSION {
        /** Not a compile-time constant, as in the SDK, so javac folds no API check away. */
        public static final int SDK_INT;

        static {
            SDK_INT = 0;
        }
    }

    public static class VERSION_CODES {
        public static final int O = 26;
        public static final int R = 30;
        public static final int S = 31;
        public static final int BAKLAVA = 36;
    }
}
