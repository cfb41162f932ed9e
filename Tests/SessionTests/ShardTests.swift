import Session
import Testing

/// `--shard K/N`: N disjoint parts that together are the whole batch, the same on every machine.
@Suite struct ShardTests {
    static let paths = (0..<500).map { "folder\($0 % 7)/IMG_\($0).jpg" } + ["caf\u{10FFE9}.jpg", "照片.jpg"]

    @Test("every photo is in exactly one of the N parts", arguments: [1, 2, 4, 7])
    func partition(count: Int) throws {
        let shards = try (0..<count).map { try #require(ApplyJob.Shard(index: $0, count: count)) }
        for path in Self.paths {
            #expect(shards.filter { $0.contains(path) }.count == 1, "\(path)")
        }
        // Roughly even: no part is empty or holds more than twice its share.
        for shard in shards {
            let size = Self.paths.filter(shard.contains).count
            #expect(size > 0 && size < 2 * Self.paths.count / count + 2)
        }
    }

    @Test("the part a path falls in is fixed (FNV-1a of its bytes), so re-run tasks and other machines agree")
    func stable() throws {
        let four = try (0..<4).map { try #require(ApplyJob.Shard(index: $0, count: 4)) }
        let parts = ["a/IMG_0001.jpg", "b/IMG_0001.jpg", "IMG_0002.jpg"].map { path in four.firstIndex { $0.contains(path) } }
        #expect(parts == [3, 0, 2])
    }

    @Test("K must be below N and N above 0", arguments: [(4, 4), (-1, 4), (0, 0)])
    func invalid(index: Int, count: Int) {
        #expect(ApplyJob.Shard(index: index, count: count) == nil)
    }
}
