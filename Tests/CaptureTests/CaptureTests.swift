import Testing
@testable import Capture

@Suite struct CapturePlaceholderTests {
    @Test func builds() {}
}
