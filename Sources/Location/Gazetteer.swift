/// Populated places and the nearest one to a position: a k-d tree over points on the unit sphere
/// (so no seam at the antimeridian and none at the poles), kept as flat arrays in tree order (the
/// median of each range at its middle). The index file is those arrays, so loading is a copy, and a
/// lookup visits a few dozen places; a place's text is decoded only for the answer.
public struct Gazetteer: Sendable {
    /// In tree order: positions, unit vectors (x, y, z interleaved), and each place's label
    /// (name, region, country joined by U+001F) as UTF-8 in `labels`, from `labelStarts[i]` to
    /// `labelStarts[i + 1]`.
    let latitudes: [Double]
    let longitudes: [Double]
    private let points: [Double]
    let labels: [UInt8]
    let labelStarts: [UInt32]

    public var count: Int { latitudes.count }

    /// Builds the tree from places in any order.
    public init(places unordered: [Place]) {
        var entries = unordered.map { place -> (place: Place, point: (x: Double, y: Double, z: Double)) in
            (place, Geodesy.unitVector(latitude: place.latitude, longitude: place.longitude))
        }
        Self.build(&entries, 0, entries.count, depth: 0)
        var labels: [UInt8] = [], starts: [UInt32] = [0]
        for entry in entries {
            labels += Array((entry.place.name + "\u{1F}" + entry.place.region + "\u{1F}" + entry.place.country).utf8)
            starts.append(UInt32(labels.count))
        }
        self.init(latitudes: entries.map(\.place.latitude), longitudes: entries.map(\.place.longitude),
                  labels: labels, labelStarts: starts)
    }

    /// Arrays already in tree order (read back from an index file; checked by the reader).
    init(latitudes: [Double], longitudes: [Double], labels: [UInt8], labelStarts: [UInt32]) {
        self.latitudes = latitudes
        self.longitudes = longitudes
        self.labels = labels
        self.labelStarts = labelStarts
        var points = [Double](repeating: 0, count: latitudes.count * 3)
        for index in latitudes.indices {
            let point = Geodesy.unitVector(latitude: latitudes[index], longitude: longitudes[index])
            points[index * 3] = point.x
            points[index * 3 + 1] = point.y
            points[index * 3 + 2] = point.z
        }
        self.points = points
    }

    /// The place at a position of the tree.
    func place(at index: Int) -> Place {
        let label = labels[Int(labelStarts[index])..<Int(labelStarts[index + 1])]
        let parts = label.split(separator: 0x1F, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        return Place(name: parts.first ?? "", region: parts.count > 1 ? parts[1] : "", country: parts.count > 2 ? parts[2] : "",
                     latitude: latitudes[index], longitude: longitudes[index])
    }

    /// The nearest place and its distance in metres; nil when there are none, or none within `limit` metres.
    public func nearest(latitude: Double, longitude: Double, within limit: Double = .infinity) -> (place: Place, distance: Double)? {
        guard count > 0, latitude.isFinite, longitude.isFinite else { return nil }
        let target = Geodesy.unitVector(latitude: latitude, longitude: longitude)
        var best = (index: -1, squared: Double.infinity)
        points.withUnsafeBufferPointer { points in
            Self.search(points, target, 0, count, depth: 0, best: &best)
        }
        guard best.index >= 0 else { return nil }
        let distance = Geodesy.distance(chord: best.squared.squareRoot())
        return distance <= limit ? (place(at: best.index), distance) : nil
    }

    private static func search(_ points: UnsafeBufferPointer<Double>, _ target: (x: Double, y: Double, z: Double),
                               _ low: Int, _ high: Int, depth: Int, best: inout (index: Int, squared: Double)) {
        guard low < high else { return }
        let middle = (low + high) / 2
        let dx = points[middle * 3] - target.x, dy = points[middle * 3 + 1] - target.y, dz = points[middle * 3 + 2] - target.z
        let squared = dx * dx + dy * dy + dz * dz
        if squared < best.squared { best = (middle, squared) }
        let difference = axis(target, depth) - points[middle * 3 + depth % 3]
        let (near, far) = difference < 0 ? ((low, middle), (middle + 1, high)) : ((middle + 1, high), (low, middle))
        search(points, target, near.0, near.1, depth: depth + 1, best: &best)
        if difference * difference < best.squared { search(points, target, far.0, far.1, depth: depth + 1, best: &best) }
    }

    private static func axis(_ point: (x: Double, y: Double, z: Double), _ depth: Int) -> Double {
        switch depth % 3 {
        case 0: return point.x
        case 1: return point.y
        default: return point.z
        }
    }

    /// Puts the median of `low..<high` (along the depth's axis) in the middle, smaller ones before
    /// it and larger after, and does the same for both halves.
    private static func build(_ entries: inout [(place: Place, point: (x: Double, y: Double, z: Double))],
                              _ low: Int, _ high: Int, depth: Int) {
        guard high - low > 1 else { return }
        let middle = (low + high) / 2
        select(&entries, low, high, middle) { axis($0.point, depth) }
        build(&entries, low, middle, depth: depth + 1)
        build(&entries, middle + 1, high, depth: depth + 1)
    }

    /// Quickselect (Hoare's partition, the middle element as pivot): the k-th smallest by `key` at k.
    private static func select<T>(_ items: inout [T], _ low: Int, _ high: Int, _ k: Int, key: (T) -> Double) {
        var low = low, high = high - 1
        while low < high {
            let pivot = key(items[(low + high) / 2])
            var i = low, j = high
            while i <= j {
                while key(items[i]) < pivot { i += 1 }
                while key(items[j]) > pivot { j -= 1 }
                if i <= j {
                    items.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if k <= j { high = j } else if k >= i { low = i } else { return }
        }
    }
}
