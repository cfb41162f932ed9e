import Testing
@testable import StampWeb
import Watermark

/// The small values of the server: addresses, the control seat, labels, JSON, QR codes.
@Suite struct ValueTests {
    @Test("--listen values", arguments: [
        ("127.0.0.1:8080", "127.0.0.1", 8080, true), ("0.0.0.0:80", "0.0.0.0", 80, false), ("localhost:9000", "127.0.0.1", 9000, true),
        ("8081", "127.0.0.1", 8081, true), ("192.168.1.5", "192.168.1.5", 8080, false), ("[::1]:8080", "[::1]", 8080, true),
        ("[::]:8080", "[::]", 8080, false), ("127.1.2.3:0", "127.1.2.3", 0, true),
    ])
    func listen(text: String, host: String, port: Int, loopback: Bool) throws {
        let address = try #require(ListenAddress(text))
        #expect(address.host == host)
        #expect(address.port == port)
        #expect(address.isLoopback == loopback)
    }

    @Test("--listen values that are not addresses", arguments: [
        "", ":", "example.com:80", "127.0.0.1:65536", "127.0.0.1:-1", "127.0.0.1:http", "[::1", "[::1]8080", "1.2.3:80",
        "256.0.0.1:80", "::1:80", "127.0.0.1:80:80", "٨٠٨٠",
    ])
    func badListen(text: String) {
        #expect(ListenAddress(text) == nil)
    }

    @Test("one controller at a time: the first to change something, until it leaves or someone takes over")
    func seat() {
        var seat = ControlSeat(awayAfter: 10)
        let phone = ControlSeat.Client(id: "phone-0001", label: "Chrome on Android (192.168.1.23)")
        let laptop = ControlSeat.Client(id: "laptop-001", label: "Firefox on Linux (127.0.0.1)")
        func claim(_ client: ControlSeat.Client, at time: Double) -> Bool { seat.claim(client, at: time) }
        #expect(claim(phone, at: 0))
        #expect(!claim(laptop, at: 1))
        #expect(seat.holderDescription == phone.label)
        #expect(claim(phone, at: 2))
        // The phone's page stays open (its event stream): it is not away, however quiet.
        seat.listening(phone, opened: true, at: 3)
        #expect(!claim(laptop, at: 100))
        seat.listening(phone, opened: false, at: 101)
        #expect(!claim(laptop, at: 105), "gone for less than 10 s")
        #expect(claim(laptop, at: 112), "gone for more than 10 s: the seat is free")
        #expect(seat.holder == laptop)
        seat.takeOver(phone, at: 113)
        #expect(seat.holder == phone)
        #expect(!claim(laptop, at: 114))
    }

    @Test("people see who controls the camera")
    func labels() {
        let android = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36"
        #expect(ClientLabel.make(userAgent: android, address: "192.168.1.23") == "Chrome on Android (192.168.1.23)")
        let iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"
        #expect(ClientLabel.make(userAgent: iphone, address: "10.0.0.2") == "Safari on iPhone (10.0.0.2)")
        #expect(ClientLabel.make(userAgent: "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0", address: "")
                == "Firefox on Linux")
        #expect(ClientLabel.make(userAgent: "curl/7.88.1", address: "127.0.0.1") == "curl (127.0.0.1)")
        #expect(ClientLabel.make(userAgent: nil, address: "127.0.0.1") == "a program (127.0.0.1)")
        #expect(ClientLabel.isClientID("0123abcd"))
        #expect(!ClientLabel.isClientID("short"))
        #expect(!ClientLabel.isClientID("has space 123"))
        #expect(!ClientLabel.isClientID(String(repeating: "a", count: 65)))
        #expect(!ClientLabel.isClientID("ünïcode-id"))
    }

    @Test("the state document: every key the page reads, null for what is absent, in one order")
    func stateDocument() {
        let state = WebJSON.State(
            version: 7, phase: "reviewing", message: nil, error: false,
            style: .init(index: 1, id: "banner", name: "Banner", count: 2, notShown: ["note"]), flash: .init(mode: "off", modes: ["off", "torch"]),
            zoom: .init(factor: 1.5, max: 4), camera: .init(name: "Test pattern", index: 0, count: 1, width: 640, height: 360),
            fields: .init(user: "Ana \"A\" 李\n", project: nil, location: "Pier 4/2", note: nil), projects: ["North"], shots: 2,
            unsaved: true, folder: "/photos", control: .init(holder: nil, mine: false, free: true), lastSaved: nil)
        #expect(String(decoding: WebJSON.bytes(state), as: UTF8.self) == #"{"camera":{"count":1,"height":360,"index":0,"name":"Test pattern","width":640},"#
            + #""control":{"free":true,"holder":null,"mine":false},"error":false,"fields":{"location":"Pier 4/2","note":null,"project":null,"#
            + #""user":"Ana \"A\" 李\n"},"flash":{"mode":"off","modes":["off","torch"]},"folder":"/photos","lastSaved":null,"message":null,"#
            + #""phase":"reviewing","projects":["North"],"shots":2,"style":{"count":2,"id":"banner","index":1,"name":"Banner","notShown":["note"]},"#
            + #""unsaved":true,"version":7,"zoom":{"factor":1.5,"max":4}}"#)
        let shot = WebJSON.Shot(name: "a.jpg", url: "/shots/a.jpg", thumbnail: "/shots/a.jpg?thumbnail=1")
        #expect(String(decoding: WebJSON.bytes(WebJSON.Refusal(error: "no such API: /x")), as: UTF8.self) == #"{"error":"no such API: /x"}"#)
        #expect(String(decoding: WebJSON.bytes([shot]), as: UTF8.self) == #"[{"name":"a.jpg","thumbnail":"/shots/a.jpg?thumbnail=1","url":"/shots/a.jpg"}]"#)
    }

    @Test("a QR code for a URL: finder patterns in three corners, the URL's size")
    func qrCode() throws {
        let code = try #require(QRMatrix("http://192.168.1.23:8080/?token=0123456789abcdef0123456789abcdef"))
        #expect(code.size >= 21 && (code.size - 17) % 4 == 0)
        for (cornerX, cornerY) in [(0, 0), (code.size - 7, 0), (0, code.size - 7)] {
            for i in 0..<7 {  // the finder's dark outer ring
                #expect(code.isDark(x: cornerX + i, y: cornerY))
                #expect(code.isDark(x: cornerX, y: cornerY + i))
            }
            #expect(!code.isDark(x: cornerX + 1, y: cornerY + 1))  // its light inner ring
            #expect(code.isDark(x: cornerX + 3, y: cornerY + 3))   // its dark centre
        }
        let lines = try #require(WebServer.qrLines("http://x/"))
        #expect(lines.count == (QRMatrix("http://x/")!.size + 8 + 1) / 2)
        #expect(QRMatrix(String(repeating: "x", count: 8000)) == nil, "too long for any QR code")
    }
}
