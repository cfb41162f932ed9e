import Testing
@testable import Session

@Suite struct SessionPlaceholderTests {
    @Test func builds() {}
}
