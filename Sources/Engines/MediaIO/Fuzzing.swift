import Foundation
import ViewfinderCore

/// Entry points for the fuzz targets (`make fuzz`) into MediaIO's byte parsers, which are
/// internal: the movie-box editor of exports without location, and the decoder-configuration
/// and NAL-unit readers of smart cuts. Not API (`@_spi(Fuzzing)`).
@_spi(Fuzzing) public enum FuzzEntry {
    /// Runs the location editor on `payload` wrapped as a `moov` box and returns the edited
    /// box; it must keep the box's size (sample offsets depend on it).
    public static func removeLocation(fromMoviePayload payload: [UInt8]) -> (box: [UInt8], removed: Int) {
        let size = payload.count + 8
        let box = [UInt8(size >> 24 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
            + Array("moov".utf8) + payload
        var editor = MovieLocationEditor(movie: box, isLocationKey: VideoMetadata.isLocationKey)
        let removed = editor.removeLocation()
        return (editor.bytes, removed)
    }

    /// Parses `bytes` as an `avcC` and as an `hvcC` record, and as packets of NAL units (length
    /// prefixed with each allowed size, and Annex B), as a smart cut reads them; returns how
    /// many units were found, to keep the work observable.
    public static func readParameterSets(_ bytes: [UInt8]) -> Int {
        var found = 0
        if var avc = AVCConfiguration(record: bytes) {
            found += avc.sequenceParameterSets.count + avc.pictureParameterSets.count
            for unit in avc.sequenceParameterSets { _ = AVCConfiguration.sequenceParameterSetID(unit) }
            for unit in avc.pictureParameterSets { _ = AVCConfiguration.pictureParameterSetID(unit) }
            _ = avc.add(sequence: avc.sequenceParameterSets, picture: avc.pictureParameterSets)
        }
        if let hevc = HEVCConfiguration(record: bytes) {
            found += hevc.parameterSets.count
            _ = hevc.prefixed(hevc.parameterSets)
        }
        bytes.withUnsafeBufferPointer { buffer in
            for lengthSize in [1, 2, 4] {
                found += AVCConfiguration.units(ofPacket: buffer, lengthSize: lengthSize)?.count ?? 0
                _ = AVCConfiguration.startsAtIDR(buffer, lengthSize: lengthSize)
                _ = HEVCConfiguration.pictureKind(buffer, lengthSize: lengthSize)
            }
            let units = AVCConfiguration.annexBUnits(buffer)
            found += units.count
            _ = AVCConfiguration.lengthPrefixed(units, lengthSize: 4)
        }
        return found
    }
}
