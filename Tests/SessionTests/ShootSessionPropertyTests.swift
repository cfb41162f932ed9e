import Testing
@testable import Session

/// Random event sequences, with the camera and the disk answering the session's effects at random:
/// a taken photo is never lost and never saved twice.
@Suite struct ShootSessionPropertyTests {
    /// A small deterministic generator so a failure can be replayed from its seed.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test("10,000 random sequences keep every photo and save none twice", arguments: 0..<10)
    func randomSequences(batch: Int) {
        for seed in 0..<1000 {
            var random = SplitMix(state: UInt64(batch * 1000 + seed))
            var session = ShootSession(ShootState(styleCount: 6, flashModes: [.off, .on, .auto, .torch], cameraCount: 2))
            var pending: [ShootEvent] = []     // answers the world owes the session
            var saveRequests: [ShotID: Int] = [:]
            var saved: [ShotID: Int] = [:]
            var captured: Set<ShotID> = []
            var released: Set<ShotID> = []     // saved, retaken, or dropped with a "yes" to quit
            for _ in 0..<60 {
                let event: ShootEvent
                if !pending.isEmpty && Bool.random(using: &random) {
                    event = pending.removeFirst()
                } else {
                    event = ShootEvent.userEvents.randomElement(using: &random)!
                }
                let before = session.state
                let effects = session.handle(event)
                if case .saved(let id, _) = event, before.phase == .saving, before.shot == id {
                    saved[id, default: 0] += 1
                    released.insert(id)
                }
                if case .confirm(true) = event, before.phase == .confirmingQuit, let shot = before.shot {
                    released.insert(shot)  // the user chose to drop it
                }
                if case .quit = event, before.phase == .confirmingQuit, let shot = before.shot {
                    released.insert(shot)
                }
                for effect in effects {
                    switch effect {
                    case .capture(let id):
                        pending.append(Bool.random(using: &random) ? .captured(id) : .captureFailed("no frame"))
                    case .save(let id, _):
                        saveRequests[id, default: 0] += 1
                        #expect(saved[id] == nil, "seed \(seed): save requested for a saved shot")
                        pending.append(Bool.random(using: &random) ? .saved(id, path: "/p/\(id.number).jpg")
                                                                  : .saveFailed(id, "disk full"))
                    case .discard(let id):
                        #expect(before.phase != .saving || saved[id] != nil, "seed \(seed): discarded while saving")
                        released.insert(id)
                    default:
                        break
                    }
                }
                if case .captured(let id) = event, before.phase == .capturing { captured.insert(id) }
                // The photo under review is the one taken last, until it is released.
                if let shot = session.state.shot { #expect(!released.contains(shot)) }
            }
            #expect(saved.values.allSatisfy { $0 == 1 }, "seed \(seed): a shot saved twice")
            // Every captured photo is either still held, or was saved, retaken or dropped by choice.
            for id in captured {
                #expect(released.contains(id) || session.state.shot == id, "seed \(seed): shot \(id) lost")
            }
        }
    }
}
