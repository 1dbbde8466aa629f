import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

import MediaIO

@testable import CoverPicker

@Suite("Cover suggestions")
struct CoverSuggestionTests {
    static func picture(_ width: Int, _ height: Int, _ colour: (Int, Int) -> RGB) -> PixelBuffer {
        var picture = PixelBuffer(width: width, height: height)
        for y in 0..<height { for x in 0..<width { picture[x, y] = colour(x, y) } }
        return picture
    }

    static let white = RGB(255, 255, 255), black = RGB(0, 0, 0)

    @Test("the measures, on pictures whose values are known")
    func measures() {
        // A one-pixel checkerboard: every inner Laplacian is ±4 in equal numbers (18×10 inner pixels).
        let checker = Self.picture(20, 12) { x, y in (x + y) % 2 == 0 ? Self.white : Self.black }
        let sharp = FrameQuality(checker, companion: nil)
        #expect(abs(sharp.sharpness - 16) < 1e-9)
        #expect(abs(sharp.brightness - 0.5) < 1e-9)
        #expect(abs(sharp.contrast - 0.5) < 1e-9)
        #expect(sharp.colourfulness == 0)
        #expect(sharp.rejection == nil)
        // Pure red: R−G = 1 and (R+G)/2−B = 0.5 everywhere, so only the mean term counts.
        let red = FrameQuality(Self.picture(8, 8) { _, _ in RGB(255, 0, 0) }, companion: nil)
        #expect(abs(red.colourfulness - 0.3 * (1.25).squareRoot()) < 1e-12)
        #expect(red.sharpness == 0)
        #expect(red.rejection == "flat")
    }

    @Test("what a cover must not be", arguments: [
        ("near-black", RGB(10, 10, 10), 0), ("near-white", RGB(245, 245, 245), 0),
        ("fade or flash", RGB(0, 0, 0), 20), ("cut", RGB(0, 0, 0), -1),
    ])
    func rejections(_ expected: String, _ base: RGB, _ brighter: Int) {
        // A textured picture around `base`; the companion is it brightened (a fade), or the
        // inverted texture (a cut) for -1.
        func texture(_ shift: Int, inverted: Bool = false) -> PixelBuffer {
            Self.picture(32, 18) { x, y in
                let on = ((x / 2 + y / 2) % 2 == 0) != inverted
                let v = min(255, max(0, Int(base.r) + shift + (on ? 0 : 90)))
                return RGB(UInt8(v), UInt8(v), UInt8(v))
            }
        }
        let isCut = brighter < 0
        let frame = expected.hasPrefix("near") ? Self.picture(32, 18) { _, _ in base } : texture(60)
        let companion = isCut ? texture(60, inverted: true) : texture(60 + max(0, brighter))
        let quality = FrameQuality(frame, companion: expected.hasPrefix("near") ? nil : companion)
        #expect(quality.rejection == expected, "\(quality)")
    }

    @Test("on black, a fade, a flash and a blur before three sharp scenes: the best three are one of each scene")
    func stretches() throws {
        let clip = try SuggestionClip.make(in: TestPaths.scratchFolder("suggest"))
        let reader = try FrameReader(url: clip)
        let progress = Progress(totalUnitCount: 1)
        let suggestions = try CoverPicker.suggestions(from: reader, count: 3, progress: progress)
        #expect(suggestions.count == 3)
        let scenes = suggestions.map { SuggestionClip.scene(of: $0.time.seconds) }
        #expect(Set(scenes.compactMap { $0 }) == [0, 1, 2], "\(suggestions.map(\.time))")
        #expect(suggestions.allSatisfy { $0.quality.rejection == nil && $0.score > 0.3 })
        #expect(suggestions.map(\.score) == suggestions.map(\.score).sorted(by: >))
        #expect(progress.completedUnitCount == progress.totalUnitCount && progress.totalUnitCount >= 16)
        // Each suggestion's time is a frame's exact time.
        for suggestion in suggestions {
            let frame = try reader.frame(at: .time(suggestion.time), mode: .exact, size: .original)
            #expect(frame.time == suggestion.time)
        }
        // Asked for all of them, the bad stretches come last, each for its reason.
        let all = try CoverPicker.suggestions(from: reader, count: 20)
        let reasons = Set(all.compactMap(\.quality.rejection))
        #expect(reasons.isSuperset(of: ["near-black", "near-white", "fade or flash", "blurred"]), "\(reasons)")
        let firstRejected = try #require(all.firstIndex { $0.quality.rejection != nil })
        #expect(all[firstRejected...].allSatisfy { $0.quality.rejection != nil })
    }

    @Test("a video of one frame suggests that frame")
    func oneFrame() throws {
        let fixture = try FixtureFactory.shared.fixture(.oneFrame)
        let suggestions = try CoverPicker.suggestions(from: FrameReader(url: fixture.url), count: 3)
        #expect(suggestions.map(\.time) == [.zero])
    }

    @Test("cancelling stops before the next frame")
    func cancelled() throws {
        let fixture = try FixtureFactory.shared.fixture(.h264BFrames)
        let progress = Progress(totalUnitCount: 1)
        progress.cancel()
        #expect(throws: CoverPickerError.media(.cancelled)) {
            try CoverPicker.suggestions(from: FrameReader(url: fixture.url), count: 3, progress: progress)
        }
    }
}

@Suite("Cover suggestions: faces")
struct CoverFaceSuggestionTests {
    @Test("among sharp shots, the best suggestion shows the face, and the face term is what put it first")
    func faceFirst() throws {
        let clip = try SuggestionClip.makeWithFace(in: TestPaths.scratchFolder("suggest-face"),
                                                   photos: TestPaths.skimageData)
        let reader = try FrameReader(url: clip)
        let suggestions = try CoverPicker.suggestions(from: reader, count: 4)
        let best = try #require(suggestions.first)
        #expect(SuggestionClip.faceShots[SuggestionClip.faceShot].contains(best.time.seconds), "\(suggestions.map { ($0.time.seconds, $0.score) })")
        let faces = try #require(best.faces)
        #expect(faces.count == 1 && !faces.cut && faces.size > 0.15 && faces.size < 0.3, "\(faces)")
        // Without the face term it would not have won: its own score is below another shot's.
        let sharpestEyes = suggestions.compactMap { $0.faces?.eyeSharpness }.max() ?? 0
        let without = best.score / faces.factor(sharpestEyes: sharpestEyes)
        #expect(suggestions.dropFirst().contains { $0.faces == nil && $0.score > without },
                "face shot \(without) without its face term; others \(suggestions.dropFirst().map(\.score))")
        // The shots without a person carry no face term.
        for suggestion in suggestions where !SuggestionClip.faceShots[SuggestionClip.faceShot].contains(suggestion.time.seconds) {
            #expect(suggestion.faces == nil, "\(suggestion.time.seconds): \(String(describing: suggestion.faces))")
        }
    }

    @Test("the face term: larger, whole and sharper faces add more, never more than 0.8")
    func term() {
        func term(size: Double, cut: Bool, eyes: Double, confidence: Double = 1) -> Double {
            FaceTerm(count: 1, largest: Rect(x: 0, y: 0, width: 10, height: 10), size: size, cut: cut,
                     eyeSharpness: eyes, confidence: confidence).factor(sharpestEyes: 1)
        }
        #expect(term(size: 0.15, cut: false, eyes: 1) == 1.8)
        #expect(term(size: 0.5, cut: false, eyes: 1) == 1.8)
        #expect(abs(term(size: 0.075, cut: false, eyes: 1) - 1.4) < 1e-12)
        #expect(abs(term(size: 0.15, cut: true, eyes: 1) - 1.24) < 1e-12)
        #expect(abs(term(size: 0.15, cut: false, eyes: 0.25) - 1.4) < 1e-12)
        #expect(abs(term(size: 0.15, cut: false, eyes: 1, confidence: 0.5) - 1.4) < 1e-12)
    }
}
