/// Finds two edges of a closed ring that meet although they are not neighbours: a sweep over the
/// edges sorted by their west end, comparing only edges whose longitude ranges overlap. The work
/// is capped, so a hostile ring of a million zig-zags costs a bounded time (it is then not checked
/// further; points are still placed by the even-odd rule).
enum SelfIntersection {
    /// Edge pairs compared at most.
    static let budget = 2_000_000

    /// The first two crossing edges (indices into the ring: edge i runs from position i to i+1).
    static func find(in ring: [(Double, Double)]) -> (Int, Int)? {
        let count = ring.count - 1  // edges; the last position repeats the first
        guard count >= 4 else { return nil }
        let order = (0..<count).sorted { min(ring[$0].0, ring[$0 + 1].0) < min(ring[$1].0, ring[$1 + 1].0) }
        var active: [Int] = []
        var compared = 0
        for edge in order {
            let west = min(ring[edge].0, ring[edge + 1].0)
            compared += active.count  // dropping the finished edges costs a look at each
            active.removeAll { max(ring[$0].0, ring[$0 + 1].0) < west }
            for other in active {
                compared += 1
                if compared > budget { return nil }
                let gap = abs(edge - other)
                if gap == 1 || gap == count - 1 { continue }  // neighbours share a corner
                if cross(ring[edge], ring[edge + 1], ring[other], ring[other + 1]) { return (min(edge, other), max(edge, other)) }
            }
            active.append(edge)
        }
        return nil
    }

    /// Whether segments ab and cd share a point (touching and overlapping count).
    static func cross(_ a: (Double, Double), _ b: (Double, Double), _ c: (Double, Double), _ d: (Double, Double)) -> Bool {
        let d1 = side(c, d, a), d2 = side(c, d, b), d3 = side(a, b, c), d4 = side(a, b, d)
        if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) { return true }
        if d1 == 0 && within(c, d, a) { return true }
        if d2 == 0 && within(c, d, b) { return true }
        if d3 == 0 && within(a, b, c) { return true }
        if d4 == 0 && within(a, b, d) { return true }
        return false
    }

    private static func side(_ a: (Double, Double), _ b: (Double, Double), _ p: (Double, Double)) -> Double {
        (b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0)
    }

    private static func within(_ a: (Double, Double), _ b: (Double, Double), _ p: (Double, Double)) -> Bool {
        min(a.0, b.0) <= p.0 && p.0 <= max(a.0, b.0) && min(a.1, b.1) <= p.1 && p.1 <= max(a.1, b.1)
    }
}
