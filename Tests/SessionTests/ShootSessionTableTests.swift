import Testing
@testable import Session

/// Every phase × every event: the expected next phase and effects. Pairs not in the table must change
/// nothing at all (same state, no effects).
@Suite struct ShootSessionTableTests {
    static let shot = ShotID(1)
    static let stale = ShotID(99)

    /// A session in the named phase, reached through real events so the state is consistent.
    static func session(in phase: String) -> ShootSession {
        var session = ShootSession(ShootState(styleCount: 3, flashModes: [.off, .torch], maxZoom: 4, cameraCount: 2))
        func go(_ events: ShootEvent...) { for event in events { _ = session.handle(event) } }
        switch phase {
        case "viewfinder": break
        case "capturing": go(.shutter)
        case "reviewing": go(.shutter, .captured(shot))
        case "saving": go(.shutter, .captured(shot), .use)
        case "saved": go(.shutter, .captured(shot), .use, .saved(shot, path: "/p/1.jpg"))
        case "failed": go(.shutter, .captureFailed("camera unplugged"))
        case "confirmingQuit": go(.shutter, .captured(shot), .quit)
        case "finished": go(.quit)
        default: Issue.record("unknown phase \(phase)")
        }
        return session
    }

    static func name(_ phase: ShootState.Phase) -> String {
        switch phase {
        case .viewfinder: return "viewfinder"
        case .capturing: return "capturing"
        case .reviewing: return "reviewing"
        case .saving: return "saving"
        case .saved: return "saved"
        case .failed: return "failed"
        case .confirmingQuit: return "confirmingQuit"
        case .finished: return "finished"
        }
    }

    static let phases = ["viewfinder", "capturing", "reviewing", "saving", "saved", "failed", "confirmingQuit", "finished"]
    static let events: [(String, ShootEvent)] = [
        ("shutter", .shutter), ("retake", .retake), ("use", .use), ("quit", .quit), ("yes", .confirm(true)),
        ("no", .confirm(false)), ("next", .nextStyle), ("previous", .previousStyle), ("flash", .cycleFlash),
        ("camera", .switchCamera), ("zoomIn", .zoomIn), ("zoomOut", .zoomOut), ("focus", .focus),
        ("style2", .chooseStyle(2)), ("style9", .chooseStyle(9)), ("styleNegative", .chooseStyle(-1)),
        ("zoom3", .setZoom(3)), ("zoom99", .setZoom(99)), ("zoomNaN", .setZoom(.nan)),
        ("flashTorch", .setFlash(.torch)), ("flashOn", .setFlash(.on)),
        ("focusPoint", .focusAt(x: 0.25, y: 0.75)), ("focusOutside", .focusAt(x: 1.5, y: 0.5)),
        ("captured", .captured(shot)), ("captureFailed", .captureFailed("no frame")),
        ("saved", .saved(shot, path: "/p/1.jpg")), ("saveFailed", .saveFailed(shot, "disk full")),
        ("savedStale", .saved(stale, path: "/p/x.jpg")), ("saveFailedStale", .saveFailed(stale, "x")),
    ]

    /// (phase, event) → (next phase, effects). The live phases share their controls.
    static let table: [String: (String, [ShootEffect])] = {
        var table: [String: (String, [ShootEffect])] = [
            "viewfinder/shutter": ("capturing", [.capture(ShotID(1))]),
            "saved/shutter": ("capturing", [.capture(ShotID(2))]),
            "failed/shutter": ("capturing", [.capture(ShotID(2))]),
            "failed/retake": ("viewfinder", []),
            "capturing/captured": ("reviewing", [.renderShot(shot, style: 0)]),
            "capturing/captureFailed": ("failed", []),
            "reviewing/next": ("reviewing", [.renderShot(shot, style: 1)]),
            "reviewing/previous": ("reviewing", [.renderShot(shot, style: 2)]),
            "reviewing/style2": ("reviewing", [.renderShot(shot, style: 2)]),
            "reviewing/retake": ("viewfinder", [.discard(shot)]),
            "reviewing/use": ("saving", [.save(shot, style: 0)]),
            "reviewing/quit": ("confirmingQuit", []),
            "saving/saved": ("saved", [.discard(shot)]),
            "saving/saveFailed": ("reviewing", []),
            "capturing/quit": ("finished", [.exit]),
            "confirmingQuit/yes": ("finished", [.discard(shot), .exit]),
            "confirmingQuit/quit": ("finished", [.discard(shot), .exit]),
            "confirmingQuit/no": ("reviewing", []),
        ]
        for live in ["viewfinder", "saved", "failed"] {
            table["\(live)/quit"] = ("finished", [.exit])
            table["\(live)/next"] = (live, [])
            table["\(live)/previous"] = (live, [])
            table["\(live)/flash"] = (live, [.setFlash(.torch)])
            table["\(live)/camera"] = (live, [.switchCamera(1)])
            table["\(live)/zoomIn"] = (live, [.setZoom(1.25)])
            table["\(live)/focus"] = (live, [.triggerFocus(.auto)])
            table["\(live)/style2"] = (live, [])
            table["\(live)/zoomOut"] = (live, [])  // already at 1×: nothing to do, but not refused
            table["\(live)/zoom3"] = (live, [.setZoom(3)])
            table["\(live)/zoom99"] = (live, [.setZoom(4)])  // clamped to the camera's range
            table["\(live)/flashTorch"] = (live, [.setFlash(.torch)])
            table["\(live)/focusPoint"] = (live, [.triggerFocus(.point(x: 0.25, y: 0.75))])
        }
        return table
    }()

    static let cases: [(String, String)] = phases.flatMap { phase in events.map { (phase, $0.0) } }

    @Test("every phase × every event", arguments: cases)
    func transition(phase: String, eventName: String) {
        var session = Self.session(in: phase)
        let before = session.state
        let event = Self.events.first { $0.0 == eventName }!.1
        let effects = session.respond(to: event)
        if let (expectedPhase, expectedEffects) = Self.table["\(phase)/\(eventName)"] {
            #expect(Self.name(session.state.phase) == expectedPhase)
            #expect(effects == expectedEffects)
        } else {
            #expect(session.state == before, "\(phase)/\(eventName) should change nothing")
            #expect(effects == nil, "\(phase)/\(eventName) should be refused as meaningless")
        }
    }

    @Test("an event that means something but changes nothing is not refused: the style already chosen, zoom at its end")
    func meaningfulWithoutChange() {
        var session = Self.session(in: "viewfinder")
        #expect(session.respond(to: .chooseStyle(0)) == [])
        #expect(session.respond(to: .setZoom(1)) == [])
        #expect(session.respond(to: .setFlash(.off)) == [])
        var review = Self.session(in: "reviewing")
        #expect(review.respond(to: .chooseStyle(0)) == [])  // no re-render of the same style
        #expect(review.respond(to: .chooseStyle(1)) == [.renderShot(Self.shot, style: 1)])
        #expect(review.state.style == 1)
    }

    @Test("a failed save keeps the photo for another try; the retry saves it once")
    func saveRetry() {
        var session = Self.session(in: "saving")
        _ = session.handle(.saveFailed(Self.shot, "read-only folder"))
        #expect(session.state.phase == .reviewing)
        #expect(session.state.shot == Self.shot)
        #expect(session.state.message == "Not saved: read-only folder")
        #expect(session.handle(.use) == [.save(Self.shot, style: 0)])
        _ = session.handle(.saved(Self.shot, path: "/p/1.jpg"))
        #expect(session.state.phase == .saved(path: "/p/1.jpg"))
        #expect(session.state.message == "Saved /p/1.jpg")
        #expect(session.handle(.use).isEmpty)
    }

    @Test("a style change in review re-renders the same shot; flash cycles only the camera's modes")
    func styleAndFlash() {
        var session = Self.session(in: "reviewing")
        #expect(session.handle(.nextStyle) == [.renderShot(Self.shot, style: 1)])
        #expect(session.handle(.nextStyle) == [.renderShot(Self.shot, style: 2)])
        #expect(session.handle(.nextStyle) == [.renderShot(Self.shot, style: 0)])
        var live = Self.session(in: "viewfinder")
        #expect(live.handle(.cycleFlash) == [.setFlash(.torch)])
        #expect(live.handle(.cycleFlash) == [.setFlash(.off)])
        #expect(live.handle(.zoomOut).isEmpty)  // already at 1×
        for _ in 0..<20 { _ = live.handle(.zoomIn) }
        #expect(live.state.zoom == 4)
    }

    @Test("a camera without a second camera or flash: those keys do nothing but say so")
    func singleCamera() {
        var session = ShootSession(ShootState(styleCount: 1, flashModes: [], cameraCount: 1))
        #expect(session.handle(.switchCamera).isEmpty)
        #expect(session.state.message == "No other camera to switch to")
        #expect(session.handle(.cycleFlash).isEmpty)
        #expect(session.state.message == "This camera has no flash or torch to switch")
        #expect(session.state.flashModes == [.off] && session.state.flash == .off)
    }

    @Test("a new action replaces an old notice: zooming after 'No other camera' shows the zoom again")
    func newActionReplacesNotice() {
        var session = ShootSession(ShootState(styleCount: 2, flashModes: [], maxZoom: 4, cameraCount: 1))
        _ = session.handle(.switchCamera)
        #expect(session.state.message == "No other camera to switch to")
        #expect(session.handle(.zoomIn) == [.setZoom(1.25)])
        #expect(session.state.message == nil)
        _ = session.handle(.cycleFlash)
        #expect(session.state.message == "This camera has no flash or torch to switch")
        _ = session.handle(.nextStyle)
        #expect(session.state.message == nil)
        // A failed capture's reason stays while the controls change.
        _ = session.handle(.shutter)
        _ = session.handle(.captureFailed("camera gone"))
        _ = session.handle(.zoomIn)
        #expect(session.state.message == "camera gone")
    }

    @Test("'n' to the quit question takes the question away; the starting zoom is the one asked for")
    func quitQuestionGoes() {
        var session = ShootSession(ShootState(styleCount: 1, zoom: 2.5))
        #expect(session.state.zoom == 2.5)
        _ = session.handle(.shutter)
        _ = session.handle(.captured(ShotID(1)))
        _ = session.handle(.quit)
        #expect(session.state.message != nil)
        _ = session.handle(.confirm(false))
        #expect(session.state.phase == .reviewing && session.state.message == nil)
    }
}
