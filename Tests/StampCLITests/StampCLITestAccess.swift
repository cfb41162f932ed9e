@testable import StampCLI
import Imaging
import Templates

/// Reaches into StampCLI internals for unit tests.
enum StampCLITestAccess {
    static func fieldOptions(_ arguments: [String]) throws -> FieldOptionsProbe {
        FieldOptionsProbe(options: try FieldOptions(try ApplyCommand.spec.parse(arguments)))
    }

    struct FieldOptionsProbe {
        let options: FieldOptions
        func time(for metadata: PhotoMetadata) -> String? {
            options.fields(for: metadata).time.map { "\($0.dateText) \($0.timeText) \($0.offsetText)" }
        }
    }
}
