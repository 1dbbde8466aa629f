import Foundation
import ViewfinderCore

/// How a video's samples turn into colours: the transfer function, primaries, matrix and range
/// its codec signals (the bitstream's VUI, else the container's tags), and for HDR video what
/// kind it is and the mastering metadata it carries.
public struct VideoColour: Sendable, Equatable {
    /// FFmpeg's name of the transfer characteristic ("bt709", "smpte2084", "arib-std-b67"),
    /// nil when the file does not say.
    public var transfer: String?
    /// FFmpeg's name of the colour primaries ("bt709", "bt2020", "smpte432"), nil when unsaid.
    public var primaries: String?
    /// FFmpeg's name of the matrix coefficients ("bt709", "bt2020nc", "smpte170m"), nil when unsaid.
    public var matrix: String?
    /// "tv" (limited) or "pc" (full), nil when unsaid.
    public var range: String?
    /// HLG or PQ, nil for standard dynamic range.
    public var dynamicRange: HDRTransfer?
    /// The Dolby Vision configuration, when the track carries one.
    public var dolbyVision: DolbyVisionConfiguration?
    /// HDR10 mastering-display and content-light metadata, when present.
    public var mastering: HDRMetadata?

    /// Standard dynamic range with nothing signalled.
    public init(transfer: String? = nil, primaries: String? = nil, matrix: String? = nil, range: String? = nil,
                dynamicRange: HDRTransfer? = nil, dolbyVision: DolbyVisionConfiguration? = nil,
                mastering: HDRMetadata? = nil) {
        self.transfer = transfer
        self.primaries = primaries
        self.matrix = matrix
        self.range = range
        self.dynamicRange = dynamicRange
        self.dolbyVision = dolbyVision
        self.mastering = mastering
    }

    /// What a person would call it: "SDR", "HLG", "PQ (HDR10)", "Dolby Vision 8.4 (HLG)".
    public var summary: String {
        let base: String
        switch dynamicRange {
        case nil: base = "SDR"
        case .hlg: base = "HLG"
        case .pq: base = mastering == nil ? "PQ" : "PQ (HDR10)"
        }
        guard let dolbyVision else { return base }
        return "Dolby Vision \(dolbyVision.profileName)" + (dynamicRange == nil ? "" : " (\(base) base layer)")
    }
}

/// The two HDR transfer functions of BT.2100.
public enum HDRTransfer: String, Sendable, Equatable {
    /// Hybrid log-gamma (ARIB STD-B67): scene light, shown on a 1000-nit display by the OOTF.
    case hlg
    /// Perceptual quantizer (SMPTE ST 2084): absolute display light up to 10,000 nits.
    case pq
}

/// A Dolby Vision configuration record (the `dvcC`/`dvvC` box).
public struct DolbyVisionConfiguration: Sendable, Equatable {
    /// Profile: 5 (no compatible base layer), 8 (HDR10/SDR/HLG compatible base), ...
    public var profile: Int
    /// Level (resolution and frame-rate class).
    public var level: Int
    /// What the base layer is compatible with: 1 HDR10, 2 SDR, 4 HLG (for profile 8).
    public var compatibility: Int

    /// "8.4", "8.1", "5".
    public var profileName: String {
        profile == 8 && compatibility > 0 ? "\(profile).\(compatibility)" : "\(profile)"
    }
}

/// HDR10's static metadata: the mastering display (SMPTE ST 2086) and content light levels.
public struct HDRMetadata: Sendable, Equatable {
    /// The mastering display's peak luminance in nits, nil when not given.
    public var masteringPeak: Double?
    /// The mastering display's black level in nits, nil when not given.
    public var masteringBlack: Double?
    /// The brightest pixel of the content in nits (MaxCLL), nil when not given or 0.
    public var maxContentLight: Int?
    /// The brightest frame's average in nits (MaxFALL), nil when not given or 0.
    public var maxFrameAverageLight: Int?
    /// The mastering display's primaries and white point, nil when not given.
    public var displayPrimaries: DisplayPrimaries?

    public init(masteringPeak: Double? = nil, masteringBlack: Double? = nil, maxContentLight: Int? = nil,
                maxFrameAverageLight: Int? = nil, displayPrimaries: DisplayPrimaries? = nil) {
        self.masteringPeak = masteringPeak
        self.masteringBlack = masteringBlack
        self.maxContentLight = maxContentLight
        self.maxFrameAverageLight = maxFrameAverageLight
        self.displayPrimaries = displayPrimaries
    }

    /// The brightest light the pictures hold, for tone mapping: MaxCLL, else the mastering
    /// display's peak; values that cannot be true of a real display (below 100 or above
    /// 10,000 nits, the PQ limit) are ignored, so absurd metadata falls back to the default.
    public var contentPeak: Double? {
        let plausible = 100.0...10_000.0
        if let cll = maxContentLight.map(Double.init), plausible.contains(cll) { return cll }
        if let peak = masteringPeak, plausible.contains(peak) { return peak }
        return nil
    }
}

/// A colour's CIE 1931 xy chromaticity.
public struct Chromaticity: Sendable, Equatable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// A display's red, green and blue primaries and its white point (SMPTE ST 2086).
public struct DisplayPrimaries: Sendable, Equatable {
    public var red: Chromaticity
    public var green: Chromaticity
    public var blue: Chromaticity
    public var white: Chromaticity

    public init(red: Chromaticity, green: Chromaticity, blue: Chromaticity, white: Chromaticity) {
        self.red = red
        self.green = green
        self.blue = blue
        self.white = white
    }

    /// The name of a standard set these are (within 0.0005), nil for others: "Display P3",
    /// "BT.2020", "BT.709".
    public var name: String? {
        let d65 = Chromaticity(x: 0.3127, y: 0.3290)
        let known: [(String, DisplayPrimaries)] = [
            ("Display P3", DisplayPrimaries(red: .init(x: 0.680, y: 0.320), green: .init(x: 0.265, y: 0.690),
                                            blue: .init(x: 0.150, y: 0.060), white: d65)),
            ("BT.2020", DisplayPrimaries(red: .init(x: 0.708, y: 0.292), green: .init(x: 0.170, y: 0.797),
                                         blue: .init(x: 0.131, y: 0.046), white: d65)),
            ("BT.709", DisplayPrimaries(red: .init(x: 0.640, y: 0.330), green: .init(x: 0.300, y: 0.600),
                                        blue: .init(x: 0.150, y: 0.060), white: d65))]
        func near(_ a: Chromaticity, _ b: Chromaticity) -> Bool { abs(a.x - b.x) <= 0.0005 && abs(a.y - b.y) <= 0.0005 }
        return known.first { _, p in
            near(p.red, red) && near(p.green, green) && near(p.blue, blue) && near(p.white, white)
        }?.0
    }
}

/// What to do with HDR (HLG or PQ) video when making an 8-bit SDR picture from it.
public enum HDRConversion: String, Sendable, CaseIterable {
    /// Tone-map (BT.2390's EETF from the content's peak down to BT.2408's 203-nit reference
    /// white as SDR white) and convert the primaries to BT.709: what a person saw.
    case toneMap = "tonemap"
    /// Convert to SDR light and primaries, clipping everything above reference white.
    case clip
    /// Take the coded values as if they were SDR (washed out and flat: what most
    /// thumbnailers show).
    case none

    /// The accepted spellings, for help and errors: "tonemap, clip or none".
    public static var spellings: String { tr("{values} or {last}", ["values": "tonemap, clip", "last": "none"]) }
}
