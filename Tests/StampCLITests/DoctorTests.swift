import Foundation
import Testing
import TestSupport

@Suite struct DoctorTests {
    @Test("doctor: every check on one screen; fonts cover every script; no camera is a warning, not a failure")
    func healthy() {
        let result = CLI.run(["doctor"])
        #expect(result.code == 0, "\(result.out)")
        #expect(result.out.contains { $0.hasPrefix("ok       fonts") && $0.contains("Devanagari (Hindi), Thai") })
        #expect(result.out.contains { $0.hasPrefix("ok       templates     7 styles") })
        #expect(result.out.contains { $0.contains("photos") && $0.contains("free") })
    }

    @Test("doctor names a broken config file and fonts missing for a script, with the fix")
    func problems() throws {
        let config = try TestFiles.temporaryFolder("doctorcfg")
        try FileManager.default.createDirectory(atPath: config + "/stampcam", withIntermediateDirectories: true)
        try TestFiles.write(Array(#"{"usr": "Ana"}"#.utf8), to: config + "/stampcam/config.json")
        // A data folder whose fonts are DejaVu alone.
        let data = try TestFiles.temporaryFolder("doctordata")
        try FileManager.default.createDirectory(atPath: data + "/fonts", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: TestFiles.packageRoot + "/templates", toPath: data + "/templates")
        try TestFiles.write(Array("""
            <?xml version="1.0"?>
            <!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
            <fontconfig><dir>/usr/share/fonts/truetype/dejavu</dir><cachedir prefix="xdg">stampcam/fontconfig</cachedir></fontconfig>
            """.utf8), to: data + "/fonts/fonts.conf")
        let result = CLI.run(["doctor"], environment: ["XDG_CONFIG_HOME": config, "STAMPCAM_DATA": data])
        #expect(result.code == 69)
        #expect(result.out.contains { $0.hasPrefix("PROBLEM  config") && $0.contains("did you mean 'user'?") })
        let fonts = result.out.first { $0.hasPrefix("warning  fonts") }
        #expect(fonts?.contains("no font for Chinese, Japanese, Korean, Devanagari (Hindi), Thai, Bengali, Tamil") == true, "\(result.out)")
        #expect(fonts?.contains("sudo apt-get install fonts-noto-cjk fonts-noto-core") == true)
    }
}
