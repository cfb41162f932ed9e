/// What the flash does for a photo.
public enum FlashMode: String, Sendable, CaseIterable {
    /// No light.
    case off
    /// Flash (or, on a torch-only LED, the torch) for this photo; an error without any flash LED.
    case on
    /// Flash only when the settled scene is dark; nothing on a camera without flash.
    case auto
    /// The LED lit through settling and capture; an error without a torch.
    case torch
}
