import Imaging
import Library
import Platform
import Session
import Watermark

/// `stampcam test-card`: draws the built-in test card, stamps it and saves it; the whole pipeline
/// without a photo or a camera.
enum TestCardCommand: Command {
    static let output = Option.text("output", short: "o", value: "DIR", help: marked("option", "folder for the card (default: current folder)"))

    static let spec = CommandSpec(
        name: "test-card",
        usage: "test-card [options] [-o DIR]",
        summary: marked("command", "Draw a test card, stamp it with the current time (or --time) and save DIR/test-card.jpg."),
        options: [output] + StampOptions.all)

    static func run(_ options: ParsedOptions, context: Context) throws -> ExitCode {
        var stamp = try StampOptions.values(options, context: context)
        let style = try context.templates(extraFolders: stamp.templateFolders).resolve(stamp.templateChoice)
        StampOptions.preparePlaces(&stamp, styles: [style], chosen: style, console: context.console)
        let folder = try options.value(output) ?? "."
        let writer = PhotoWriter(watermarker: try Watermarker(fontConfig: context.resources.fontConfig),
                                 settings: PhotoWriter.Settings(version: StampCLI.version))
        guard let card = TestCard.draw(width: 1280, height: 720) else {
            throw Failure("not enough memory for the test card", code: .unavailable)
        }
        // The folder is not marked as one of stamped photos: it is wherever the user is.
        try OutputFolder.prepare(folder, mark: false)
        guard case .claimed(let claim) = try NameClaim.claim("test-card.jpg", in: folder, existing: .number) else {
            throw Failure("\(folder): cannot choose a name for the test card", code: .cannotCreate)
        }
        var fields = stamp.fields.fieldsNow()
        fields.filename = claim.name
        let written = try writer.write(Photo(bitmap: card), style: style, fields: fields, to: claim)
        context.console.out(written.path)
        return .success
    }
}
