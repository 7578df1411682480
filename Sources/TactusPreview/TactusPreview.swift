/// Previews of haptic patterns for designers without a device (see `tactus preview`).
public enum TactusPreview {}
