import Imaging

extension Camera {
    /// Mean brightness (0–255) below which `--flash auto` lights the scene.
    static let darkScene = 50.0
    /// Brightness change (0–255) between frames that counts as settled.
    static let steadyChange = 1.0
    /// Frames to look through for the first one exposed after the strobe.
    static let strobeFrameLimit = 8

    /// Takes a photo: lights the torch if asked, lets exposure settle, fires the flash if asked
    /// (or in `auto` when the scene is dark), grabs a frame and turns it into an upright, zoomed
    /// photo with EXIF. The stream keeps running for the next preview or still.
    public func captureStill() throws(CaptureError) -> CapturedStill {
        source.allowRestart()
        try source.start()
        var torchForThisShot = false
        // Whatever happens, a torch lit only for this photo goes off again (torch mode keeps it).
        defer { if torchForThisShot { flash?.off() } }
        let mode = settings.flash
        if let flash, mode == .torch || (mode == .on && !flash.canFlash) {
            try flash.torch(true)
            torchForThisShot = mode != .torch
        }
        var settled = try settle()
        var strobe = mode == .on && (flash?.canFlash ?? false)
        if mode == .auto, let flash {
            var level = settled.brightness ?? 0
            if settled.brightness == nil {
                level = try source.withNextFrame(timeout: settings.frameTimeout) { (frame) throws(CaptureError) in
                    try decoder.brightness(frame)
                }
            }
            if level < Self.darkScene {
                if flash.canFlash {
                    strobe = true
                } else if flash.canTorch {
                    try flash.torch(true)
                    torchForThisShot = true
                    settled.frames += try settle().frames
                }
            }
        }
        let fired = strobe || torchForThisShot || mode == .torch
        let (bitmap, cameraJPEG) = strobe ? try grabWithStrobe() : try grab()
        let clock = host.wallClock()
        let upright = try rotate(bitmap)
        let metadata = CaptureMetadata(
            device: info.path, camera: info.card, format: format, frameSize: frameSize,
            resolution: Resolution(width: upright.width, height: upright.height),
            secondsSinceEpoch: clock.secondsSinceEpoch, utcOffsetMinutes: clock.utcOffsetMinutes,
            settledFrames: settled.frames, settle: settings.settle, flash: mode, flashFired: fired,
            zoom: settings.zoom, zoomByCamera: zoomsOptically, focus: focusDone, rotation: settings.rotation)
        let photo = Photo(bitmap: upright, metadata: PhotoMetadata(exif: metadata.exifRecord.payload(), iccProfile: nil))
        let untouched = settings.rotation == .none && zoom.cropFactor(settings.zoom) == 1
        return CapturedStill(photo: photo, metadata: metadata, cameraJPEG: untouched ? cameraJPEG : nil)
    }

    struct Settled {
        var frames: Int
        /// The last frame's brightness, when it was measured.
        var brightness: Double?
    }

    /// Lets frames pass: a fixed number, or until the mean brightness holds steady over three
    /// frames (bounded in frames and time).
    func settle() throws(CaptureError) -> Settled {
        let decoder = self.decoder
        switch settings.settle {
        case .frames(let count):
            for _ in 0..<max(0, count) {
                try source.withNextFrame(timeout: settings.frameTimeout) { (_) throws(CaptureError) in }
            }
            return Settled(frames: max(0, count), brightness: nil)
        case .auto:
            let start = host.now()
            var previous: Double?
            var steady = 0
            for count in 1...Settle.autoFrameLimit {
                let level = try source.withNextFrame(timeout: settings.frameTimeout) { (frame) throws(CaptureError) in
                    try decoder.brightness(frame)
                }
                if let previous, abs(level - previous) <= Self.steadyChange { steady += 1 } else { steady = 0 }
                previous = level
                if steady >= 2 || host.now() - start >= Settle.autoTimeLimit {
                    return Settled(frames: count, brightness: level)
                }
            }
            return Settled(frames: Settle.autoFrameLimit, brightness: previous)
        }
    }

    /// The next frame as pixels (zoom-cropped, not yet rotated) and, for JPEG frames, the file.
    private func grab() throws(CaptureError) -> (Bitmap, [UInt8]?) {
        let decoder = self.decoder
        let crop = zoom.cropFactor(settings.zoom)
        return try source.withNextFrame(timeout: settings.frameTimeout) { (frame) throws(CaptureError) in
            try decoder.still(frame, zoom: crop)
        }
    }

    /// Strobes the flash and takes the first frame exposed after it; frames already in the queue
    /// were exposed before and are dropped. The LED is off again and its faults read afterwards.
    private func grabWithStrobe() throws(CaptureError) -> (Bitmap, [UInt8]?) {
        guard let flash else { return try grab() }
        let decoder = self.decoder
        let crop = zoom.cropFactor(settings.zoom)
        // Long enough to cover a frame or two at webcam rates; the LED clamps it to what it allows.
        try flash.arm(duration: 0.5)
        var taken: (Bitmap, [UInt8]?)?
        do {
            let strobeTime = host.now()
            try flash.strobe()
            var unknownTimes = 0
            for _ in 0..<Self.strobeFrameLimit where taken == nil {
                taken = try source.withNextFrame(timeout: settings.frameTimeout) { (frame) throws(CaptureError) in
                    // Without timestamps, skip one frame: it was most likely exposed before the strobe.
                    if frame.timestamp == 0 { unknownTimes += 1 }
                    let exposedAfter = frame.timestamp == 0 ? unknownTimes > 1 : frame.timestamp >= strobeTime
                    return exposedAfter ? try decoder.still(frame, zoom: crop) : nil
                }
            }
        } catch {
            _ = flash.finishStrobe()
            throw error
        }
        let faults = flash.finishStrobe()
        if !faults.isEmpty {
            note("\(flash.path): the flash reported \(faults.joined(separator: ", ")) while firing; the photo may be dark")
        }
        guard let taken else {
            throw .badFrames(info.path, detail: "no frame arrived after the flash fired")
        }
        return taken
    }
}

extension FrameDecoder {
    /// A full-size frame for a still: pixels, plus the JPEG file itself for JPEG frames.
    func still(_ frame: Frame, zoom: Double) throws(CaptureError) -> (Bitmap, [UInt8]?) {
        guard frame.layout.format.isJPEG else { return (try bitmap(frame, zoom: zoom), nil) }
        return (try bitmap(frame, zoom: zoom), try jpeg(frame))
    }
}
