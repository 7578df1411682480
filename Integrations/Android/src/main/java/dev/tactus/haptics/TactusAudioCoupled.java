package dev.tactus.haptics;

import android.media.AudioAttributes;
import android.media.AudioManager;
import android.media.MediaPlayer;
import android.os.Build;
import android.os.Vibrator;

import java.io.IOException;

/**
 * Plays a Tactus {@code <stem>.android.ogg} (the sound plus one haptic channel, declared by its
 * {@code ANDROID_HAPTIC=1} comment) where the device plays haptic channels, and falls back to
 * the same sound with the {@code <stem>.android.json} forms on the vibrator where it does not.
 *
 * <p>Haptic channels play from API 29 (Android 10) on devices whose audio HAL supports
 * audio-coupled haptics ({@link AudioManager#isHapticPlaybackSupported()}), when the player's
 * {@link AudioAttributes} unmute them ({@code setHapticChannelsMuted(false)}: they are muted by
 * default) and the app holds the {@code VIBRATE} permission (without it the unmuting is
 * ignored). Elsewhere the file plays as sound only, its haptic channel dropped, and the
 * vibrator plays the best form of the JSON file ({@link TactusHaptics#play(Vibrator)}), started
 * with the sound (the two are not sample-locked as the channels are).
 */
public final class TactusAudioCoupled {
    /** How the haptics played. */
    public enum Route {
        /** From the file's haptic channel, in sync with its sound by construction. */
        HAPTIC_CHANNEL,
        /** From the JSON file's forms on the vibrator, started with the sound. */
        VIBRATOR_FALLBACK
    }

    private TactusAudioCoupled() {}

    /** Whether this device plays haptic channels: API 29 or later and the HAL supports them. */
    public static boolean hapticChannelsSupported() {
        return Build.VERSION.SDK_INT >= 29 && AudioManager.isHapticPlaybackSupported();
    }

    /** Attributes with {@code usage} that unmute haptic channels when {@code hapticChannels}. */
    public static AudioAttributes attributes(int usage, boolean hapticChannels) {
        AudioAttributes.Builder builder = new AudioAttributes.Builder().setUsage(usage);
        if (hapticChannels) {
            builder.setHapticChannelsMuted(false);
        }
        return builder.build();
    }

    /**
     * Plays {@code oggPath} on {@code player} (a new, idle MediaPlayer), with its haptic channel
     * where supported, else with {@code fallback} on {@code vibrator}.
     *
     * @return the route the haptics took
     * @throws IOException when the player cannot read the file
     */
    public static Route play(MediaPlayer player, String oggPath, TactusHaptics fallback, Vibrator vibrator)
            throws IOException {
        return play(player, oggPath, fallback, vibrator, hapticChannelsSupported());
    }

    /** {@link #play(MediaPlayer, String, TactusHaptics, Vibrator)} with the support decided. */
    static Route play(MediaPlayer player, String oggPath, TactusHaptics fallback, Vibrator vibrator,
                      boolean hapticChannels) throws IOException {
        player.setAudioAttributes(attributes(AudioAttributes.USAGE_MEDIA, hapticChannels));
        player.setDataSource(oggPath);
        player.prepare();
        player.start();
        if (hapticChannels) {
            return Route.HAPTIC_CHANNEL;
        }
        fallback.play(vibrator);
        return Route.VIBRATOR_FALLBACK;
    }
}
