import Imaging
import Library

/// `stampcam test-card`: draws the built-in test card, stamps it and saves it; the whole pipeline
/// without a photo or a camera.
enum TestCardCommand: Command {
    static let spec = CommandSpec(
        name: "test-card",
        usage: "test-card [options] [-o DIR]",
        summary: "Draw a test card, stamp it with the current time (or --time) and save DIR/test-card.jpg.",
        options: [
            OptionSpec("output", short: "o", value: "DIR", help: "folder for the card (default: current folder)"),
        ] + FieldOptions.table)

    static func run(_ options: ParsedOptions, resources: Resources, console: Console) throws -> ExitCode {
        let stamper = try Stamper(resources: resources, fieldOptions: try FieldOptions(options))
        let folder = options.value("output") ?? "."
        try OutputFolders.create(folder)
        guard let bitmap = TestCard.draw(width: 1280, height: 720) else {
            throw Failure("not enough memory for the test card", code: .unavailable)
        }
        var fields = stamper.fieldOptions.fieldsNow()
        fields.filename = "test-card.jpg"
        let jpeg = try stamper.stampedJPEG(Photo(bitmap: bitmap), fields: fields)
        console.out(try AtomicFile.write(jpeg, directory: folder, name: "test-card.jpg"))
        return .success
    }
}
