/// JPEG chroma subsampling.
public enum ChromaSubsampling: Int, Sendable {
    case s420 = 420, s422 = 422, s444 = 444
}
