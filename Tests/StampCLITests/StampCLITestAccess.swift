@testable import StampCLI
import Imaging
import Session
import Templates

/// Reaches into StampCLI internals for unit tests.
enum StampCLITestAccess {
    static func fieldOptions(_ arguments: [String]) throws -> FieldOptionsProbe {
        FieldOptionsProbe(policy: try StampOptions.values(try ApplyCommand.spec.parse(arguments)).fields)
    }

    struct FieldOptionsProbe {
        let policy: FieldPolicy
        func time(for metadata: PhotoMetadata) -> String? {
            policy.fields(for: metadata).time.map { "\($0.dateText) \($0.timeText) \($0.offsetText)" }
        }
    }
}
