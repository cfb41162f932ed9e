import Foundation
// `swift build` builds this target too, and a static build (--static-swift-stdlib) has no
// Testing library: the trait is for test targets, which always have it.
#if canImport(Testing)
import Testing
#endif

/// `../shared/corpus` beside the checkout: real camera photos, used in place and never copied into
/// the repository. Only extra tests use it; a fresh clone has no corpus and skips them.
public enum Corpus {
    public static let root = TestFiles.packageRoot + "/../shared/corpus"

    public static let isPresent: Bool = {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: root, isDirectory: &isFolder) && isFolder.boolValue
    }()

    public static func path(_ relativePath: String) -> String { root + "/" + relativePath }

    /// Every JPEG in the corpus, sorted; empty without one.
    public static var photos: [String] {
        let enumerator = FileManager.default.enumerator(atPath: root)
        var paths: [String] = []
        while let next = enumerator?.nextObject() as? String {
            if next.lowercased().hasSuffix(".jpg") { paths.append(root + "/" + next) }
        }
        return paths.sorted()
    }
}

#if canImport(Testing)
extension Trait where Self == ConditionTrait {
    /// For a test over the real photos of ../shared/corpus: skipped, saying why, when it is not there.
    public static var needsCorpus: Self {
        .enabled(if: Corpus.isPresent, "../shared/corpus (real camera photos beside the checkout) is not there")
    }
}
#endif
