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

    @Test("doctor names a missing table of place names and how to add it (a warning), one it cannot read, and counts one it can")
    func places() throws {
        // A data folder without place names (fonts and templates only).
        let data = try TestFiles.temporaryFolder("doctor-noplaces")
        for item in ["fonts", "templates"] {
            try FileManager.default.createSymbolicLink(atPath: data + "/" + item, withDestinationPath: TestFiles.packageRoot + "/" + item)
        }
        let missing = CLI.run(["doctor"], environment: ["STAMPCAM_DATA": data])
        #expect(missing.code == 0)
        let line = missing.out.first { $0.hasPrefix("warning  places") }
        #expect(line?.contains("{place} stays empty: place names are not installed: run 'make places'") == true, "\(missing.out)")
        let unreadable = CLI.run(["doctor"], environment: ["STAMPCAM_PLACES": data + "/nowhere.csv"])
        #expect(unreadable.out.contains { $0.hasPrefix("warning  places") && $0.hasSuffix("nowhere.csv: cannot read the place names: no such file") },
                "\(unreadable.out)")
        try TestFiles.write(Array("lat,lon,name,admin1,admin2,cc\n31.15,121.11,Qingpu,Shanghai,,CN\n".utf8), to: data + "/cities.csv")
        let found = CLI.run(["doctor"], environment: ["STAMPCAM_PLACES": data + "/cities.csv", "XDG_CACHE_HOME": data + "/cache"])
        #expect(found.out.contains { $0.hasPrefix("ok       places") && $0.hasSuffix("1 place in \(data)/cities.csv") }, "\(found.out)")
        let nearest = CLI.run(["places", "31.1509,121.1241"], environment: ["STAMPCAM_PLACES": data + "/cities.csv", "XDG_CACHE_HOME": data + "/cache"])
        #expect(nearest.out.last?.hasPrefix("nearest: Qingpu, Shanghai, CN") == true, "\(nearest.out)")
    }
}
