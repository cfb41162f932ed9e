import Imaging
import Library
import Templates
import Watermark

/// The one path every command stamps through: load (upright, shrunk), fields, template, encode.
final class Stamper {
    let watermarker: Watermarker
    /// The chosen style; `catalog` has them all, in cycle order.
    let template: Template
    let catalog: TemplateCatalog
    let fieldOptions: FieldOptions
    let load: LoadOptions
    let quality: Int

    init(resources: Resources, fieldOptions: FieldOptions, load: LoadOptions = LoadOptions(), quality: Int = 90)
        throws
    {
        let store = TemplateStore(resources: resources, extraFolders: fieldOptions.templateFolders)
        template = try store.resolve(fieldOptions.templateChoice)
        catalog = store.catalog
        watermarker = try Watermarker(fontConfig: resources.fontConfig)
        self.fieldOptions = fieldOptions
        self.load = load
        self.quality = quality
    }

    /// Decodes a photo file's bytes; warnings (corrupt EXIF) go to `warn`.
    func photo(from bytes: [UInt8], path: String, warn: (String) -> Void) throws -> Photo {
        let photo = try Photo(jpeg: bytes, options: load)
        for warning in photo.metadata.warnings { warn("\(path): warning: \(warning)") }
        return photo
    }

    /// Stamps `photo` in place with the fields for it (in `style`, default the chosen one) and returns
    /// the JPEG bytes.
    func stampedJPEG(_ photo: Photo, fields: Fields, style: Template? = nil) throws -> [UInt8] {
        try watermarker.stamped(photo, template: style ?? template, fields: fields).jpeg(quality: quality)
    }
}
