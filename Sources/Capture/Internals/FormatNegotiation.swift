/// Chooses the pixel format and frame size to ask a camera for, then takes what the driver
/// actually returns: it may give another format (vivid turns MJPG into YUYV) or size.
struct FormatNegotiation {
    struct Choice: Equatable {
        var format: PixelFormat
        var resolution: Resolution
    }

    let device: String

    /// What to ask for, best first: the requested format (or JPEG, then the raw formats in order
    /// of preference) at the requested size (or the largest one offered).
    func candidates(_ formats: [FormatInfo], settings: CaptureSettings) throws(CaptureError) -> [Choice] {
        let usable = formats.filter { $0.format.isUsable && !$0.emulated }
            .sorted { rank($0.format) < rank($1.format) }
        var pool = usable
        if let requested = settings.format {
            pool = usable.filter { $0.format == requested }
            guard !pool.isEmpty else {
                throw .unsupportedFormat(device, requested: requested.commonName, offered: offered(usable, all: formats))
            }
        } else if usable.isEmpty {
            throw .unsupportedFormat(device, requested: nil, offered: offered(usable, all: formats))
        }
        if let resolution = settings.resolution {
            let fitting = pool.filter { $0.offers(resolution) }
            guard !fitting.isEmpty else {
                throw .unsupportedResolution(device, requested: resolution, offered: sizes(pool))
            }
            return fitting.map { Choice(format: $0.format, resolution: resolution) }
        }
        // The largest size any usable format offers; formats that do not reach it come last.
        guard let largest = pool.compactMap(\.largest).max(by: { $0.pixelCount < $1.pixelCount }) else {
            throw .unsupportedFormat(device, requested: settings.format?.commonName, offered: offered(usable, all: formats))
        }
        let atLargest = pool.filter { $0.offers(largest) }.map { Choice(format: $0.format, resolution: largest) }
        let others = pool.filter { !$0.offers(largest) }.compactMap { info in
            info.largest.map { Choice(format: info.format, resolution: $0) }
        }
        return atLargest + others
    }

    /// Tries the candidates in order with TRY_FMT and sets the first one whose result we can
    /// use; returns the layout the driver set and notes on what differs from what was asked.
    func negotiate(_ candidates: [Choice], node: V4L2Node) throws(CaptureError) -> (layout: FrameLayout, notes: [String]) {
        var chosen = candidates.first
        for candidate in candidates {
            // TRY_FMT is optional for drivers; without it, S_FMT's answer is all there is.
            guard let tried = try? node.tryFormat(candidate.format, candidate.resolution) else { break }
            if tried.format.isUsable {
                chosen = candidate
                break
            }
        }
        guard let chosen else { throw .unsupportedFormat(device, requested: nil, offered: []) }
        let layout: FrameLayout
        do { layout = try node.setFormat(chosen.format, chosen.resolution) } catch {
            throw CaptureError(error, device: device, call: "VIDIOC_S_FMT")
        }
        guard layout.format.isUsable, layout.width > 0, layout.height > 0 else {
            throw .unsupportedFormat(device, requested: chosen.format.commonName, offered: [layout.format.commonName])
        }
        var notes: [String] = []
        if layout.format != chosen.format {
            notes.append("\(device): asked for \(chosen.format.commonName), the driver gives \(layout.format.commonName)")
        }
        if layout.resolution != chosen.resolution {
            notes.append("\(device): asked for \(chosen.resolution), the driver gives \(layout.resolution)")
        }
        return (layout, notes)
    }

    private func rank(_ format: PixelFormat) -> Int {
        PixelFormat.preferenceOrder.firstIndex(of: format) ?? Int.max
    }

    private func offered(_ usable: [FormatInfo], all: [FormatInfo]) -> [String] {
        (usable.isEmpty ? all : usable).map(\.format.commonName)
    }

    private func sizes(_ formats: [FormatInfo]) -> [String] {
        var seen: [Resolution] = []
        for size in formats.flatMap({ $0.sizes.map(\.resolution) }).sorted(by: { $0.pixelCount < $1.pixelCount })
        where !seen.contains(size) {
            seen.append(size)
        }
        var list = seen.map(\.description)
        for range in formats.compactMap(\.sizeRange) { list.append("\(range.minimum) to \(range.maximum)") }
        return list
    }
}
