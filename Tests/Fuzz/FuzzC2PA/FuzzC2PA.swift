import Provenance

/// A JPEG's Content Credentials read as `verify` and `restamp` read them: the APP11 segments, the
/// manifest store, the claim, the signature and its certificates, the hard binding, a parent's
/// manifests. Any file may be judged invalid, never crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzC2PA(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let file = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let verification = ManifestReader.verify(file: file, trust: TrustAnchors(), now: 1_790_000_000)
    _ = verification.outcome
    _ = try? ParentManifests.read(file)
    _ = try? JPEGManifestSegments.insertionOffset(file)
    _ = JPEGManifestSegments.existingStoreSize(file)
    return 0
}
