// Compile-time stand-in for the Android SDK class, signatures as of API 36; only what
// TactusHaptics uses. On a device the real class is used; this file is never packaged.
package android.annotation;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

@Target({ElementType.TYPE, ElementType.METHOD, ElementType.CONSTRUCTOR, ElementType.FIELD})
@Retention(RetentionPolicy.CLASS)
public @interface TargetApi {
    int value();
}
