import Imaging
import Session
import Templates
import Testing

@Suite struct FieldPolicyTests {
    @Test("an EXIF time without a zone is shown without one: the computer's zone is not the photo's")
    func noInventedZone() {
        var metadata = PhotoMetadata()
        metadata.dateTimeOriginal = "2022:08:14 16:28:00"
        let fields = FieldPolicy().fields(for: metadata)
        #expect(fields.time?.utcOffsetMinutes == nil)
        #expect(fields.time?.timeText == "16:28:00")
        metadata.offsetTimeOriginal = "+02:00"
        #expect(FieldPolicy().fields(for: metadata).time?.offsetText == "+02:00")
        // --tz labels a zone-less time (the user says where it was), and converts a known one.
        metadata.offsetTimeOriginal = nil
        let tokyo = FieldPolicy(zone: FieldPolicy.Zone("+09:00"))
        #expect(tokyo.fields(for: metadata).time.map { "\($0.timeText) \($0.offsetText)" } == "16:28:00 +09:00")
    }

    @Test("a file's modification time is said to be one")
    func fileTime() {
        let fields = FieldPolicy().fields(for: PhotoMetadata(), fileTime: FieldPolicy.fileTime(modified: 1_764_400_000))
        #expect(fields.timeIsFileTime)
        #expect(fields.timeSource == "file time")
    }

    @Test("the camera's name says the make once", arguments: [
        ("NIKON CORPORATION", "NIKON D3100", "NIKON D3100"),
        ("Canon", "Canon EOS 1000D", "Canon EOS 1000D"),
        ("Apple", "iPhone 5", "Apple iPhone 5"),
        ("OLYMPUS IMAGING CORP.  ", "E-M5", "OLYMPUS IMAGING CORP. E-M5"),
        ("", "X100", "X100"),
    ])
    func camera(make: String, model: String, expected: String) {
        var metadata = PhotoMetadata()
        metadata.make = make
        metadata.model = model
        #expect(FieldPolicy().fields(for: metadata).camera == expected)
    }
}
